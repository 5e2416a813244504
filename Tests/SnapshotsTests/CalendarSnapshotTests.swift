import CivilDates
import Foundation
import SharedStore
import Snapshots
import Testing

/// The calendar snapshot's one rule for "upcoming", its cap and its tolerant, bounded reading.
@Suite struct CalendarSnapshotTests {
    let now = Date(timeIntervalSince1970: 1_769_247_000)  // 2026-01-24T09:30:00Z

    func store() throws -> StoreRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "snapshots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        return StoreRoot(url: url)
    }

    @Test func aMomentIsUpcomingUntilItsStartHasPassed() {
        let atNow = CalendarSnapshot.Event(title: "Call", start: now)
        #expect(atNow.isUpcoming(at: now))
        // The renderer used to keep such an event for one more second; the keys did not.
        #expect(!atNow.isUpcoming(at: now.addingTimeInterval(0.5)))
        let backwards = CalendarSnapshot.Event(
            title: "Typo", start: now.addingTimeInterval(60), end: now.addingTimeInterval(-3600))
        #expect(backwards.effectiveEnd == backwards.start && backwards.isUpcoming(at: now))
        let meeting = CalendarSnapshot.Event(
            title: "Meeting", start: now.addingTimeInterval(-600), end: now.addingTimeInterval(600))
        #expect(meeting.isUpcoming(at: now) && !meeting.isUpcoming(at: now.addingTimeInterval(600)))

        let allDay = CalendarSnapshot.Event(
            title: "Holiday", start: now.addingTimeInterval(-9 * 3600), end: now.addingTimeInterval(15 * 3600),
            isAllDay: true)
        let snapshot = CalendarSnapshot(events: [allDay, meeting, atNow])
        let (next, second) = snapshot.nextTwo(at: now)
        #expect(next?.title == "Meeting" && second?.title == "Call")
        #expect(snapshot.upcoming(at: now.addingTimeInterval(700)).map(\.title) == ["Holiday"])
    }

    @Test func readingSkipsBadEventsSortsAndStopsAtTheCap() throws {
        let root = try store()
        var events = [
            #"{"title":"no start"}"#, #"{"start":"2026-01-24T10:00:00Z"}"#,
            #"{"title":"bad start","start":"tomorrow"}"#,
        ]
        for i in 0..<(CalendarSnapshot.maximumEvents + 20) {
            events.append(
                #"""
                {"title":"e\#(i)","start":"\#(ISODate.format(now.addingTimeInterval(Double(1000 - i) * 60)))",\#
                "calendar":"Work"}
                """#
            )
        }
        try Data(#"{"schemaVersion":1,"access":"denied","events":[\#(events.joined(separator: ","))]}"#.utf8)
            .write(to: SnapshotFile.calendar.url(in: root))
        let read = try #require(CalendarSnapshot.load(from: root))
        #expect(read.accessDenied)
        // The first 500 entries of the file, three of them unusable, sorted by start.
        #expect(read.events.count == CalendarSnapshot.maximumEvents - 3)
        #expect(read.events.first?.title == "e496" && read.events.last?.title == "e0")
        #expect(read.events.allSatisfy { $0.calendar == "Work" && $0.end == nil })
    }

    @Test func anUnreadableSnapshotIsReportedAndLeftWhereItIs() throws {
        let root = try store()
        #expect(CalendarSnapshot.load(from: root) == nil && SnapshotReader.problem(.calendar, in: root) == nil)
        let url = SnapshotFile.calendar.url(in: root)
        try Data(#"{"events":[{"title":"a","title":"b"}]}"#.utf8).write(to: url)
        #expect(CalendarSnapshot.load(from: root) == nil)
        #expect(SnapshotReader.problem(.calendar, in: root)?.contains("duplicate key") == true)
        #expect(FileManager.default.fileExists(atPath: url.path))
        try Data("[1,2]".utf8).write(to: url)
        #expect(SnapshotReader.problem(.calendar, in: root) == "not a JSON object")
    }

    @Test func fileNamesAreDistinctJSONFilesInTheSnapshotsFolder() throws {
        let root = StoreRoot(url: URL(fileURLWithPath: "/tmp/store"))
        #expect(Set(SnapshotFile.allCases.map(\.fileName)).count == SnapshotFile.allCases.count)
        #expect(
            SnapshotFile.allCases.allSatisfy {
                $0.url(in: root).path == "/tmp/store/snapshots/\($0.fileName)" && $0.fileName.hasSuffix(".json")
            })
        #expect(SnapshotFile.weather.fileName == "weather.json")
    }
}
