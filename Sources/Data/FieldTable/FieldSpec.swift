/// One editable field, described once: where it lives (a key path), what it takes, its range or
/// allowed values, default, unit, label and help. The design and mix tables are lists of these;
/// decoders, command lines, the mixer page, `GET /api/fields` and the docs all read them.
public struct FieldSpec: Sendable, Equatable {
    /// What a field holds, as the JSON encoding names it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case number, integer, choice, text, flag, symbol, image, date
    }

    /// How a numeric control should move: frequencies feel even on a log scale.
    public enum Scale: String, Sendable, Equatable {
        case linear, log
    }

    /// A default value as the table states it (the JSON encoding writes it as is).
    public enum Value: Sendable, Equatable {
        case number(Double)
        case text(String)
        case flag(Bool)
        /// Off, or absent (an optional field that is not set).
        case none
    }

    /// Dotted path of the field (`style.padding`); repeated items use `[]` (`layers[].lowCutHz`).
    public let key: String
    /// Other names a command line accepts for it (`padding` for `style.padding`).
    public let aliases: [String]
    public let kind: Kind
    /// The editor group it is shown under (`Style`, `Layer`…).
    public let group: String
    public let label: String
    /// One line of help.
    public let help: String
    /// Numeric range (number and integer fields).
    public let range: ClosedRange<Double>?
    /// Smallest useful change (number and integer fields).
    public let step: Double?
    /// Unit written after values (`pt`, `Hz`, `dB`), or empty.
    public let unit: String
    /// Allowed values (choice fields).
    public let allowed: [String]
    public let defaultValue: Value
    /// May be off or none (removing it is a valid edit).
    public let isOptional: Bool
    /// Only Pro designs may use it.
    public let isPro: Bool
    /// Longest text in characters (text, symbol and image fields).
    public let maxLength: Int?
    public let scale: Scale
    /// A text that takes `{{variables}}`.
    public let takesTemplate: Bool

    public init(
        key: String, aliases: [String] = [], kind: Kind, group: String, label: String, help: String,
        range: ClosedRange<Double>? = nil, step: Double? = nil, unit: String = "", allowed: [String] = [],
        default defaultValue: Value = .none, optional isOptional: Bool = false, pro isPro: Bool = false,
        maxLength: Int? = nil, scale: Scale = .linear, template takesTemplate: Bool = false
    ) {
        self.key = key
        self.aliases = aliases
        self.kind = kind
        self.group = group
        self.label = label
        self.help = help
        self.range = range
        self.step = step
        self.unit = unit
        self.allowed = allowed
        self.defaultValue = defaultValue
        self.isOptional = isOptional
        self.isPro = isPro
        self.maxLength = maxLength
        self.scale = scale
        self.takesTemplate = takesTemplate
    }

    /// Every name this field answers to, the key first.
    public var names: [String] { [key] + aliases }

    /// The numeric range; a number field without one is a table error caught by the table tests.
    public var numberRange: ClosedRange<Double> {
        range ?? -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    }

    /// The range of an integer field.
    public var integerRange: ClosedRange<Int> {
        let r = numberRange
        return Int(r.lowerBound)...Int(r.upperBound)
    }

    /// The default as a number (0 when the default is not one).
    public var defaultNumber: Double {
        if case .number(let d) = defaultValue { return d }
        return 0
    }

    public var defaultFlag: Bool {
        if case .flag(let b) = defaultValue { return b }
        return false
    }

    public var defaultText: String {
        if case .text(let s) = defaultValue { return s }
        return ""
    }

    /// `0…32 pt` for numbers, `a|b|c` for choices, `true|false` for flags, `text, at most N
    /// characters` for texts: what errors and help say is allowed.
    public var allowedText: String {
        switch kind {
        case .number, .integer:
            return FieldFormat.range(numberRange) + (unit.isEmpty ? "" : " \(unit)")
        case .choice: return allowed.joined(separator: "|")
        case .flag: return "true|false"
        case .text, .symbol, .image, .date:
            return maxLength.map { "text, at most \($0) characters" } ?? "text"
        }
    }
}
