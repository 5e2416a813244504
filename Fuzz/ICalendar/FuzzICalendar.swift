import Foundation
import ICalendar

// libFuzzer entry for the iCalendar parser and the recurrence expander (`make fuzz-ics`):
//   swift build -c debug --sanitize=fuzzer -Xswiftc -DFUZZING --product FuzzICalendar --scratch-path .build-fuzz
// Without FUZZING this target gets a small `main` that replays input files
// (`.build/debug/FuzzICalendar crash-...`), so `swift build` still links it.
//
// Invariants: parsing never traps; expansion stays inside the occurrence cap; every occurrence
// overlaps the window and ends no earlier than it starts; tasks (VTODO) read with their values in
// range and no more than `TaskReader.maxTasks` of them.

let limits: ICalendarLimits = {
    var l = ICalendarLimits()
    l.maxPeriodsPerFile = 200_000
    return l
}()
let from = Date(timeIntervalSince1970: 1_769_247_000)
let to = from.addingTimeInterval(60 * 86_400)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // Short inputs get a calendar wrapper so the fuzzer reaches events and rules quickly.
    var bytes = Data(bytes: data, count: size)
    if !(bytes.starts(with: Data("BEGIN:VCALENDAR".utf8))) {
        bytes =
            Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260124T090000Z\r\n".utf8) + bytes
            + Data("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    }
    guard let doc = try? ICalendarDocument.parse(bytes, limits: limits) else { return 0 }
    let r = EventExpander(limits: limits, localZone: TimeZone(identifier: "Europe/Dublin")!)
        .occurrences(in: doc, from: from, to: to)
    for o in r.occurrences {
        precondition(o.end >= o.start, "occurrence ends before it starts")
        precondition(o.start < to, "occurrence after the window")
    }
    let t = TaskReader(limits: limits, localZone: TimeZone(identifier: "Europe/Dublin")!).tasks(in: doc)
    precondition(t.tasks.count <= TaskReader.maxTasks && t.tasks.count <= t.taskCount, "more tasks than read")
    for task in t.tasks {
        precondition((0...9).contains(task.priority), "priority out of range")
        precondition(task.percentComplete.map { (0...100).contains($0) } ?? true, "percent out of range")
    }
    return 0
}

#if !FUZZING
    import FuzzReplay

    @main
    struct ReplayInputs {
        static func main() { FuzzReplay.main("FuzzICalendar", fuzzICalendar) }
    }
#endif
