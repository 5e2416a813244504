import FieldTable
import Foundation
import WidgetDesign

/// Designing in words: a description becomes a new design, a request becomes edits to one. The model
/// only proposes; each edit goes through the Editor's own path (`DesignEditor.apply`, every value checked
/// by its field's row), one at a time, so a bad one is reported and the others still apply. Nothing
/// is saved here: the caller shows the result and saves it when asked.
public struct DesignAssistant: Sendable {
    public var model: LocalModel

    public init(model: LocalModel) { self.model = model }

    public struct Outcome: Sendable {
        /// The design with every accepted edit (unsaved).
        public var design: WidgetSpec
        /// What changed, as `path: before → after` lines read from the design's own JSON.
        public var changes: [String]
        /// Edits refused, each with the field, the value and why.
        public var refusals: [Refusal]
        /// What the model said it could not do.
        public var notes: [String]

        /// The refusals as lines: `field = 'value': why`.
        public var refused: [String] { refusals.map(\.line) }
    }

    /// One proposed edit that was not applied.
    public struct Refusal: Equatable, Sendable {
        /// The field the model named (perhaps one that does not exist).
        public var field: String
        /// The value it proposed, as it came.
        public var value: String
        /// Why it was refused: the field row's own words (allowed range or values).
        public var reason: String

        public var line: String { "\(field) = \(DesignAssistant.shown(value)): \(reason)" }
    }

    /// The sizes a description may name as the one the widget is mainly for.
    public static let families = ["small", "medium", "large"]

    /// The design a description starts from: the Classic template's (as `weaver designs new` makes it).
    public static func startingDesign(now: Date) throws -> WidgetSpec {
        guard let classic = TemplateCatalogue.find("classic") else { throw AssistantError("no Classic template") }
        return try classic.design(now: now)
    }

    /// A new design from a description, starting from `start` (`startingDesign`).
    /// - Parameter family: the size the widget is mainly for (one of `families`), told to the model.
    public func describe(_ text: String, startingFrom start: WidgetSpec, family: String? = nil) throws -> Outcome {
        let size = family.map { "It is shown mainly as a \($0) widget.\n" } ?? ""
        let prompt = """
            Make a new widget design from this description. Set its name and every field the description \
            asks for.
            Description: \(text)
            \(size)The new design starts as: \(Self.json(start))
            """
        return apply(try model.ask(instructions: EditSchema.instructions(), prompt: prompt), to: start)
    }

    /// Edits to an existing design from a request in words.
    public func edit(_ design: WidgetSpec, request text: String) throws -> Outcome {
        let prompt = """
            Change this widget design as asked; set only the fields the request needs.
            Request: \(text)
            The design now: \(Self.json(design))
            """
        return apply(try model.ask(instructions: EditSchema.instructions(), prompt: prompt), to: design)
    }

    /// Applies each proposed edit on its own; refusals name the field, the value and the reason.
    public func apply(_ proposal: LocalModel.Proposal, to start: WidgetSpec) -> Outcome {
        var design = start
        var refused: [Refusal] = []
        let allowed = Set(EditSchema.fields.map(\.key))
        for edit in proposal.edits {
            guard allowed.contains(edit.field) else {
                refused.append(Refusal(field: edit.field, value: edit.value, reason: "not a field a model may set"))
                continue
            }
            do {
                try DesignEditor.apply([edit], to: &design)
            } catch {
                let reason = "\(error)"
                let said = reason.hasPrefix("\(edit.field): ") ? String(reason.dropFirst(edit.field.count + 2)) : reason
                refused.append(Refusal(field: edit.field, value: edit.value, reason: said))
            }
        }
        return Outcome(
            design: design, changes: Self.changes(from: start, to: design), refusals: refused, notes: proposal.notes)
    }

    static func shown(_ value: String) -> String {
        value.count > 60 ? "'\(value.prefix(57))…'" : "'\(value)'"
    }

    static func json(_ design: WidgetSpec) -> String { String(decoding: design.encoded(), as: UTF8.self) }

    /// The leaves that differ between two designs' JSON, by path (`style.accent: blue → teal`).
    static func changes(from a: WidgetSpec, to b: WidgetSpec) -> [String] {
        func leaves(_ design: WidgetSpec) -> [String: String] {
            var out: [String: String] = [:]
            func walk(_ value: Any, _ path: String) {
                switch value {
                case let o as [String: Any]: for (k, v) in o { walk(v, path.isEmpty ? k : "\(path).\(k)") }
                case let a as [Any]: for (i, v) in a.enumerated() { walk(v, "\(path)[\(i)]") }
                default: out[path] = "\(value)"
                }
            }
            if let object = try? JSONSerialization.jsonObject(with: Data(json(design).utf8)) { walk(object, "") }
            return out
        }
        let before = leaves(a), after = leaves(b)
        return Set(before.keys).union(after.keys).sorted().compactMap { path in
            guard path != "updatedAt", before[path] != after[path] else { return nil }
            return "\(path): \(before[path] ?? "(none)") → \(after[path] ?? "(none)")"
        }
    }
}
