import Foundation
import Testing
import WidgetDataKeys
import WidgetDesign

@testable import WidgetRender

/// The month, countdown and forecast templates and `clock.format`, as layouts and schedules.
@Suite struct SampleTemplateTests {
    let renderer = WidgetRenderer()
    let target = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: Countdown

    @Test func countdownTextPhaseAndNextChange() {
        func at(_ before: Double) -> CountdownReading {
            CountdownReading.at(target.addingTimeInterval(-before), target: target)
        }
        #expect(at(3600.5).text == "1:00:01" && at(3600.5).nextChange == target.addingTimeInterval(-3600))
        #expect(at(125).text == "2:05" && at(125).nextChange == target.addingTimeInterval(-120))
        #expect(at(61).nextChange == target.addingTimeInterval(-60))
        #expect(at(60).text == "1:00" && at(60).nextChange == target.addingTimeInterval(-59))
        #expect(
            at(10.2).text == "0:11" && at(10.2).phase == .running
                && at(10.2).nextChange == target.addingTimeInterval(-10))
        #expect(at(10).text == "0:10" && at(10).phase == .lastSeconds)
        #expect(at(0.3).text == "0:01" && at(0.3).phase == .lastSeconds && at(0.3).nextChange == target)
        #expect(at(0).text == "end" && at(0).phase == .ended && at(0).nextChange == nil)
        #expect(at(-100).text == "end" && at(-100).nextChange == nil)
        #expect(CountdownReading.at(target.addingTimeInterval(-30), target: target, ticking: false).nextChange == nil)
        #expect(at(100 * 3600).text == "100:00:00")
    }

    /// A host that draws only at each reading's `nextChange`, from three minutes out: two minute
    /// crossings, then every second of the last minute, "end", and nothing after.
    @Test func countdownScheduleTicksEachSecondOnlyInTheLastMinute() {
        var now = target.addingTimeInterval(-180)
        var moments: [Double] = []
        var texts: [String] = []
        while let next = CountdownReading.at(now, target: target).nextChange, moments.count < 1_000 {
            now = next
            moments.append(target.timeIntervalSince(next))
            texts.append(CountdownReading.at(now, target: target).text)
        }
        #expect(moments.prefix(3) == [120, 60, 59])
        #expect(moments.count == 2 + 60)
        #expect(moments.last == 0 && texts.last == "end")
        #expect(texts.prefix(3) == ["2:00", "1:00", "0:59"])
        #expect(zip(moments, moments.dropFirst()).dropFirst(1).allSatisfy { $0 - $1 == 1 })
    }

    func countdownLayout(in seconds: Double, family: WidgetFamily = .small) -> WidgetLayout {
        var d = Fixtures.design("countdown")
        d.countdown = CountdownSpec(target: .instant(Fixtures.now.addingTimeInterval(seconds)))
        return renderer.layout(design: d, family: family, scale: 1, inputs: Fixtures.inputs())
    }

    @Test func countdownLayoutTurnsRedInItsLastTenSecondsThenSaysEnd() throws {
        let red = RGBA(hex: 0xFF453A)
        let before = countdownLayout(in: 15)
        let beforeText = try #require(before.elements.compactMap(\.textRun).first { $0.text == "0:15" })
        #expect(beforeText.colour != red)
        #expect(before.redrawAt == Fixtures.now.addingTimeInterval(1))
        let at = countdownLayout(in: 10)
        #expect(at.elements.compactMap(\.textRun).first { $0.text == "0:10" }?.colour == red)
        let after = countdownLayout(in: -1)
        #expect(after.elements.contains { $0.text == "end" })
        #expect(after.redrawAt == nil)
        let far = countdownLayout(in: 3600 + 90)
        #expect(far.elements.contains { $0.text == "1:01:30" })
        #expect(far.redrawAt == Fixtures.now.addingTimeInterval(30))
    }

    @Test func countdownToTheSleepTimerAndToAVariable() {
        // The fixture player is playing with 23 minutes left.
        let sleep = renderer.layout(
            design: Fixtures.design("countdown"), family: .small, scale: 1, inputs: Fixtures.inputs())
        #expect(sleep.textLines.contains("23:00"))
        let paused = renderer.layout(
            design: Fixtures.design("countdown"), family: .small, scale: 1, inputs: Fixtures.inputs(noise: .paused))
        #expect(paused.textLines.contains("23:00") && paused.redrawAt == nil)
        let stopped = renderer.layout(
            design: Fixtures.design("countdown"), family: .small, scale: 1, inputs: Fixtures.inputs(noise: .stopped))
        #expect(stopped.textLines.contains("No timer"))
        var d = Fixtures.design("countdown")
        d.countdown = CountdownSpec(target: .variable("launch"))
        var inputs = Fixtures.inputs(isPro: true)
        inputs.context.addCustomVariables([("launch", "2026-01-24T09:32:05Z")])
        #expect(renderer.layout(design: d, family: .small, scale: 1, inputs: inputs).textLines.contains("2:05"))
        inputs.context.addCustomVariables([("launch", "soon-ish")])
        let bad = renderer.layout(design: d, family: .small, scale: 1, inputs: inputs)
        #expect(bad.textLines.contains("Not a time") && bad.warnings.contains { $0.hasPrefix("countdown.target:") })
    }

    // MARK: Month

    @Test func monthGridStartsOnTheLocalesFirstWeekday() {
        #expect(MonthGrid.firstWeekday(of: Locale(identifier: "en_GB")) == 2)
        #expect(MonthGrid.firstWeekday(of: Locale(identifier: "en_US")) == 1)
        let feb = MonthGrid(year: 2026, month: 2, firstWeekday: 2)  // 1 Feb 2026 is a Sunday
        #expect(feb.weeks.count == 5)
        #expect(
            feb.weeks[0][0].day == 26 && !feb.weeks[0][0].inMonth && feb.weeks[0][6].day == 1 && feb.weeks[0][6].inMonth
        )
        let febUS = MonthGrid(year: 2026, month: 2, firstWeekday: 1)
        #expect(febUS.weeks.count == 4 && febUS.weeks[0][0].day == 1 && febUS.weeks[3][6].day == 28)
        let jan = MonthGrid(year: 2026, month: 1, firstWeekday: 2)  // 1 Jan 2026 is a Thursday
        #expect(jan.weeks[0].map(\.day) == [29, 30, 31, 1, 2, 3, 4] && jan.weeks.count == 5)
        #expect(jan.weeks.allSatisfy { $0.count == 7 })
    }

    @Test func monthHighlightsTodayAndMarksEventDays() throws {
        var inputs = Fixtures.inputs()
        inputs.calendar = Fixtures.monthCalendar
        let l = renderer.layout(design: Fixtures.design("month"), family: .small, scale: 1, inputs: inputs)
        let today = try #require(l.elements.compactMap(\.textRun).first { $0.text == "24" && $0.weight == 700 })
        #expect(today.colour == .white)
        #expect(l.textLines.first == "January 2026")
        // Event days: the 21st, 24th, 28th, and 1 Feb (of the 1–2 Feb all-day event) in the last week.
        let dots = l.elements.filter {
            if case .ellipse = $0.primitive { return $0.rect.width < 5 } else { return false }
        }
        #expect(dots.count == 4, "\(dots.count)")
        inputs.context.now = Date(timeIntervalSince1970: 1_769_904_060)  // 1 Feb 00:01
        let feb = renderer.layout(design: Fixtures.design("month"), family: .small, scale: 1, inputs: inputs)
        #expect(feb.textLines.first == "February 2026")
    }

    // MARK: Forecast

    @Test func raindropsAreOnePerTwentyPercentAndStaleRulesFollowTheLastFetch() {
        #expect([0, 0.19, 0.2, 0.39, 0.4, 0.61, 0.99, 1].map(TemplateContext.raindrops) == [0, 0, 1, 1, 2, 3, 4, 5])
        let now = Fixtures.now
        #expect(ForecastFreshness.at(now, fetchedAt: now.addingTimeInterval(-(3 * 3600 - 1))) == .fresh)
        #expect(ForecastFreshness.at(now, fetchedAt: now.addingTimeInterval(-3 * 3600)) == .currentHidden)
        #expect(ForecastFreshness.at(now, fetchedAt: now.addingTimeInterval(-(6 * 3600 - 1))) == .currentHidden)
        #expect(ForecastFreshness.at(now, fetchedAt: now.addingTimeInterval(-6 * 3600)) == .unknown)
        #expect(ForecastFreshness.at(now, fetchedAt: nil) == .unknown)
    }

    func forecast(ageHours: Double, family: WidgetFamily = .medium) -> WidgetLayout {
        var inputs = Fixtures.inputs()
        inputs.forecast = Fixtures.forecast(ageSeconds: ageHours * 3600)
        return renderer.layout(design: Fixtures.design("forecast"), family: family, scale: 1, inputs: inputs)
    }

    @Test func forecastShowsQuestionMarksNotZerosAndHidesWhatIsTooOld() {
        let fresh = forecast(ageHours: 0.2)
        #expect(fresh.textLines.contains("Now 7° Cloudy"))
        #expect(fresh.textLines.contains("Sat 9°/3° Light rain rain 60%+"), "\(fresh.textLines)")
        // The fourth day's low is missing: "?", never 0°.
        #expect(fresh.textLines.contains("Tue 4°/? Snow rain 100%+"), "\(fresh.textLines)")
        let curves = fresh.elements.filter { if case .line = $0.primitive { return true } else { return false } }
        #expect(curves.count == 4 * 17, "\(curves.count)")  // 18 hourly points (06:00…23:00) a day
        let four = forecast(ageHours: 4)
        #expect(four.textLines.contains("Now – Cloudy") && four.textLines.contains("Updated 4 hrs ago"))
        let seven = forecast(ageHours: 7)
        #expect(seven.textLines.contains("Now ? ?"))
        #expect(seven.textLines.contains("Sat ?/? ? rain ?"), "\(seven.textLines)")
        #expect(!seven.elements.contains { if case .line = $0.primitive { return true } else { return false } })
        #expect(!seven.elements.compactMap(\.text).contains { $0.contains("0°") })
        // Days are the place's: at 23:30 UTC it is already Sunday in Tokyo, whose first day is the 25th.
        var inputs = Fixtures.inputs()
        var tokyo = Fixtures.forecast()
        tokyo.timeZone = "Asia/Tokyo"
        inputs.forecast = tokyo
        inputs.context.now = Date(timeIntervalSince1970: 1_769_297_400)  // 2026-01-24T23:30:00Z
        tokyo.fetchedAt = inputs.context.now
        inputs.forecast = tokyo
        let there = renderer.layout(design: Fixtures.design("forecast"), family: .medium, scale: 1, inputs: inputs)
        #expect(there.textLines.contains { $0.hasPrefix("Sun 11°/5° ") }, "\(there.textLines)")
    }

    // MARK: Clock format

    @Test func clockFormatWritesTimesIn12Or24HoursWithSeconds() {
        var d = Fixtures.design("clock")
        let inputs = Fixtures.inputs()
        #expect(renderer.layout(design: d, family: .medium, scale: 1, inputs: inputs).textLines.first == "09:30")
        d.clockFormat = .h12
        #expect(renderer.layout(design: d, family: .medium, scale: 1, inputs: inputs).textLines.first == "9:30 am")
        d.clockFormat = .h24Seconds
        // Seconds only where the host draws again each second; a file rendered once shows the minute.
        let once = renderer.layout(design: d, family: .rectangular, scale: 1, inputs: inputs)
        #expect(once.textLines.first == "09:30" && once.redrawAt == nil)
        var live = inputs
        live.redrawsEachSecond = true
        let seconds = renderer.layout(design: d, family: .rectangular, scale: 1, inputs: live)
        #expect(seconds.textLines.first == "09:30:00")
        #expect(seconds.redrawAt == Fixtures.now.addingTimeInterval(1))
        d.clockFormat = .h12Seconds
        #expect(renderer.layout(design: d, family: .medium, scale: 1, inputs: live).textLines.first == "9:30:00 am")
        #expect(renderer.layout(design: d, family: .medium, scale: 1, inputs: inputs).textLines.first == "9:30 am")
        // In any template's text, and without seconds no per-second redraw is asked for.
        var c = Fixtures.design("classic")
        c.primaryText = "{{__time}} · {{__time_12h}} · {{__time_seconds}}"
        // Medium: the text rendition holds what is drawn, and small cuts this line with "…".
        let plain = renderer.layout(design: c, family: .medium, scale: 1, inputs: inputs)
        let drawn = plain.textLines.joined(separator: " ")
        #expect(drawn.contains("09:30 · 9:30 am · 09:30:00") && plain.redrawAt != nil, "\(plain.textLines)")
        c.primaryText = "{{__time}}"
        c.clockFormat = .h12
        let twelve = renderer.layout(design: c, family: .small, scale: 1, inputs: inputs)
        #expect(twelve.textLines.contains("9:30 am") && twelve.redrawAt == nil)
    }
}
