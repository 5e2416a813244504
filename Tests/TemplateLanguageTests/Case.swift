import Testing

/// One row of a table: a template, what it must render to, and a readable name.
struct Case: Sendable, CustomTestStringConvertible {
    var template: String
    var expected: String
    var testDescription: String { "\(template) → \(expected)" }
    init(_ template: String, _ expected: String) {
        self.template = template
        self.expected = expected
    }
}
