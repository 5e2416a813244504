import CivilDates
import Foundation
import SharedStore
import Snapshots
import WidgetDataKeys

/// `weaver weather ...`: the location, refreshes with a minimum interval, and the snapshot.
public struct WeatherService: Sendable {
    public var root: StoreRoot
    public var api: OpenMeteo
    /// No more than one forecast request per this many seconds unless forced.
    public static let minimumInterval: TimeInterval = 10 * 60

    public init(root: StoreRoot, api: OpenMeteo) {
        self.root = root
        self.api = api
    }

    var document: JSONDocument<WeatherFile> { WeatherFile.document(root) }

    var locationDocument: JSONDocument<WeatherLocationFile> { WeatherLocationFile.document(root) }

    /// The stored snapshot with the location from `weather-location.json`. A snapshot that cannot
    /// be read is set aside and reported through `note` (naming it and where it went); the
    /// location survives it. A store from before the location had its own file gets one from
    /// the snapshot's `location`.
    public func load(note: (String) -> Void = { _ in }) throws -> WeatherFile? {
        var file: WeatherFile?
        switch try document.load() {
        case .missing: file = nil
        case .loaded(let f): file = f
        case .setAside(let reason, let at):
            note(SetAsideNotice.text(document.url, reason: reason, movedTo: at))
        }
        let location = try storedLocation(migrating: file?.location, note: note)
        guard file != nil || location != nil else { return nil }
        var f = file ?? WeatherFile()
        f.location = location
        if file == nil, location != nil {
            // The snapshot went; what the widget shows until the next refresh is only the place.
            f.snapshot = nil
        }
        return f
    }

    /// The location file's place; when there is none, `legacy` (the snapshot's copy) is written
    /// to it first.
    func storedLocation(migrating legacy: WeatherFile.Location?, note: (String) -> Void) throws -> WeatherFile.Location?
    {
        switch try locationDocument.load() {
        case .loaded(let l): return l.location
        case .setAside(let reason, let at):
            note(SetAsideNotice.text(locationDocument.url, reason: reason, movedTo: at))
        case .missing: break
        }
        guard let legacy else { return nil }
        try locationDocument.update { $0 ?? WeatherLocationFile(location: legacy) }
        return legacy
    }

