/// A typed value a field refuses: the key path, the value as typed and what is allowed, e.g.
/// `style.padding: '99' is out of range; allowed: 0…32`. The one error every field parse throws.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// A number outside the field's range.
        case outOfRange
        case notANumber
        case notAWholeNumber
        case notAFlag
        /// Not one of a choice field's values.
        case notAllowed
        /// Longer than the field's maximum length.
        case tooLong
    }

    public let keyPath: String
    public let value: String
    public let reason: Reason
    /// What the field takes (`0…32`, `a|b|c`, `2000 characters`).
    public let allowed: String

    public init(keyPath: String, value: String, reason: Reason, allowed: String) {
        self.keyPath = keyPath
        self.value = value
        self.reason = reason
        self.allowed = allowed
    }

    /// The message without the key path, for callers that name the field their own way (a flag).
    public var message: String {
        switch reason {
        case .outOfRange: "'\(value)' is out of range; allowed: \(allowed)"
        case .notANumber: "'\(value)' is not a number; allowed: a number in \(allowed)"
        case .notAWholeNumber: "'\(value)' is not a whole number; allowed: a whole number in \(allowed)"
        case .notAFlag: "'\(value)' is not true or false"
        case .notAllowed: "'\(value)' is not allowed; allowed: \(allowed)"
        case .tooLong: "longer than \(allowed) characters"
        }
    }

    public var description: String { "\(keyPath): \(message)" }
}
