import Foundation

/// Reading a value typed for a field (a command line's `FIELD=VALUE`, an editor's box).
extension FieldSpec {
    /// A typed value, checked against the field.
    public enum Parsed: Sendable, Equatable {
        case number(Double)
        case integer(Int)
        case choice(String)
        case flag(Bool)
        case text(String)
        /// Empty or `none` on an optional field: remove it.
        case none
    }

    /// Words that switch an optional field off.
    public static let noneWords: Set<String> = ["", "none", "off"]

    /// Checks `typed` against the field. Numbers are checked against the range, choices against
    /// the allowed values (ignoring case; the table's spelling is returned), texts against the
    /// maximum length. Empty or `none`/`off` on an optional non-text field gives `.none`.
    /// - Throws: `FieldError` naming the key path, the value as typed and what is allowed.
    public func parse(_ typed: String) throws(FieldError) -> Parsed {
        let t = typed.trimmingCharacters(in: .whitespaces)
        if isOptional, kind != .text, Self.noneWords.contains(t.lowercased()) { return .none }
        switch kind {
        case .number:
            guard let d = Double(t), d.isFinite else { throw error(typed, .notANumber, allowedText) }
            guard numberRange.contains(d) else { throw error(typed, .outOfRange, allowedText) }
            return .number(d)
        case .integer:
            guard let i = Int(t) else { throw error(typed, .notAWholeNumber, allowedText) }
            guard integerRange.contains(i) else { throw error(typed, .outOfRange, allowedText) }
            return .integer(i)
        case .choice:
            guard let match = allowed.first(where: { $0.lowercased() == t.lowercased() }) else {
                throw error(typed, .notAllowed, allowed.joined(separator: "|"))
            }
            return .choice(match)
        case .flag:
            switch t.lowercased() {
            case "true", "yes", "on", "1": return .flag(true)
            case "false", "no", "off", "0": return .flag(false)
            default: throw error(typed, .notAFlag, "true|false")
            }
        case .text, .symbol, .image, .date:
            if let maxLength, typed.count > maxLength { throw error(typed, .tooLong, "\(maxLength)") }
            return .text(typed)
        }
    }

    func error(_ typed: String, _ reason: FieldError.Reason, _ allowed: String) -> FieldError {
        FieldError(keyPath: key, value: typed, reason: reason, allowed: allowed)
    }

    /// The one range check of a number read elsewhere (a flag of `noise set`, the mixer page): the
    /// error names the field as `name` (`--colour`, `volume`; the key when nil), the value and the
    /// range with its unit, in `FieldError`'s one wording.
    public func check(_ value: Double, as name: String? = nil) throws(FieldError) -> Double {
        guard value.isFinite, numberRange.contains(value) else {
            throw FieldError(
                keyPath: name ?? key, value: FieldFormat.number(value), reason: .outOfRange, allowed: allowedText)
        }
        return value
    }
}
