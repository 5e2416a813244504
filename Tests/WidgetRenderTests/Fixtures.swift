import Foundation
import NoiseControl
import SharedStore
import WidgetDataKeys
import WidgetDesign

@testable import WidgetRender

/// Pinned inputs for layout and golden tests: the render clock, zone, locale and every snapshot.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_769_247_000)  // 2026-01-24T09:30:00Z
    static let timeZone = TimeZone(identifier: "Europe/London")!
    static let locale = Locale(identifier: "en_GB")

    /// A store holding steps and weather snapshots, for the `__steps_*` / `__weather_*` keys.
    static let snapshotStore: StoreRoot = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ww-render-fixtures-\(getpid())")
        let snapshots = dir.appendingPathComponent("snapshots")
        try! FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try! Data(
            """
            {"schemaVersion": 1, "access": "authorized", "goalWeekday": 10000, "goalWeekend": 8000,
             "today": {"date": "2026-01-24", "steps": 6532, "updatedAt": "2026-01-24T09:15:00Z"},
             "history": [{"date": "2026-01-23", "steps": 12000}, {"date": "2026-01-22", "steps": 10400}, {"date": \
            "2026-01-21", "steps": 11020}]}
            """.utf8
        ).write(to: snapshots.appendingPathComponent("steps.json"))
        return StoreRoot(url: dir)
    }()

    static func context(isPro: Bool = false) -> RenderContext {
        RenderContext(
            now: now, timeZone: timeZone, locale: locale, isPro: isPro, builtIns: BuiltInKeys.load(from: snapshotStore))
    }

    static func design(_ template: String, remix: String? = nil) -> WidgetSpec {
        var d = try! TemplateCatalogue.find(template)!.design(remix: remix, now: now)
        d.id = UUID(uuidString: "00000000-0000-0000-0000-00000000000\(abs(template.hashValue % 10))") ?? d.id
        return d
    }

    static let weather = WeatherState(
        location: "London",
        current: .init(
            fetchedAt: now.addingTimeInterval(-600), condition: "Cloudy", symbol: "cloud.rain.fill", temperatureC: 7.4,
            highC: 9, lowC: 3.2, nowcast: "Light rain in 20 min", nowcastSecondary: "Ends in 35m", rainStartMinutes: 20,
            rainEndMinutes: 55, rainPeakIntensityMMh: 1.2, rainPeakChance: 0.6))

    static let calendar = CalendarSnapshot(events: [
        .init(
            title: "Design review with the audio team", start: now.addingTimeInterval(45 * 60),
            end: now.addingTimeInterval(90 * 60), location: "Room 4 / Jitsi"),
        .init(title: "Lunch with Sam", start: now.addingTimeInterval(3 * 3600), end: now.addingTimeInterval(4 * 3600)),
    ])

    /// Two local sources (a todo.txt and a task list) read 30 minutes before the render clock
    /// (Saturday 24 January, 09:30 in London): two overdue, three due today (one done), one
    /// soon, one undated, one done yesterday; priorities 1–4 on four of them.
    static let reminders: RemindersSnapshot = {
        let day: Double = 86_400
        let midnight = Date(timeIntervalSince1970: 1_769_212_800)  // 24 January, 00:00 London
        func item(
            _ id: String, _ title: String, done: Bool = false, due: Date? = nil, dated: Bool = false,
            priority: Int? = nil,
            list: String, completed: Date? = nil
        ) -> RemindersSnapshot.Item {
            .init(
                id: id, source: String(id.split(separator: ":")[0]), title: title, done: done, due: due,
                dueIsDate: due == nil ? nil : dated, priority: priority, list: list, completedAt: completed)
        }
        return RemindersSnapshot(
            updatedAt: now.addingTimeInterval(-1800), timeZone: "Europe/London",
            sources: [
                .init(
                    id: "home", name: "todo", kind: .todoTxt, location: "/home/sam/todo.txt", readOnly: false,
                    contentSHA256: String(repeating: "a", count: 64), ok: true, itemCount: 6),
                .init(
                    id: "work", name: "Work", kind: .iCalendar, location: "/home/sam/work-tasks.ics", readOnly: false,
                    contentSHA256: String(repeating: "b", count: 64), ok: true, itemCount: 3),
            ],
            items: [
                item("home:1", "Buy oat milk", due: midnight.addingTimeInterval(17 * 3600), list: "Groceries"),
                item(
                    "home:2", "Call the dentist", due: midnight.addingTimeInterval(-day), dated: true, priority: 1,
                    list: "Health"),
                item(
                    "work:12", "Send the slides to Sam", due: midnight.addingTimeInterval(14 * 3600), priority: 2,
                    list: "Work"),
                item(
                    "work:30", "Book train tickets", due: midnight.addingTimeInterval(3 * day), dated: true,
                    priority: 3, list: "Travel"),
                item("work:44", "Review the budget", priority: 4, list: "Work"),
                item(
                    "home:8", "Renew passport", due: midnight.addingTimeInterval(-4 * day), dated: true,
                    list: "Personal"),
                item(
                    "home:3", "Water the plants", done: true, due: midnight, dated: true, list: "Home",
                    completed: midnight.addingTimeInterval(8 * 3600)),
                item(
                    "home:5", "Pay rent", done: true, list: "Home",
                    completed: midnight.addingTimeInterval(-day + 10 * 3600)),
            ])
    }()

    /// The calendar plus events later in January and across the month boundary, for the month grid's dots.
    static let monthCalendar = CalendarSnapshot(
        events: calendar.events + [
            .init(
                title: "Dentist", start: now.addingTimeInterval(4 * 86_400),
                end: now.addingTimeInterval(4 * 86_400 + 3600)),
            .init(
                title: "Away", start: Date(timeIntervalSince1970: 1_769_904_000),
                end: Date(timeIntervalSince1970: 1_770_076_800), isAllDay: true),  // 1–2 Feb
            .init(title: "Standup", start: now.addingTimeInterval(-3 * 86_400)),
        ])

    /// Weather for the Forecast template, fetched `ageSeconds` before the render clock: five days
    /// of daily summaries (the fourth day's low missing) and hourly temperatures.
    static func forecast(ageSeconds: Double = 600) -> ForecastSnapshot {
        let days = [
            ForecastSnapshot.Day(
                date: "2026-01-24", highC: 9, lowC: 3.2, precipitationChance: 0.61, condition: "Light rain",
                symbol: "cloud.rain.fill"),
            ForecastSnapshot.Day(
                date: "2026-01-25", highC: 11.4, lowC: 5, precipitationChance: 0.05, condition: "Partly cloudy",
                symbol: "cloud.sun.fill"),
            ForecastSnapshot.Day(
                date: "2026-01-26", highC: 6, lowC: -1.6, precipitationChance: 0.2, condition: "Clear",
                symbol: "sun.max.fill"),
            ForecastSnapshot.Day(
                date: "2026-01-27", highC: 4, lowC: nil, precipitationChance: 1.0, condition: "Snow",
                symbol: "cloud.snow.fill"),
            ForecastSnapshot.Day(
                date: "2026-01-28", highC: 5, lowC: 1, precipitationChance: 0.4, condition: "Cloudy",
                symbol: "cloud.fill"),
        ]
        // Hourly from midnight on the 24th (London is on UTC in January): a daily swing around each day's middle.
        let midnight = 1_769_212_800.0
        var hours: [ForecastSnapshot.Hour] = []
        for h in 0..<(24 * 5) {
            let day = days[h / 24]
            let mid = ((day.highC ?? 5) + (day.lowC ?? 0)) / 2, swing = ((day.highC ?? 5) - (day.lowC ?? 0)) / 2
            let t = mid + swing * sin((Double(h % 24) - 9) / 24 * 2 * .pi)
            hours.append(.init(time: Date(timeIntervalSince1970: midnight + Double(h) * 3600), temperatureC: t))
        }
        return ForecastSnapshot(
            location: "London", latitude: 51.5072, longitude: -0.1276, fetchedAt: now.addingTimeInterval(-ageSeconds),
            temperatureC: 7.4, condition: "Cloudy", symbol: "cloud.fill", days: days, hours: hours)
    }

    static func noise(_ playback: NoiseWidgetState.Playback) -> NoiseWidgetState {
        NoiseWidgetState(
            playback: playback, mixName: "Rain on a tent",
            layers: [
                .init(enabled: true, volume: 0.72, colour: 2), .init(enabled: true, volume: 0.35, colour: 1),
                .init(enabled: playback != .stopped, volume: 0.2, colour: 0),
                .init(enabled: false, volume: 0.5, colour: 1.4),
            ],
            masterVolume: 0.7, timerRemainingSeconds: playback == .stopped ? nil : 23 * 60,
            resumeOnLaunch: playback == .playing,
            updatedAt: now.addingTimeInterval(-2), levelDbfs: playback == .playing ? -18 : nil)
    }

    static func inputs(
        isPro: Bool = false, noise: NoiseWidgetState.Playback = .playing, images: [String: DecodedImage] = [:],
        appearance: Appearance = .dark
    ) -> RenderInputs {
        var inputs = RenderInputs(
            context: context(isPro: isPro), appearance: appearance, noise: Self.noise(noise), weather: weather,
            calendar: calendar, reminders: reminders, images: images)
        inputs.forecast = forecast()
        return inputs
    }

    /// A sunset over hills, drawn procedurally (no photo is copied in): sky gradient, sun, two
    /// hill layers, sea shimmer. Packed RGB.
    static func samplePhotoRGB(width: Int = 720, height: Int = 480) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width), v = Double(y) / Double(height)
                // Sky: deep blue at the top to orange at the horizon.
                var r = 0.10 + 0.95 * pow(v, 1.6), g = 0.12 + 0.45 * pow(v, 1.8), b = 0.35 - 0.15 * v
                let dx = (u - 0.62) * Double(width) / Double(height), dy = v - 0.55
                let d = (dx * dx + dy * dy).squareRoot()
                if d < 0.075 {
                    r = 1
                    g = 0.86
                    b = 0.55
                } else {
                    let glow = max(0, 0.35 - d) * 1.6
                    r += glow
                    g += glow * 0.6
                    b += glow * 0.2
                }
                let hill1 = 0.62 + 0.06 * sin(u * 7 + 1) + 0.03 * sin(u * 19)
                let hill2 = 0.72 + 0.05 * sin(u * 4 + 3) + 0.02 * sin(u * 23 + 1)
                if v > hill1 {
                    r = 0.22
                    g = 0.13
                    b = 0.22
                }
                if v > hill2 {
                    r = 0.10
                    g = 0.07
                    b = 0.13
                }
                if v > 0.86 {
                    // Water: dark, with the sun's reflection as horizontal streaks under it.
                    let streak = 0.5 + 0.5 * sin(v * 260)
                    let near = max(0, 1 - abs(u - 0.62) * 9) * streak
                    r = 0.08 + 0.75 * near
                    g = 0.07 + 0.45 * near
                    b = 0.16 + 0.15 * near
                }
                let i = (y * width + x) * 3
                out[i] = UInt8(max(0, min(255, r * 255)))
                out[i + 1] = UInt8(max(0, min(255, g * 255)))
                out[i + 2] = UInt8(max(0, min(255, b * 255)))
            }
        }
        return out
    }

    static let samplePhotoJPEG: [UInt8] = DesignImages.encodeJPEG(rgb: samplePhotoRGB(), width: 720, height: 480)!

    static var samplePhoto: DecodedImage { try! DesignImages.decode(Data(samplePhotoJPEG), name: "sample.jpg") }

    /// The poster starter with the sample photo.
    static func posterWithPhoto() -> WidgetSpec {
        var d = design("poster")
        d.image = ImageSpec(fileName: "sunset.jpg")
        d.primaryText = "Weekend"
        d.secondaryText = "Sunset over the hills"
        d.name = "Poster"
        return d
    }
}
