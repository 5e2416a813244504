import Foundation
import SizeLimits

/// A BEGIN:NAME ... END:NAME block with its properties and sub-components.
public struct Component: Sendable, Equatable {
    /// Upper-cased: VCALENDAR, VEVENT, VTIMEZONE, STANDARD, DAYLIGHT, VALARM, ...
    public var name: String
    public var properties: [Property] = []
    public var components: [Component] = []
    public var line: Int

    public func first(_ name: String) -> Property? { properties.first { $0.name == name } }
    public func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }
}

/// The parsed file: its top-level components (normally one VCALENDAR) and what was worked around.
public struct ICalendarDocument: Sendable {
    public var components: [Component]
    public var warnings: [ICalendarWarning]

    /// Every component called `name` at any depth below the top level.
    public func all(_ name: String) -> [Component] {
        var found: [Component] = []
        func walk(_ c: Component) {
            for child in c.components {
                if child.name == name { found.append(child) }
                walk(child)
            }
        }
        for c in components {
            if c.name == name { found.append(c) }
            walk(c)
        }
        return found
    }

    /// Where each known component sits, for resuming after a mistyped END line.
    static let parents: [String: Set<String>] = {
        var p: [String: Set<String>] = [:]
        for c in ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"] { p[c] = ["VCALENDAR"] }
        p["VALARM"] = ["VEVENT", "VTODO"]
        p["STANDARD"] = ["VTIMEZONE"]
        p["DAYLIGHT"] = ["VTIMEZONE"]
        p["AVAILABLE"] = ["VAVAILABILITY"]
        return p
    }()

    /// Parses a whole file. Errors name the line: nesting deeper than the limit, END without a
    /// matching BEGIN, a file that is not iCalendar at all, a file over the size limit. A
    /// mistyped END line is warned about and reading resumes at the next BEGIN or matching END.
    public static func parse(_ data: Data, limits: ICalendarLimits = ICalendarLimits()) throws -> ICalendarDocument {
        try parse(data, limits: limits) { _, _, _ in false }
    }

