import CivilDates
import Foundation

/// Why an inline maths expression produced no number. The token then uses its fallback.
public enum MathError: Error, Equatable, Sendable {
    case syntax(offset: Int, expected: String)
    /// Nesting (parentheses, signs, function calls) deeper than `MathExpression.maximumDepth`.
    case tooDeep
    /// Division or `%` by zero.
    case divisionByZero
    /// An intermediate or final result overflowed or was NaN (`sqrt(-1)`, `exp(1000)`).
    case notFinite
    case unknownFunction(String)
    case wrongArgumentCount(function: String, expected: String, got: Int)
}

/// Parses and evaluates an inline maths expression in one pass, with no syntax tree: a tree for
/// `1+1+...+1` would be as deep as the expression is long, and both evaluating and freeing it
/// would recurse that deep. Nesting depth is capped, so hostile input cannot exhaust the stack.
///
/// Grammar (whitespace allowed between tokens):
/// ```
/// expression := term (("+" | "-") term)*
/// term       := unary (("*" | "/" | "%") unary)*
/// unary      := ("-" | "+") unary | power
/// power      := primary ("^" unary)?          // right-associative; -2^2 = -4, 2^-1 = 0.5
/// primary    := number | constant | identifier | call | "(" expression ")"
/// call       := name "(" [expression ("," expression)*] ")"  |  "var(" (identifier | string) ")"
/// ```
public struct MathExpression {
    /// How a variable was named in the expression; the renderer decides what each resolves to.
    public enum Reference: Equatable, Sendable {
        /// A bare identifier or `var(identifier)`, exactly as written (`steps_today`).
        case identifier(String)
        /// `var("key with spaces")`, the text between the quotes.
        case quoted(String)
    }

    public static let maximumDepth = 64

    /// Evaluates `source`. `now` is the render clock for `now()`; `resolve` returns a variable's
    /// text, or nil when it is missing. Missing and non-numeric values count as 0.
    public static func evaluate<S: StringProtocol>(
        _ source: S, now: Date,
        resolve: (Reference) -> String?
    ) throws(MathError) -> Double {
        // Parsing the string's own UTF-8 storage saves copying it into an array per evaluation.
        func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Double, MathError> {
            var parser = Parser(bytes: bytes, now: now)
            return Result { () throws(MathError) in try parser.run(resolve) }
        }
        let result =
            source.utf8.withContiguousStorageIfAvailable(run)
            ?? Array(source.utf8).withUnsafeBufferPointer(run)
        return try result.get()
    }

    struct Parser {
        /// Valid only during `evaluate`: the parser never outlives the buffer it was given.
        let bytes: UnsafeBufferPointer<UInt8>
        let now: Date
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>, now: Date) {
            self.bytes = bytes
            self.now = now
        }

        mutating func run(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            let value = try expression(resolve)
            skipSpaces()
            guard index == bytes.count else { throw .syntax(offset: index, expected: "an operator") }
            return value
        }

        @inline(__always) var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpaces() {
            while index < bytes.count, NumberText.isSpace(bytes[index]) { index += 1 }
        }

        mutating func take(_ ascii: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard current == UInt8(ascii: ascii) else { return false }
            index += 1
            return true
        }

        func finite(_ value: Double) throws(MathError) -> Double {
            guard value.isFinite else { throw .notFinite }
            return value
        }

        mutating func expression(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            var value = try term(resolve)
            while true {
                if take("+") {
                    value = try finite(value + term(resolve))
                } else if take("-") {
                    value = try finite(value - term(resolve))
                } else {
                    return value
                }
            }
        }

        mutating func term(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            var value = try unary(resolve)
            while true {
                if take("*") {
                    value = try finite(value * unary(resolve))
                } else if take("/") {
                    let divisor = try unary(resolve)
                    guard divisor != 0 else { throw .divisionByZero }
                    value = try finite(value / divisor)
                } else if take("%") {
                    let divisor = try unary(resolve)
                    guard divisor != 0 else { throw .divisionByZero }
                    value = try finite(value.truncatingRemainder(dividingBy: divisor))
                } else {
                    return value
                }
            }
        }

        mutating func unary(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            // Every recursive path passes through here, so this one counter bounds the stack.
            depth += 1
            defer { depth -= 1 }
            guard depth <= MathExpression.maximumDepth else { throw .tooDeep }
            if take("-") { return try -unary(resolve) }
            if take("+") { return try unary(resolve) }
            let base = try primary(resolve)
            if take("^") {
                return try finite(Foundation.pow(base, unary(resolve)))
            }
            return base
        }

        mutating func primary(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            skipSpaces()
            guard let byte = current else { throw .syntax(offset: index, expected: "a number, name or '('") }
            if byte == UInt8(ascii: "(") {
                index += 1
                let value = try expression(resolve)
                guard take(")") else { throw .syntax(offset: index, expected: "')'") }
                return value
            }
            if NumberText.isDigit(byte) || byte == UInt8(ascii: ".") { return try number() }
            if Self.isNameStart(byte) {
                let name = identifier()
                if take("(") { return try call(name, resolve) }
                // Only one- and two-letter names can be constants; lowercasing every other name
                // would cost as much as looking it up.
                if name.utf8.count <= 2 {
                    switch name.lowercased() {
                    case "pi": return Double.pi
                    case "e": return M_E
                    default: break
                    }
                }
                return NumberText.parseForMaths(resolve(.identifier(name)) ?? "") ?? 0
            }
            throw .syntax(offset: index, expected: "a number, name or '('")
        }

