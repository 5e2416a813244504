import CivilDates
import Foundation
import Snapshots
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// The dock's "sample data": a fixed weather, calendar, reminders, steps and noise state, laid
/// over the store's inputs (custom variables, images and the clock stay the real ones), so a
/// weather or calendar design can be designed before any data is set up. Times are relative to
/// the render clock, so "in 40 min" always reads so.
enum SampleData {
    static func inputs(_ real: RenderInputs) -> RenderInputs {
        var inputs = real
        let now = real.context.now
        let zone = real.context.timeZone
        let civilToday = CivilTime.local(now, in: zone)
        func day(_ offset: Int) -> String {
            let c = CivilTime.local(now.addingTimeInterval(Double(offset) * 86_400), in: zone)
            return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
        }

        // The conditions both the drawn weather and the {{__weather_*}} keys show; the drawing
        // adds the rain's timing, the keys the feel, chance and humidity.
        let current = WeatherState.Current(
            fetchedAt: now.addingTimeInterval(-300), condition: "Partly cloudy", symbol: "cloud.sun.fill",
            temperatureC: 18.4, highC: 21, lowC: 13.5, nowcast: "Light rain in 40 min", nowcastSecondary: "Ends in 25m")
        var drawn = current
        drawn.rainStartMinutes = 40
        drawn.rainEndMinutes = 65
        drawn.rainPeakIntensityMMh = 0.8
        drawn.rainPeakChance = 0.5
        inputs.weather = WeatherState(location: "Lisbon", current: drawn)

        let highs: [Double] = [21, 23, 19, 17, 20], lows: [Double] = [13.5, 14, 12, 11, 12.5],
            chances: [Double] = [0.5, 0.1, 0.3, 0.8, 0.2]
        let conditions = ["Partly cloudy", "Sunny", "Cloudy", "Rain", "Sunny"]
        let symbols = ["cloud.sun.fill", "sun.max.fill", "cloud.fill", "cloud.rain.fill", "sun.max.fill"]
        var days: [ForecastSnapshot.Day] = []
        for i in 0..<5 {
            days.append(
                ForecastSnapshot.Day(
                    date: day(i), highC: highs[i], lowC: lows[i], precipitationChance: chances[i],
                    condition: conditions[i], symbol: symbols[i]))
        }
        let hourStart = now.addingTimeInterval(-now.timeIntervalSince1970.truncatingRemainder(dividingBy: 3600))
        let hours = (0..<48).map { h in
            ForecastSnapshot.Hour(
                time: hourStart.addingTimeInterval(Double(h) * 3600),
                temperatureC: 16 + 4 * sin(Double(h) / 24 * 2 * .pi))
        }
        inputs.forecast = ForecastSnapshot(
            location: "Lisbon", fetchedAt: now.addingTimeInterval(-300), temperatureC: 18.4,
            condition: "Partly cloudy", symbol: "cloud.sun.fill", days: days, hours: hours)

        // Three events: title, start and end (seconds from now), place.
        struct SampleEvent {
            var title: String
            var startSeconds: Double
            var endSeconds: Double
            var location: String?
        }
        let events = [
            SampleEvent(title: "Team stand-up", startSeconds: 40 * 60, endSeconds: 55 * 60, location: "Room 2"),
            SampleEvent(title: "Lunch with Ana", startSeconds: 3.5 * 3600, endSeconds: 4.5 * 3600, location: nil),
            SampleEvent(title: "Piano lesson", startSeconds: 8 * 3600, endSeconds: 9 * 3600, location: nil),
        ]
        let drawnEvents: [CalendarSnapshot.Event] = events.map { e in
            CalendarSnapshot.Event(
                title: e.title, start: now.addingTimeInterval(e.startSeconds),
                end: now.addingTimeInterval(e.endSeconds), location: e.location)
        }
        inputs.calendar = CalendarSnapshot(events: drawnEvents)
        // A read-only sample list: the dock's rows cannot complete anything.
        let list = RemindersSnapshot.Source(
            id: "sample", name: "Sample", kind: .todoTxt, location: "sample",
            readOnly: true, contentSHA256: nil, ok: true, itemCount: 3)
        inputs.reminders = RemindersSnapshot(
            updatedAt: now.addingTimeInterval(-600), timeZone: TimeZone.current.identifier, sources: [list],
            items: [
                .init(
                    id: "sample-1", source: "sample", title: "Water the plants", due: now.addingTimeInterval(2 * 3600)),
                .init(id: "sample-2", source: "sample", title: "Call the garage", priority: 1),
                .init(id: "sample-3", source: "sample", title: "Buy coffee", done: true),
            ])
        inputs.noise = NoiseWidgetState(
            playback: .playing, mixName: "Rain",
            layers: [.init(enabled: true, volume: 0.7, colour: 1.6), .init(enabled: true, volume: 0.4, colour: 0.8)],
            masterVolume: 0.7, timerRemainingSeconds: 25 * 60, resumeOnLaunch: true, updatedAt: now)

        // The same samples as built-in keys ({{__weather_temp}}, {{__steps_today}}, …).
        var location = WeatherSnapshotProvider.Location(name: "Lisbon")
        location.updatedAt = now
        var snapshot = current
        snapshot.apparentTemperatureC = 17.6
        snapshot.precipitationChance = 0.5
        snapshot.humidity = 0.62
        var steps = StepsFile.Reading()
        steps.access = "authorized"
        steps.goalWeekday = 10_000
        steps.goalWeekend = 8_000
        steps.today = .init(dayNumber: civilToday.dayNumber, steps: 6_480, updatedAt: now.addingTimeInterval(-900))
        let pastSteps: [Double] = [11_200, 9_300, 10_450, 12_010, 7_900, 10_020]
        steps.history = pastSteps.enumerated().map {
            StepsFile.Reading.Day(dayNumber: civilToday.dayNumber - 1 - $0.offset, steps: $0.element)
        }
        let upcoming: [CalendarSnapshotProvider.Event] = events.map { e in
            CalendarSnapshotProvider.Event(
                title: e.title, start: now.addingTimeInterval(e.startSeconds),
                end: now.addingTimeInterval(e.endSeconds), location: e.location)
        }
        let calendar = CalendarSnapshotProvider(generatedAt: now.addingTimeInterval(-600), upcoming: upcoming)
        let noise = NoiseStatusProvider(
            status: .init(
                state: "playing", presetName: "Rain", masterVolume: 0.7, audibleLayerCount: 2,
                timerRemainingSeconds: 25 * 60, updatedAt: now))
        inputs.context.builtIns = BuiltInKeys(sources: [
            TimeProvider(), noise, WeatherSnapshotProvider(location: location, snapshot: snapshot),
            StepsSnapshotProvider(snapshot: steps), calendar,
        ])
        inputs.unreadableSnapshots = []
        return inputs
    }
}
