import Benchmark
import CivilDates
import Foundation
import ICalendar

/// A busy work calendar: 1,000 events, 313 of them recurring (weekly with EXDATEs, daily,
/// monthly 2nd Monday), half in a named zone, one VTIMEZONE, folded descriptions. 487 KB.
func busyCalendar() -> Data {
    var lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//WidgetWeaver benchmarks//EN",
        "BEGIN:VTIMEZONE", "TZID:Custom London",
        "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100", "DTSTART:19810329T010000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
        "BEGIN:STANDARD", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "DTSTART:19961027T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE",
    ]
    for i in 0..<1000 {
        let day = 1 + i % 28, month = 1 + (i / 28) % 12
        let start = String(format: "2026%02d%02dT%02d%02d00", month, day, 8 + i % 10, (i % 4) * 15)
        lines.append("BEGIN:VEVENT")
        lines.append("UID:event-\(i)@bench")
        lines.append(
            i % 2 == 0 ? "DTSTART;TZID=\(i % 4 == 0 ? "Europe/Dublin" : "Custom London"):\(start)" : "DTSTART:\(start)Z"
        )
        lines.append("DURATION:PT45M")
        lines.append("SUMMARY:Meeting \(i) about the quarterly plan\\, part \(i % 7)")
        lines.append("DESCRIPTION:" + String(repeating: "Agenda item and notes. ", count: 12))
        lines.append(" continued on a folded line")
        switch i % 8 {
        case 0: lines += ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "EXDATE;TZID=Europe/Dublin:\(start)"]
        case 1: lines.append("RRULE:FREQ=DAILY;COUNT=30")
        default: break
        }
        if i % 16 == 2 { lines.append("RRULE:FREQ=MONTHLY;BYDAY=2MO") }
        lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    return Data(lines.joined(separator: "\r\n").utf8)
}

/// `count` daily events from 2025 (what a generated shift calendar looks like): 5,000 make a
/// 0.8 MB file with 1.8 million occurrences in a year. With `description`, each event has a
/// DESCRIPTION of that many bytes (180,000 with 15 make a file just under the 32 MiB limit).
func dailyCalendar(_ count: Int, description: Int = 0) -> Data {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//WidgetWeaver benchmarks//EN\r\n"
    for i in 0..<count {
        text += String(
            format: "BEGIN:VEVENT\r\nUID:daily-%d@bench\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:2025%02d%02dT%02d%02d00Z\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY\r\n"
                + "SUMMARY:Daily %d\r\n", i, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i)
        if description > 0 { text += "DESCRIPTION:" + String(repeating: "x", count: description) + "\r\n" }
        text += "END:VEVENT\r\n"
    }
    return Data((text + "END:VCALENDAR\r\n").utf8)
}

/// One event with `count` hourly RDATE values from 1900, 1,000 to a line (1.8 million: 30.6 MB,
/// under the 32 MiB file limit).
func rdateCalendar(_ count: Int) -> Data {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//WidgetWeaver benchmarks//EN\r\n"
    text += "BEGIN:VEVENT\r\nUID:rdates@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:19000101T000000Z\r\n"
    text += "SUMMARY:Many dates\r\n"
    let first = CivilTime(year: 1900, month: 1, day: 1, hour: 1).localSeconds
    var line: [String] = []
    for i in 0..<count {
        let l = CivilTime.fromLocalSeconds(first + i * 3600)
        line.append(String(format: "%04d%02d%02dT%02d0000Z", l.year, l.month, l.day, l.hour))
        if line.count == 1_000 || i == count - 1 {
            text += "RDATE:" + line.joined(separator: ",") + "\r\n"
            line.removeAll(keepingCapacity: true)
        }
    }
    return Data((text + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5))
    let data = busyCalendar()
    let from = Date(timeIntervalSince1970: 1_769_247_000)
    let to = from.addingTimeInterval(366 * 86_400)
    let zone = TimeZone(identifier: "Europe/Dublin")!

    // What `weaver calendar refresh` does per calendar: parse, then a year of occurrences.
    Benchmark("parse busy calendar (1,000 events)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ICalendarDocument.parse(data))
        }
    }

    Benchmark("expand busy calendar over 366 days", configuration: configuration) { benchmark in
        let doc = try! ICalendarDocument.parse(data)
        let expander = EventExpander(localZone: zone)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(expander.occurrences(in: doc, from: from, to: to).occurrences.count)
        }
    }

    // What `weaver calendar refresh` does with a large file: read it streaming and keep the
    // soonest 500 of a year (the snapshot's cap). Peak memory is the figure to watch: ≤ 100 MB for
    // any file under the size limit. The same files parsed into a tree first, for comparison.
    // Whole `weaver calendar refresh` processes (18:30 UTC 27 Nov 2026, 2 cores shared with
    // other builds; /usr/bin/time -v, maximum resident set and user+system CPU):
    //   file (bytes)                          tree (before)       streaming (after)
    //   5,000 daily events (767,864)          38.6 MB, 0.12 s     34.7 MB, 0.14 s
    //   100,000 daily events (15,577,864)     123.6 MB, 1.96 s    68.4 MB, 3.16 s
    //   1.8 M RDATE values (30,612,800)       86.7 MB, 4.10 s     87.7 MB, 4.05 s
    //   180,000 daily events (33,437,864)     182.1 MB, 3.62 s    86.1 MB, 4.66 s
    // (the files are these functions' text; streaming reads the file twice, hence the CPU)
    let large = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(30), maxIterations: 3)
    for (name, size, isRDATE) in [
        ("5,000 daily events", 5_000, false), ("100,000 daily events", 100_000, false),
        ("1.8 M RDATE values", 1_800_000, true), ("180,000 daily events (32 MiB)", -180_000, false),
    ] {
        for streaming in [true, false] {
            let how = streaming ? "streaming" : "as a tree"
            Benchmark("refresh \(name) \(how): keep the soonest 500", configuration: large) { benchmark in
                let file =
                    isRDATE
                    ? rdateCalendar(size) : size < 0 ? dailyCalendar(-size, description: 15) : dailyCalendar(size)
                let expander = EventExpander(localZone: zone)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    if streaming {
                        let r = try! expander.occurrences(inFile: file, from: from, to: to, keepingSoonest: 500)
                        blackHole(r.occurrences.count)
                    } else {
                        let doc = try! ICalendarDocument.parse(file)
                        blackHole(
                            expander.occurrences(in: doc, from: from, to: to, keepingSoonest: 500).occurrences.count)
                    }
                }
            }
        }
    }
}