    /// Parses a whole file, handing each component to `handOn` as its END is read, with the
    /// components still open around it (outermost first) and the index its top-level component
    /// will have in `components` (nil when it is itself top-level). When `handOn` takes it
    /// (returns true) it is not kept in the tree, so a reader that uses components as they
    /// complete holds one at a time, not the file (`EventExpander.occurrences(inFile:)`).
    /// Errors and warnings are those of `parse(_:limits:)`.
    static func parse(
        _ data: Data, limits: ICalendarLimits,
        handOn: (_ component: Component, _ openAround: ArraySlice<Component>, _ topIndex: Int?) -> Bool
    ) throws -> ICalendarDocument {
        guard data.count <= limits.maxFileBytes else {
            throw ICalendarError(
                line: nil, message: "the file is \(SizeLimit(bytes: limits.maxFileBytes).exceeded(by: data.count))")
        }
        var warnings: [ICalendarWarning] = []
        var lineWarnings: [ICalendarWarning] = []
        var stack: [Component] = []
        var top: [Component] = []
        var componentCount = 0
        var sawBegin = false
        // After a mistyped END: skip lines until a BEGIN or an END that matches an open component.
        var recovering = false
        // At most 1000 warnings: a hostile file cannot grow the list without bound.
        func warn(_ line: Int, _ message: String) {
            if warnings.count < 1000 { warnings.append(ICalendarWarning(line: line, message: message)) }
        }
        func close(_ count: Int) {
            for _ in 0..<count {
                guard let open = stack.popLast() else { return }
                if handOn(open, stack[...], stack.isEmpty ? nil : top.count) { continue }
                if stack.isEmpty { top.append(open) } else { stack[stack.count - 1].components.append(open) }
            }
        }
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            try ContentLines.unfold(bytes, limits: limits, warnings: &lineWarnings) { line, slice in
                guard let property = ContentLines.parse(slice, line: line) else {
                    if !sawBegin && top.isEmpty {
                        throw ICalendarError(line: line, message: "not an iCalendar file (expected BEGIN:VCALENDAR)")
                    }
                    warn(line, "not a content line; ignored")
                    return
                }
                switch property.name {
                case "BEGIN":
                    let name = property.value.trimmingCharacters(in: .whitespaces).uppercased()
                    if !sawBegin && name != "VCALENDAR" {
                        throw ICalendarError(
                            line: line,
                            message: "not an iCalendar file (expected BEGIN:VCALENDAR, found BEGIN:\(name.prefix(40)))")
                    }
                    sawBegin = true
                    if recovering {
                        // Only a known component ends the skipping; close what is open down to
                        // where it belongs (its parent, else the component with the bad END).
                        guard let parents = Self.parents[name] else { return }
                        if let depth = stack.lastIndex(where: { parents.contains($0.name) }) {
                            close(stack.count - depth - 1)
                        } else {
                            close(1)
                        }
                        recovering = false
                    }
                    guard stack.count < limits.maxDepth else {
                        throw ICalendarError(
                            line: line, message: "components are nested deeper than \(limits.maxDepth) levels")
                    }
                    componentCount += 1
                    guard componentCount <= limits.maxComponents else {
                        throw ICalendarError(line: line, message: "more than \(limits.maxComponents) components")
                    }
                    stack.append(Component(name: name, line: line))
                case "END":
                    let name = property.value.trimmingCharacters(in: .whitespaces).uppercased()
                    guard !stack.isEmpty else {
                        guard !top.isEmpty else {
                            throw ICalendarError(line: line, message: "END:\(name.prefix(40)) without a matching BEGIN")
                        }
                        // Junk after END:VCALENDAR, like the property lines there.
                        warn(line, "END:\(name.prefix(40)) after the calendar ended; ignored")
                        return
                    }
                    if stack[stack.count - 1].name == name {
                        close(1)
                        recovering = false
                    } else if let depth = stack.lastIndex(where: { $0.name == name }) {
                        // Closes an outer component: the inner ones lacked their END lines (or one
                        // was mistyped). What they hold is kept.
                        if !recovering {
                            let open = stack[stack.count - 1]
                            warn(
                                line,
                                """
                                END:\(name.prefix(40)) closes BEGIN:\(open.name) from line \
                                \(open.line), which has no END line
                                """)
                        }
                        close(stack.count - depth)
                        recovering = false
                    } else if !recovering {
                        // A mistyped END (END:VTOOD): refusing the file would lose every other event.
                        let open = stack[stack.count - 1]
                        warn(
                            line,
                            """
                            END:\(name.prefix(40)) does not close BEGIN:\(open.name) from line \
                            \(open.line); read on from the next BEGIN or matching END
                            """)
                        recovering = true
                    }
                default:
                    if recovering { return }  // the rest of the component whose END was mistyped
                    guard !stack.isEmpty else {
                        if !sawBegin {
                            throw ICalendarError(
                                line: line, message: "not an iCalendar file (expected BEGIN:VCALENDAR)")
                        }
                        return  // junk after END:VCALENDAR
                    }
                    guard stack[stack.count - 1].properties.count < limits.maxPropertiesPerComponent else {
                        throw ICalendarError(
                            line: line,
                            message:
                                """
                                more than \(limits.maxPropertiesPerComponent) properties in \
                                \(stack[stack.count - 1].name) from line \(stack[stack.count - 1].line)
                                """
                        )
                    }
                    stack[stack.count - 1].properties.append(property)
                }
            }
        }
        warnings = (lineWarnings + warnings).sorted { $0.line < $1.line }
        if let open = stack.last {
            // A truncated download: keep what was complete, say so.
            warnings.append(
                ICalendarWarning(line: open.line, message: "BEGIN:\(open.name) is never closed (truncated file?)"))
            // Close the chain so complete events inside are not lost.
            while var c = stack.popLast() {
                if c.name == "VEVENT" || c.name == "VTODO" || c.name == "VTIMEZONE" {
                    c = Component(name: "X-TRUNCATED", line: c.line)
                }
                if stack.isEmpty { top.append(c) } else { stack[stack.count - 1].components.append(c) }
            }
        }
        guard sawBegin else { throw ICalendarError(line: nil, message: "not an iCalendar file (no BEGIN:VCALENDAR)") }
        return ICalendarDocument(components: top, warnings: warnings)
    }
}
