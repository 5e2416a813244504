import Foundation

/// A limit on the bytes of a file or a request body, and the one way both tools and the browser
/// say a size: MiB with one decimal ("the file is 50.0 MiB; the limit is 32.0 MiB"), never a
/// raw count of bytes a reader has to divide in their head.
public struct SizeLimit: Sendable, Equatable {
    public var bytes: Int

    public init(bytes: Int) { self.bytes = bytes }

    /// A calendar or task list (`.ics`, todo.txt) added from a file, a download or the browser's
    /// upload: one limit everywhere, the one `weaver calendar add` always had (ICalendar's
    /// `ICalendarLimits.maxFileBytes`, 32 MiB).
    public static let dataSourceFile = SizeLimit(bytes: 32 << 20)

    /// `bytes` said for people: "50.0 MiB" from 1 MiB up, "12.5 KiB" from 1 KiB, else "900 bytes".
    public static func said(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return String(format: "%.1f KiB", Double(bytes) / Double(1 << 10)) }
        return "\(bytes) bytes"
    }

    /// "50.0 MiB; the limit is 32.0 MiB" for something of `size` bytes over the limit. When both
    /// round to the same text (32.0 MiB and one byte more), the exact counts follow in brackets.
    public func exceeded(by size: Int) -> String {
        var sizeText = Self.said(size), limitText = Self.said(bytes)
        if sizeText == limitText {
            sizeText += " (\(size) bytes)"
            limitText += " (\(bytes) bytes)"
        }
        return "\(sizeText); the limit is \(limitText)"
    }

    /// For a stream cut off at the limit, whose whole size is not known: "more than 32.0 MiB; the
    /// limit is 32.0 MiB".
    public var exceededByStream: String { "more than \(Self.said(bytes)); the limit is \(Self.said(bytes))" }
}
