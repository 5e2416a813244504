import Foundation
import SharedStore
import TemplateLanguage
import WidgetDataKeys

/// The fixed render clock and helpers the template language's and the widget data keys' tests use.
public enum TemplateFixture {
    /// 2026-01-24T09:30:00Z, a Saturday.
    public static let now = date("2026-01-24T09:30:00Z")
    public static let utc = TimeZone(identifier: "UTC")!

    public static func date(_ iso: String) -> Date {
        guard let d = DateParsing.parseISO8601(iso, timeZone: utc) else { fatalError("bad fixture date \(iso)") }
        return d
    }

    public static func context(
        now: Date = now, tz: String = "UTC", locale: String = "en_US", pro: Bool = true,
        vars: [String: String] = [:], builtIns: BuiltInKeys = .timeOnly
    ) -> RenderContext {
        var c = RenderContext(
            now: now, timeZone: TimeZone(identifier: tz)!, locale: Locale(identifier: locale),
            isPro: pro, builtIns: builtIns)
        c.addCustomVariables(vars.map { ($0.key, $0.value) })
        return c
    }

    public static func render(
        _ template: String, now: Date = now, tz: String = "UTC", locale: String = "en_US",
        pro: Bool = true, vars: [String: String] = [:], builtIns: BuiltInKeys = .timeOnly
    ) -> String {
        TemplateRenderer().render(
            template,
            in: context(
                now: now, tz: tz, locale: locale, pro: pro, vars: vars,
                builtIns: builtIns))
    }

    /// A fresh store folder under the temporary directory.
    public static func temporaryStore() throws -> StoreRoot {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("vars-tests-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return StoreRoot(url: url)
    }

    public static func write(_ json: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
    }
}