        mutating func number() throws(MathError) -> Double {
            let start = index
            var digits = 0
            while let b = current, NumberText.isDigit(b) {
                index += 1
                digits += 1
            }
            if current == UInt8(ascii: ".") {
                index += 1
                while let b = current, NumberText.isDigit(b) {
                    index += 1
                    digits += 1
                }
            }
            guard digits > 0 else { throw .syntax(offset: start, expected: "a digit") }
            // An exponent only when digits follow, so `2e` is not silently read as 2.
            if let b = current, b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                var look = index + 1
                if look < bytes.count, bytes[look] == UInt8(ascii: "+") || bytes[look] == UInt8(ascii: "-") {
                    look += 1
                }
                if look < bytes.count, NumberText.isDigit(bytes[look]) {
                    index = look
                    while let d = current, NumberText.isDigit(d) { index += 1 }
                }
            }
            guard
                let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            else {
                throw .syntax(offset: start, expected: "a number")
            }
            return try finite(value)
        }

        static func isNameStart(_ byte: UInt8) -> Bool {
            (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_") || byte >= 0x80
        }

        mutating func identifier() -> String {
            let start = index
            while let b = current, Self.isNameStart(b) || NumberText.isDigit(b) { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        mutating func call(_ rawName: String, _ resolve: (Reference) -> String?) throws(MathError) -> Double {
            let name = rawName.lowercased()
            if name == "var" { return try variable(resolve) }
            if name == "now" {
                guard take(")") else { throw .wrongArgumentCount(function: "now", expected: "0", got: 1) }
                return CivilTime.clampedSeconds(now).rounded(.down)
            }
            depth += 1
            defer { depth -= 1 }
            guard depth <= MathExpression.maximumDepth else { throw .tooDeep }
            var arguments = Arguments()
            if !take(")") {
                repeat {
                    arguments.append(try expression(resolve))
                } while take(",")
                guard take(")") else { throw .syntax(offset: index, expected: "',' or ')'") }
            }
            return try finite(apply(name, arguments))
        }

        /// A call's arguments without an array per call: fixed-arity functions take at most three,
        /// and `min`/`max`, which take any number, are folded as the arguments arrive.
        struct Arguments {
            private(set) var count = 0
            private var leading: (Double, Double, Double) = (0, 0, 0)
            private(set) var minimum = 0.0
            private(set) var maximum = 0.0

            mutating func append(_ x: Double) {
                switch count {
                case 0:
                    leading.0 = x
                    minimum = x
                    maximum = x
                case 1: leading.1 = x
                case 2: leading.2 = x
                default: break
                }
                // Same comparisons as `Array.min()`/`max()`, so ties between 0 and -0 resolve alike.
                if count > 0 {
                    if x < minimum { minimum = x }
                    if maximum < x { maximum = x }
                }
                count += 1
            }

            subscript(position: Int) -> Double {
                switch position {
                case 0: return leading.0
                case 1: return leading.1
                default: return leading.2
                }
            }

            var isEmpty: Bool { count == 0 }
        }

        func apply(_ name: String, _ a: Arguments) throws(MathError) -> Double {
            func need(_ count: Int) throws(MathError) {
                guard a.count == count else {
                    throw .wrongArgumentCount(function: name, expected: String(count), got: a.count)
                }
            }
            switch name {
            case "min", "max":
                guard !a.isEmpty else { throw .wrongArgumentCount(function: name, expected: "1 or more", got: 0) }
                return name == "min" ? a.minimum : a.maximum
            case "clamp":
                try need(3)
                // Bounds given the wrong way round are swapped rather than rejected.
                let lo = Swift.min(a[1], a[2]), hi = Swift.max(a[1], a[2])
                return Swift.min(Swift.max(a[0], lo), hi)
            case "abs":
                try need(1)
                return Swift.abs(a[0])
            case "floor":
                try need(1)
                return a[0].rounded(.down)
            case "ceil":
                try need(1)
                return a[0].rounded(.up)
            case "round":
                try need(1)
                return a[0].rounded(.toNearestOrAwayFromZero)
            case "pow":
                try need(2)
                return Foundation.pow(a[0], a[1])
            case "sqrt":
                try need(1)
                return a[0].squareRoot()
            case "log":
                try need(1)
                return a[0] > 0 ? Foundation.log(a[0]) : 0
            case "exp":
                try need(1)
                return Foundation.exp(a[0])
            default: throw .unknownFunction(name)
            }
        }

        /// `var(identifier)` or `var("text")` / `var('text')`: the argument names a key, it is
        /// not evaluated.
        mutating func variable(_ resolve: (Reference) -> String?) throws(MathError) -> Double {
            skipSpaces()
            let reference: Reference
            if let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                index += 1
                let start = index
                while let b = current, b != quote { index += 1 }
                guard current == quote else { throw .syntax(offset: index, expected: "a closing quote") }
                reference = .quoted(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                index += 1
            } else if let b = current, Self.isNameStart(b) {
                reference = .identifier(identifier())
            } else {
                throw .syntax(offset: index, expected: "a key name or quoted key")
            }
            guard take(")") else { throw .syntax(offset: index, expected: "')'") }
            return NumberText.parseForMaths(resolve(reference) ?? "") ?? 0
        }
    }
}