    static func samePlace(_ a: WeatherFile.Location?, _ b: WeatherFile.Location?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.latitude - b.latitude) <= 1e-4 && abs(a.longitude - b.longitude) <= 1e-4
    }

    // MARK: Location

    public enum Resolution: Sendable, Equatable {
        case chosen(OpenMeteo.Place, others: [OpenMeteo.Place])
        case ambiguous([OpenMeteo.Place])
        case none
    }

    /// Picks a place from a search. `pick` (1-based) chooses from the list; without it the first
    /// answer wins only when it is clearly the one meant: the only answer, or ten times as
    /// populous as the next one with the same name ("Dublin" is the Irish capital).
    public static func resolve(_ places: [OpenMeteo.Place], pick: Int?) throws -> Resolution {
        guard !places.isEmpty else { return .none }
        if let pick {
            guard (1...places.count).contains(pick) else {
                throw DataSourceError(
                    "'--pick' must be between 1 and \(places.count) (the number of places found); got \(pick)")
            }
            return .chosen(places[pick - 1], others: [])
        }
        let first = places[0]
        let sameName = places.dropFirst().filter { $0.name.caseInsensitiveCompare(first.name) == .orderedSame }
        if sameName.isEmpty { return .chosen(first, others: []) }
        let runnerUp = sameName.map { $0.population ?? 0 }.max() ?? 0
        if let p = first.population, p >= 10 * max(runnerUp, 1) { return .chosen(first, others: Array(sameName)) }
        return .ambiguous(places)
    }

    /// Saves a location; a different place drops the old snapshot (it is for somewhere else).
    @discardableResult
    public func setLocation(_ location: WeatherFile.Location, note: (String) -> Void = { _ in }) throws -> WeatherFile {
        var previous: WeatherFile.Location?
        try locationDocument.update(
            { current in
                previous = current?.location
                return WeatherLocationFile(location: location)
            },
            onSetAside: { reason, at in note(SetAsideNotice.text(locationDocument.url, reason: reason, movedTo: at)) })
        return try document.update(
            { current in
                var f = current ?? WeatherFile()
                let moved = !Self.samePlace(previous ?? f.location, location)
                f.location = location
                if moved {
                    f.snapshot = nil
                    f.refresh = WeatherFile.Refresh()
                }
                return f
            }, onSetAside: { reason, at in note(SetAsideNotice.text(document.url, reason: reason, movedTo: at)) })
    }

    // MARK: Refresh

    public enum RefreshOutcome: Sendable {
        case updated(WeatherFile)
        /// Too soon after the last request; `nextAllowed` is when another may go out.
        case tooSoon(WeatherFile, lastAttempt: Date, nextAllowed: Date)
        /// The request failed; the file keeps the last snapshot (if any) and records the error.
        case failed(WeatherFile, error: String)
    }

    public func refresh(force: Bool, now: () -> Date = Date.init, note: (String) -> Void = { _ in }) throws
        -> RefreshOutcome
    {
        guard let file = try load(note: note), let location = file.location else {
            throw DataSourceError(
                """
                no weather location yet: set one with 'weaver weather location set \"Dublin\"' or 'weaver weather \
                location set --lat 53.35 --lon -6.26'
                """
            )
        }
        let started = now()
        if !force, let last = file.refresh.lastAttemptAt, started.timeIntervalSince(last) < Self.minimumInterval,
            started >= last
        {
            return .tooSoon(file, lastAttempt: last, nextAllowed: last.addingTimeInterval(Self.minimumInterval))
        }
        let result: Result<Forecast, Error>
        do {
            result = .success(try api.forecast(latitude: location.latitude, longitude: location.longitude))
        } catch {
            result = .failure(error)
        }
        let finished = now()
        var errorText: String?
        let written = try document.update(
            { current in
                var f = current ?? file
                // Another refresh (or a location change) may have run meanwhile; only write for this place.
                guard Self.samePlace(f.location, location) || current?.location == nil else { return f }
                if f.location == nil { f.location = location }
                f.refresh.lastAttemptAt = started
                switch result {
                case .success(let forecast):
                    f.snapshot = Self.snapshot(from: forecast, fetchedAt: finished)
                    f.refresh.lastSuccessAt = finished
                    f.refresh.lastError = nil
                    if f.location?.timeZone == nil { f.location?.timeZone = forecast.timeZone }
                case .failure(let error):
                    errorText = "\(error)"
                    f.refresh.lastError = "\(error)"
                }
                return f
            }, onSetAside: { reason, at in note(SetAsideNotice.text(document.url, reason: reason, movedTo: at)) })
        if case .success(let forecast) = result, location.timeZone == nil, let zone = forecast.timeZone {
            try locationDocument.update { current in
                var l = current ?? WeatherLocationFile(location: location)
                if Self.samePlace(l.location, location), l.location.timeZone == nil { l.location.timeZone = zone }
                return l
            }
        }
        if let errorText { return .failed(written, error: errorText) }
        return .updated(written)
    }

    /// Maps a forecast to the snapshot the variables engine and the weather template read.
    public static func snapshot(from forecast: Forecast, fetchedAt: Date) -> WeatherFile.Snapshot {
        let c = forecast.current
        let now = WeatherCode.describe(c.weatherCode, isDay: c.isDay ?? true)
        let minutes = Nowcast.minutes(from: fetchedAt, quarters: forecast.quarterHours, hours: forecast.hourly)
        let nowcast = Nowcast(minutes: minutes, currentSymbol: now.symbol)
        let offset = TimeInterval(forecast.utcOffsetSeconds)
        func placeDate(_ d: Date) -> String {
            let seconds = Int((d.timeIntervalSince1970 + offset).rounded(.down))
            let c = CivilCalendar.date(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
            return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
        }
        let today = placeDate(fetchedAt)
        let days = forecast.daily.map { d -> WeatherFile.Day in
            let w = d.weatherCode.map { WeatherCode.describe($0) }
            return WeatherFile.Day(
                date: placeDate(d.time), highC: d.highC, lowC: d.lowC,
                precipitationChance: d.precipitationChancePercent.map { $0 / 100 },
                condition: w?.condition, symbol: w?.symbol)
        }
        let todayEntry = days.first { $0.date == today }
        // The next 24 hours: an hourly value is the sum over the hour before its time.
        let hours = forecast.hourly.filter { $0.time > fetchedAt }.prefix(24).map { h -> WeatherFile.Hour in
            let w = h.weatherCode.map { WeatherCode.describe($0) }
            return WeatherFile.Hour(
                time: h.time, temperatureC: h.temperatureC,
                precipitationChance: h.precipitationChancePercent.map { $0 / 100 },
                precipitationMM: h.precipitationMM, condition: w?.condition, symbol: w?.symbol)
        }
        return WeatherFile.Snapshot(
            fetchedAt: fetchedAt, observedAt: c.time, condition: now.condition, symbol: now.symbol,
            weatherCode: c.weatherCode, isDaylight: c.isDay, temperatureC: c.temperatureC,
            apparentTemperatureC: c.apparentTemperatureC, highC: todayEntry?.highC, lowC: todayEntry?.lowC,
            precipitationChance: todayEntry?.precipitationChance, humidity: c.humidityPercent.map { $0 / 100 },
            nowcast: nowcast.primary, nowcastSecondary: nowcast.secondary,
            rainStartMinutes: nowcast.rainStartMinutes, rainEndMinutes: nowcast.rainEndMinutes,
            rainPeakIntensityMMh: nowcast.peakIntensityMMh, rainPeakChance: nowcast.peakChance,
            minutes: nowcast.minutes.isEmpty
                ? nil
                : WeatherFile.Minutes(
                    startsAt: fetchedAt,
                    intensityMMh: nowcast.minutes.map(\.intensityMMh),
                    chance: nowcast.minutes.map(\.chance)),
            hourly: Array(hours), daily: days,
            temperatures: forecast.hourly.prefix(24 * OpenMeteo.forecastDays).compactMap { h in
                h.temperatureC.map { WeatherFile.HourTemperature(time: h.time, temperatureC: $0) }
            })
    }

    /// "3 min", "2 h 5 min", "4 days".
    public static func age(_ seconds: TimeInterval) -> String {
        let minutes = max(0, Int(seconds / 60))
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 {
            return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
        }
        return "\(minutes / 1440) days"
    }
}
