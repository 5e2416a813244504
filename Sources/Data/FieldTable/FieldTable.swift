/// An ordered list of fields (the design table or the mix table) with look-up by any name.
public struct FieldTable: Sendable {
    public let fields: [FieldSpec]
    /// The groups in the order an editor shows them (a group may be empty).
    public let groups: [String]
    /// Every name, lowercased, to its field's place in `fields` (the first field, should two share one).
    let indexByName: [String: Int]

    public init(groups: [String], fields: [FieldSpec]) {
        self.groups = groups
        self.fields = fields
        indexByName = Dictionary(
            fields.enumerated().flatMap { i, f in f.names.map { ($0.lowercased(), i) } }, uniquingKeysWith: min)
    }

    /// The field with this key or alias, ignoring case.
    public func field(named name: String) -> FieldSpec? { indexByName[name.lowercased()].map { fields[$0] } }

    public subscript(key: String) -> FieldSpec? { field(named: key) }

    /// Primary keys, in table order.
    public var keys: [String] { fields.map(\.key) }
}
