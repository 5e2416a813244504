import BoundedJSON

extension JSONValue {
    /// The number of elements of an array; nil for anything else.
    public var arrayCount: Int? { if case .array(let a) = self { a.count } else { nil } }
}
