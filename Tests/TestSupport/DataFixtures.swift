import Foundation

/// The recorded answers of the data sources (Open-Meteo geocoding and forecasts, a todo.txt, a
/// VTODO calendar) in `Tests/TestSupport/Fixtures`, and a loopback Open-Meteo that serves them:
/// the tests never reach the internet.
public enum DataFixtures {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    public static func data(_ name: String) -> Data { try! Data(contentsOf: folder.appendingPathComponent(name)) }
    public static func text(_ name: String) -> String { String(decoding: data(name), as: UTF8.self) }

    /// Serves the recorded answers: /v1/search by name, /v1/forecast.
    public static func openMeteo(
        forecast: @escaping @Sendable () -> LocalHTTPServer.Response = { .json(text("forecast-dublin.json")) }
    )
        throws -> LocalHTTPServer
    {
        try LocalHTTPServer { request in
            switch request.path {
            case "/v1/search":
                switch request.query["name"]?.lowercased() {
                case "dublin": return .json(text("geocoding-dublin.json"))
                case "springfield": return .json(text("geocoding-springfield.json"))
                default: return .json(text("geocoding-none.json"))
                }
            case "/v1/forecast": return forecast()
            default: return .json("{\"error\":true,\"reason\":\"not found\"}", status: 404)
            }
        }
    }

    /// `openMeteo` whose forecast fails (HTTP 500 with `reason`) while `failing()` says so, and
    /// answers the recorded Dublin forecast otherwise: a source that goes down and comes back.
    public static func openMeteo(failingWith reason: String, while failing: @escaping @Sendable () -> Bool)
        throws -> LocalHTTPServer
    {
        try openMeteo(forecast: {
            failing()
                ? .json("{\"error\":true,\"reason\":\"\(reason)\"}", status: 500)
                : .json(text("forecast-dublin.json"))
        })
    }

    /// A calendar "Work": a weekday stand-up in Europe/Dublin from Friday 23 January 2026, a design
    /// review on Monday 26 January at 15:00 UTC and an all-day team day that Monday.
    public static let workCalendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//WidgetWeaver tests//EN\r
        X-WR-CALNAME:Work\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTART;TZID=Europe/Dublin:20260123T100000\r
        DTEND;TZID=Europe/Dublin:20260123T101500\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r
        SUMMARY:Stand-up\r
        LOCATION:Room 2\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:review\r
        DTSTART:20260126T150000Z\r
        DURATION:PT1H\r
        SUMMARY:Design review\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:holiday\r
        DTSTART;VALUE=DATE:20260126\r
        SUMMARY:Team day\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
}
