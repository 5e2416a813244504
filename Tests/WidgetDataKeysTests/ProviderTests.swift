import Foundation
import SharedStore
import TestSupport
import Testing

@testable import TemplateLanguage
@testable import WidgetDataKeys

@Suite("Built-in keys from the noise status and snapshot files")
struct ProviderTests {
    static func noiseStatus(_ json: String) throws -> (StoreRoot, BuiltInKeys) {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(json, to: root.status)
        return (root, BuiltInKeys.load(from: root))
    }

    static func values(
        _ builtIns: BuiltInKeys, now: Date = TemplateFixture.now, tz: String = "UTC",
        locale: String = "en_US"
    ) -> [String: String] {
        let entries = TemplateRenderer().builtInEntries(
            in: TemplateFixture.context(now: now, tz: tz, locale: locale, builtIns: builtIns))
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    static let playing = """
        {"schemaVersion":1,"state":"playing","presetName":"Sleep","masterVolume":0.7,
         "layers":[{"enabled":true,"volume":0.8,"kind":"pink"},{"enabled":false,"volume":1},{"enabled":true,\
        "volume":0}],
         "timerRemainingSeconds":1234,"updatedAt":"2026-01-24T09:29:55Z","pid":123}
        """

    @Test func noiseKeysFromAFreshStatus() throws {
        let (_, builtIns) = try Self.noiseStatus(Self.playing)
        let v = Self.values(builtIns)
        #expect(v["__noise_state"] == "playing")
        #expect(v["__noise_playing"] == "true")
        #expect(v["__noise_preset"] == "Sleep")
        #expect(v["__noise_volume"] == "70")
        #expect(v["__noise_layers_on"] == "1")
        // 1234 s at 09:29:55, five seconds before the render clock: 1229 s left, 20.5 minutes, shown as 21.
        #expect(v["__noise_timer_remaining"] == "21")
        #expect(
            TemplateFixture.render("{{__noise_volume}}% {{__noise_preset||upper}}", builtIns: builtIns) == "70% SLEEP")
    }

    @Test func staleStatusReadsAsStopped() throws {
        let (_, builtIns) = try Self.noiseStatus(Self.playing)
        let v = Self.values(builtIns, now: TemplateFixture.date("2026-01-24T09:30:06Z"))
        #expect(v["__noise_state"] == "stopped")
        #expect(v["__noise_playing"] == "false")
        #expect(v["__noise_timer_remaining"] == nil)
        #expect(v["__noise_preset"] == "Sleep")
    }

