import Foundation
import SharedStore

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

    /// The stored file; a corrupt one is set aside and reported through `note`.
    public func load(note: (String) -> Void = { _ in }) throws -> WeatherFile? {
        switch try document.load() {
        case .missing: return nil
        case .loaded(let f): return f
        case .setAside(let reason, let at):
            note(SetAsideNotice.text(document.url, reason: reason, movedTo: at))
            return nil
        }
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
                throw DataSourceError("'--pick' must be between 1 and \(places.count) (the number of places found); got \(pick)")
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
    public func setLocation(_ location: WeatherFile.Location) throws -> WeatherFile {
        try document.update { current in
            var f = current ?? WeatherFile()
            let moved = f.location.map { abs($0.latitude - location.latitude) > 1e-4 || abs($0.longitude - location.longitude) > 1e-4 } ?? true
            f.location = location
            if moved {
                f.snapshot = nil
                f.refresh = WeatherFile.Refresh()
            }
            return f
        }
    }

    // MARK: Refresh

    public enum RefreshOutcome: Sendable {
        case updated(WeatherFile)
        /// Too soon after the last request; `nextAllowed` is when another may go out.
        case tooSoon(WeatherFile, lastAttempt: Date, nextAllowed: Date)
        /// The request failed; the file keeps the last snapshot (if any) and records the error.
        case failed(WeatherFile, error: String)
    }

    public func refresh(force: Bool, now: () -> Date = Date.init) throws -> RefreshOutcome {
        guard let file = try load(), let location = file.location else {
            throw DataSourceError("no weather location yet: set one with 'weaver weather location set \"Dublin\"' or 'weaver weather location set --lat 53.35 --lon -6.26'")
        }
        let started = now()
        if !force, let last = file.refresh.lastAttemptAt, started.timeIntervalSince(last) < Self.minimumInterval,
           started >= last {
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
        let written = try document.update { current in
            var f = current ?? file
            // Another refresh (or a location change) may have run meanwhile; only write for this place.
            guard f.location == location else { return f }
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
            return WeatherFile.Day(date: placeDate(d.time), highC: d.highC, lowC: d.lowC,
                                   precipitationChance: d.precipitationChancePercent.map { $0 / 100 },
                                   condition: w?.condition, symbol: w?.symbol)
        }
        let todayEntry = days.first { $0.date == today }
        // The next 24 hours: an hourly value is the sum over the hour before its time.
        let hours = forecast.hourly.filter { $0.time > fetchedAt }.prefix(24).map { h -> WeatherFile.Hour in
            let w = h.weatherCode.map { WeatherCode.describe($0) }
            return WeatherFile.Hour(time: h.time, temperatureC: h.temperatureC,
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
            minutes: nowcast.minutes.isEmpty ? nil : WeatherFile.Minutes(startsAt: fetchedAt,
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
        if minutes < 48 * 60 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        return "\(minutes / 1440) days"
    }
}
