import Foundation
import SharedStore
import Snapshots
import Testing

/// The steps snapshot read through its one schema (`StepsFile.read`): fractions kept, day numbers
/// from `yyyy-MM-dd`, and a warning naming each field that is there but unusable.
@Suite struct StepsFileTests {
    func store(_ json: String) throws -> StoreRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "steps-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        let root = StoreRoot(url: url)
        try Data(json.utf8).write(to: StepsFile.url(in: root))
        return root
    }

    @Test func fractionalStepsGoalsAndDayNumbersAreRead() throws {
        let root = try store(
            #"""
            {"schemaVersion":1,"access":"authorized","goalWeekday":7500.5,"goalWeekend":6000,"streakRule":"daily goal",
             "today":{"date":"2026-01-24","steps":6500.25,"updatedAt":"2026-01-24T09:00:00Z"},
             "history":[{"date":"2026-01-23","steps":8000.5},{"date":"1970-01-01","steps":0}]}
            """#)
        defer { try? FileManager.default.removeItem(at: root.url) }
        var warnings: [String] = []
        let read = try #require(StepsFile.read(from: root) { warnings.append($0) })
        #expect(warnings.isEmpty)
        #expect(read.access == "authorized" && read.streakRule == "daily goal")
        #expect(read.goalWeekday == 7500.5 && read.goalWeekend == 6000)
        // 2026-01-24 is day 20477 since 1970-01-01.
        #expect(
            read.today
                == StepsFile.Reading.Day(
                    dayNumber: 20477, steps: 6500.25, updatedAt: Date(timeIntervalSince1970: 1_769_245_200)))
        #expect(
            read.history == [
                StepsFile.Reading.Day(dayNumber: 20476, steps: 8000.5), StepsFile.Reading.Day(dayNumber: 0, steps: 0),
            ])
    }

    @Test func eachUnusableFieldIsNamedAndLeftOut() throws {
        let root = try store(
            #"""
            {"goalWeekday":0,"goalWeekend":"lots","today":{"date":"2026-02-30","steps":-1},
             "history":[{"date":"2026-01-23","steps":"many"},{"date":"2026-01-22","steps":4000},{"steps":1}]}
            """#)
        defer { try? FileManager.default.removeItem(at: root.url) }
        var warnings: [String] = []
        let read = try #require(StepsFile.read(from: root) { warnings.append($0) })
        #expect(read.goalWeekday == nil && read.goalWeekend == nil && read.today == nil)
        #expect(read.history == [StepsFile.Reading.Day(dayNumber: 20475, steps: 4000)])
        let path = StepsFile.url(in: root).path
        #expect(
            warnings == [
                "\(path): 'goalWeekday' must be a number of steps above 0; got 0 (ignored)",
                "\(path): 'goalWeekend' must be a number of steps above 0; got \"lots\" (ignored)",
                "\(path): 'today.date' must be a date yyyy-MM-dd; got \"2026-02-30\" (ignored)",
                "\(path): 'today.steps' must be a number of steps, 0 or more; got -1 (ignored)",
                """
                \(path): 2 of the 'history' days lack a date yyyy-MM-dd or a number of steps (the first is \
                history[0]); they are left out
                """,
            ])
    }

    @Test func anAbsentOrUnreadableSnapshotReadsAsNone() throws {
        let root = try store("[1, 2]")
        defer { try? FileManager.default.removeItem(at: root.url) }
        #expect(StepsFile.read(from: root) == nil)
        try FileManager.default.removeItem(at: StepsFile.url(in: root))
        #expect(StepsFile.read(from: root) == nil)
    }

    /// What `weaver steps goal` and `import` rewrite: every day the keys read is kept (fractions
    /// rounded to the schema's whole steps), a malformed entry is left out rather than the file
    /// set aside, and only a file that is not a JSON object fails.
    @Test func theTolerantDecodeKeepsWhatTheKeysRead() throws {
        let file = try StepsFile.decodeTolerantly(
            Data(
                #"""
                {"schemaVersion":1,"access":"authorized","goalWeekday":7500.5,"goalWeekend":"lots","extra":true,
                 "today":{"date":"2026-01-24","steps":6500.6,"distanceMeters":4100.5,
                          "updatedAt":"2026-01-24T09:00:00Z"},
                 "history":[{"date":"2026-01-23","steps":8000.4},{"date":"2026-01-22","steps":"many"},{"steps":3}]}
                """#.utf8))
        #expect(file.schemaVersion == 1 && file.access == "authorized" && file.source == nil)
        #expect(file.goalWeekday == 7501 && file.goalWeekend == nil)
        #expect(
            file.today
                == StepsFile.Day(
                    date: "2026-01-24", steps: 6501, distanceMeters: 4100.5,
                    updatedAt: Date(timeIntervalSince1970: 1_769_245_200)))
        #expect(file.history == [StepsFile.Day(date: "2026-01-23", steps: 8000)])
        #expect(throws: (any Error).self) { try StepsFile.decodeTolerantly(Data("[1]".utf8)) }
        #expect(throws: (any Error).self) { try StepsFile.decodeTolerantly(Data("{".utf8)) }
    }

    /// activity.json through its schema: the fields other writers add are read, and the `today`
    /// fields count only with a `yyyy-MM-dd` date.
    @Test func activityIsReadThroughItsSchema() throws {
        let root = try store("{}")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let url = ActivityFile.url(in: root)
        try Data(
            #"""
            {"access":"authorized","today":{"date":"2026-01-24","updatedAt":"2026-01-24T09:00:00Z","steps":6500.5,
             "flights":"four","distanceMeters":4520.5,"activeEnergyKcal":312.4}}
            """#.utf8
        ).write(to: url)
        let read = try #require(ActivityFile.read(from: root))
        #expect(read.access == "authorized" && read.todayNumber == 20477 && read.steps == 6500.5)
        #expect(read.flights == nil && read.distanceMeters == 4520.5 && read.activeEnergyKcal == 312.4)
        #expect(read.updatedAt == Date(timeIntervalSince1970: 1_769_245_200))
        try Data(#"{"access":"denied","today":{"date":"24/01/2026","steps":10}}"#.utf8).write(to: url)
        let undated = try #require(ActivityFile.read(from: root))
        #expect(undated.access == "denied" && undated.todayNumber == nil && undated.steps == nil)
        try FileManager.default.removeItem(at: url)
        #expect(ActivityFile.read(from: root) == nil)
    }
}