    /// A player rewrites `status.json` only on change; its heartbeat says it is alive.
    @Test func anOldStatusWithAFreshHeartbeatIsStillPlaying() throws {
        let provider = NoiseStatusProvider(
            status: .init(
                state: "playing", presetName: "Sleep", timerRemainingSeconds: 1200,
                updatedAt: TemplateFixture.date("2026-01-24T08:00:00Z")))
        var beating = provider.status
        beating.heartbeatAgeSeconds = 0.8
        let context = TemplateFixture.context(now: TemplateFixture.date("2026-01-24T08:10:00Z"))
        let alive = NoiseStatusProvider(status: beating).values(
            in: context,
            formatters: FormatterCache(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!))
        #expect(alive["__noise_state"] == "playing")
        #expect(alive["__noise_timer_remaining"] == "10")  // 20 min at the last write, 10 min ago
        beating.heartbeatAgeSeconds = 30
        #expect(
            NoiseStatusProvider(status: beating).values(
                in: context,
                formatters: FormatterCache(
                    locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!))[
                    "__noise_state"] == "stopped")
        #expect(
            provider.values(
                in: context,
                formatters: FormatterCache(
                    locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!))[
                    "__noise_state"] == "stopped")
    }

    @Test func pausedStatusKeepsItsTimer() throws {
        let (_, builtIns) = try Self.noiseStatus(
            """
            {"state":"paused","timerRemainingSeconds":60,"updatedAt":"2026-01-24T08:00:00Z"}
            """)
        let v = Self.values(builtIns)
        #expect(v["__noise_state"] == "paused")
        #expect(v["__noise_playing"] == "false")
        #expect(v["__noise_timer_remaining"] == "1")
    }

    @Test func missingAndMistypedFieldsAreAbsent() throws {
        let (_, builtIns) = try Self.noiseStatus(#"{"state":3,"masterVolume":"loud","presetName":null,"layers":"x"}"#)
        let keys = Self.values(builtIns).keys.filter { $0.hasPrefix("__noise_") }
        #expect(keys.isEmpty)
        let (_, partial) = try Self.noiseStatus(#"{"state":"stopped","timerRemainingSeconds":100}"#)
        #expect(
            Self.values(partial).filter { $0.key.hasPrefix("__noise_") } == [
                "__noise_state": "stopped", "__noise_playing": "false",
            ])
    }

    @Test func unreadableStatusIsIgnoredAndLeftAlone() throws {
        let (root, builtIns) = try Self.noiseStatus("{not json")
        #expect(TemplateFixture.render("{{__noise_state|off}}", builtIns: builtIns) == "off")
        #expect(try String(contentsOf: root.status, encoding: .utf8) == "{not json")
    }

    @Test func noStatusMeansNoNoiseKeys() throws {
        let builtIns = BuiltInKeys.load(from: try TemplateFixture.temporaryStore())
        #expect(Self.values(builtIns).keys.sorted() == TimeProvider.keys.sorted())
    }

    static let weather = """
        {"schemaVersion":1,
         "location":{"name":"London","latitude":51.5072,"longitude":-0.1276},
         "snapshot":{"fetchedAt":"2026-01-24T09:00:00Z","condition":"Cloudy","symbol":"cloud",
           "temperatureC":7.4,"apparentTemperatureC":5.1,"highC":9.0,"lowC":3.2,
           "precipitationChance":0.3,"humidity":0.82,"nowcast":"Light rain in 20 min",
           "rainStartMinutes":20,"rainEndMinutes":55,"rainPeakIntensityMMh":1.2,"rainPeakChance":0.6}}
        """

    @Test func weatherKeys() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(Self.weather, to: root.snapshots.appendingPathComponent("weather.json"))
        let builtIns = BuiltInKeys.load(from: root)
        let us = Self.values(builtIns, tz: "Europe/London", locale: "en_US")
        #expect(us["__weather_location"] == "London")
        #expect(us["__weather_condition"] == "Cloudy")
        #expect(us["__weather_symbol"] == "cloud")
        #expect(us["__weather_updated_iso"] == "2026-01-24T09:00:00Z")
        #expect(us["__weather_temp"] == "45")
        #expect(us["__weather_temp_c"] == "7")
        #expect(us["__weather_temp_f"] == "45")
        #expect(us["__weather_feels"] == "41")
        #expect(us["__weather_feels_c"] == "5")
        #expect(us["__weather_high"] == "48")
        #expect(us["__weather_low"] == "38")
        #expect(us["__weather_precip"] == "30")
        #expect(us["__weather_precip_fraction"] == "0.3")
        #expect(us["__weather_humidity"] == "82")
        #expect(us["__weather_humidity_fraction"] == "0.82")
        #expect(us["__weather_nowcast"] == "Light rain in 20 min")
        #expect(us["__weather_nowcast_secondary"] == nil)
        #expect(us["__weather_rain_start_min"] == "20")
        #expect(us["__weather_rain_end_min"] == "55")
        #expect(us["__weather_rain_start"] == "09:20")
        #expect(us["__weather_rain_peak_intensity_mmh"] == "1.2")
        #expect(us["__weather_rain_peak_chance"] == "60")
        #expect(us["__weather_rain_peak_chance_fraction"] == "0.6")
        #expect(us["__weather_lat"] == nil)
        let gb = Self.values(builtIns, tz: "Europe/London", locale: "en_GB")
        #expect(gb["__weather_temp"] == "7")
        #expect(gb["__weather_high"] == "9")
        #expect(TemplateFixture.render("{{__weather_temp|--}}°", locale: "en_GB", builtIns: builtIns) == "7°")
    }

    @Test func weatherWithoutSnapshotResolvesTheMinimalSet() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(
            #"{"location":{"name":"Oslo","latitude":59.91,"longitude":10.75,"updatedAt":"2026-01-20T10:00:00Z"}}"#,
            to: root.snapshots.appendingPathComponent("weather.json"))
        let v = Self.values(BuiltInKeys.load(from: root)).filter { $0.key.hasPrefix("__weather_") }
        #expect(
            v == [
                "__weather_location": "Oslo", "__weather_lat": "59.91", "__weather_lon": "10.75",
                "__weather_updated_iso": "2026-01-20T10:00:00Z",
            ])
    }

    /// A temperature beyond the series' rule (|x| < 1000) reads as missing, as it does in the
    /// Weather and Forecast templates (`WeatherFile.read`); before, the keys showed it.
    @Test func anImplausibleTemperatureIsMissingAsInTheTemplates() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(
            #"{"snapshot":{"fetchedAt":"2026-01-24T09:00:00Z","temperatureC":4000,"highC":9,"condition":"Cloudy"}}"#,
            to: root.snapshots.appendingPathComponent("weather.json"))
        let v = Self.values(BuiltInKeys.load(from: root), tz: "Europe/London", locale: "en_GB")
        #expect(v["__weather_temp"] == nil && v["__weather_temp_c"] == nil)
        #expect(v["__weather_high"] == "9" && v["__weather_condition"] == "Cloudy")
    }

    static let steps = """
        {"schemaVersion":1,"access":"authorized","goalWeekday":10000,"goalWeekend":6000,"streakRule":"daily goal",
         "today":{"date":"2026-01-24","steps":6500,"updatedAt":"2026-01-24T09:15:00Z"},
         "history":[{"date":"2026-01-23","steps":12000},{"date":"2026-01-22","steps":10000},
                    {"date":"2026-01-21","steps":9000},{"date":"2025-12-01","steps":20000},{"date":"bad","steps":1}]}
        """

    @Test func stepsKeys() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(Self.steps, to: root.snapshots.appendingPathComponent("steps.json"))
        let builtIns = BuiltInKeys.load(from: root)
        let v = Self.values(builtIns)
        #expect(v["__steps_goal_weekday"] == "10000")
        #expect(v["__steps_goal_weekend"] == "6000")
        #expect(v["__steps_goal_today"] == "6000")  // Saturday
        #expect(v["__steps_streak_rule"] == "daily goal")
        #expect(v["__steps_access"] == "authorized")
        #expect(v["__steps_today"] == "6500")
        #expect(v["__steps_updated_iso"] == "2026-01-24T09:15:00Z")
        #expect(v["__steps_today_fraction"] == "1.0833333333")
        #expect(v["__steps_today_percent"] == "108")
        #expect(v["__steps_goal_hit_today"] == "true")
        #expect(v["__steps_streak"] == "3")  // today, Fri 23rd, Thu 22nd; Wed 21st missed
        #expect(v["__steps_avg_7"] == "10333")
        #expect(v["__steps_avg_7_exact"] == "10333.3333333333")
        #expect(v["__steps_avg_30"] == "10333")
        #expect(v["__steps_best_day"] == "20000")
        #expect(v["__steps_best_day_date_iso"] == "2025-12-01")
        #expect(v["__steps_best_day_date"] == "Dec 1, 2025")
        // The specification's example: built-ins reachable from maths without the prefix.
        #expect(TemplateFixture.render("{{=min(steps_today, steps_goal_today)|0}}", builtIns: builtIns) == "6000")
        #expect(TemplateFixture.render("{{__steps_today_percent}}%", builtIns: builtIns) == "108%")
        // A weekday uses the weekday goal; yesterday's "today" snapshot is not today's.
        let monday = Self.values(builtIns, now: TemplateFixture.date("2026-01-26T09:00:00Z"))
        #expect(monday["__steps_goal_today"] == "10000")
        #expect(monday["__steps_today"] == nil)
        #expect(monday["__steps_goal_hit_today"] == nil)
    }

    @Test func stepsTodayFollowsTheLocalDate() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(Self.steps, to: root.snapshots.appendingPathComponent("steps.json"))
        let builtIns = BuiltInKeys.load(from: root)
        // 03:00 UTC on the 24th is still the 23rd in Los Angeles.
        let la = Self.values(builtIns, now: TemplateFixture.date("2026-01-24T03:00:00Z"), tz: "America/Los_Angeles")
        #expect(la["__steps_today"] == nil)
        #expect(la["__steps_goal_today"] == "10000")
    }

    /// Issue 28 item 12: a field of steps.json that is there but unusable is named, with the file,
    /// to `warn` (the keys it would give are left out, which the widget shows as "--").
    @Test func stepsFieldsOfTheWrongTypeAreNamed() throws {
        let root = try TemplateFixture.temporaryStore()
        let url = root.snapshots.appendingPathComponent("steps.json")
        try TemplateFixture.write(Self.steps, to: url)
        var heard: [String] = []
        _ = BuiltInKeys.load(from: root, warn: { heard.append($0) })
        #expect(
            heard == [
                """
                \(url.path): 1 of the 'history' days lack a date yyyy-MM-dd or a number of steps (the first is \
                history[4]); they are left out
                """
            ])
        try TemplateFixture.write(
            #"""
            {"goalWeekday": 0, "goalWeekend": true, "today": {"date": "24/01/2026", "steps": "lots"}, "history": \#
            {"date": "2026-01-23"}}
            """#,
            to: url)
        heard.removeAll()
        let builtIns = BuiltInKeys.load(from: root, warn: { heard.append($0) })
        #expect(
            heard == [
                "\(url.path): 'goalWeekday' must be a number of steps above 0; got 0 (ignored)",
                "\(url.path): 'goalWeekend' must be a number of steps above 0; got true (ignored)",
                "\(url.path): 'today.date' must be a date yyyy-MM-dd; got \"24/01/2026\" (ignored)",
                "\(url.path): 'today.steps' must be a number of steps, 0 or more; got \"lots\" (ignored)",
                "\(url.path): 'history' must be an array of {\"date\", \"steps\"} days; got an object (ignored)",
            ], "\(heard)")
        let v = Self.values(builtIns)
        #expect(v["__steps_today"] == nil && v["__steps_goal_weekday"] == "10000")
    }

    @Test func activityKeys() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(
            """
            {"access":"authorized","today":{"date":"2026-01-24","updatedAt":"2026-01-24T09:10:00Z","steps":6500,
             "flights":4,"distanceMeters":4520.5,"activeEnergyKcal":312.4}}
            """, to: root.snapshots.appendingPathComponent("activity.json"))
        let v = Self.values(BuiltInKeys.load(from: root)).filter { $0.key.hasPrefix("__activity_") }
        #expect(
            v == [
                "__activity_access": "authorized", "__activity_updated_iso": "2026-01-24T09:10:00Z",
                "__activity_steps_today": "6500", "__activity_flights_today": "4",
                "__activity_distance_m": "4521", "__activity_distance_m_exact": "4520.5",
                "__activity_distance_km": "4.5", "__activity_distance_km_exact": "4.5205",
                "__activity_active_energy_kcal": "312", "__activity_active_energy_kcal_exact": "312.4",
            ])
    }
}
