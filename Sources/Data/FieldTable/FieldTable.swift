/// An ordered list of fields (the design table or the mix table) with look-up by any name.
public struct FieldTable: Sendable {
    public let fields: [FieldSpec]
    /// The groups in the order an editor shows them (a group may be empty).
    public let groups: [String]

    public init(groups: [String], fields: [FieldSpec]) {
        self.groups = groups
        self.fields = fields
    }

    /// The field with this key or alias, ignoring case.
    public func field(named name: String) -> FieldSpec? {
        let n = name.lowercased()
        return fields.first { $0.names.contains { $0.lowercased() == n } }
    }

    public subscript(key: String) -> FieldSpec? { field(named: key) }

    /// Primary keys, in table order.
    public var keys: [String] { fields.map(\.key) }
}
