import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import PlayerStartup

/// The Noise page's night requests, read strictly: unknown keys, wrong types and out-of-range
/// values are refused (400) with a message naming the field and what it allows.
enum NightRequest {
    /// A timer to set: `seconds` nil switches it off; `then` nil keeps the end the player has.
    struct Timer: Equatable {
        var seconds: Double?
        var fadeSeconds: Double?
        var then: TimerEnd?
    }

    struct Schedule: Equatable {
        var schedule: PlaySchedule
        var withoutSystemdSession: Bool
    }

    /// A schedule's fade-in when the page sends none: `noise schedule add`'s default.
    static let defaultScheduleFadeSeconds = 10.0

    static func timer(_ body: Data) throws(HTTPError) -> Timer {
        try read(body) { m in
            guard let secondsValue = m.take("seconds") else {
                throw JSONFieldError(document: "request body", path: "seconds", reason: "missing", problem: .missing)
            }
            if secondsValue.value == .null {
                if let extra = m.keys.sorted().first {
                    throw JSONFieldError(
                        document: "request body", path: extra, reason: "makes no sense when the timer is switched off")
                }
                return Timer(seconds: nil)
            }
            let seconds = try secondsValue.number(in: ControlRequest.timerRange)
            let fade = try m.take("fadeSeconds")?.number(in: 0...seconds)
            var then: TimerEnd?
            if let v = m.take("then") {
                let name = try v.string(maxBytes: 64)
                guard let end = TimerEnd(rawValue: name) else {
                    throw v.fail("\(JSONReader.described(v.value)) is not an action; allowed \(TimerEnd.allowedText)")
                }
                then = end
            }
            try m.refuseRest()
            return Timer(seconds: seconds, fadeSeconds: fade, then: then)
        }
    }

    /// `+15 min`: seconds to add, 1 s…24 h.
    static func addition(_ body: Data) throws(HTTPError) -> Double {
        try read(body) { m in
            let seconds = try m.takeRequired("seconds").number(in: ControlRequest.timerRange)
            try m.refuseRest()
            return seconds
        }
    }

    static func schedule(_ body: Data) throws(HTTPError) -> Schedule {
        try read(body) { m in
            let timeValue = try m.takeRequired("time")
            let time: (hour: Int, minute: Int)
            do { time = try PlaySchedule.parseTime(try timeValue.string(maxBytes: 16), field: "time") } catch let e
                as PlaySchedule.TimeError
            {
                throw timeValue.fail(e.description)
            }
            let presetValue = try m.takeRequired("preset")
            let preset = try presetValue.string(maxBytes: 64)
            guard PlaySchedule.isUsableInUnitName(preset) else {
                throw presetValue.fail("is not a preset id; use lowercase letters, digits, '-' and '_'")
            }
            let fade = try m.take("fadeSeconds")?.number(in: FadeLimits.fadeInSeconds) ?? defaultScheduleFadeSeconds
            var timer: Double?
            if let v = m.take("timerSeconds"), v.value != .null { timer = try v.number(in: ControlRequest.timerRange) }
            let anyway = try m.take("withoutSystemdSession")?.bool() ?? false
            try m.refuseRest()
            return Schedule(
                schedule: PlaySchedule(
                    hour: time.hour, minute: time.minute, presetID: preset, fadeSeconds: fade, timerSeconds: timer),
                withoutSystemdSession: anyway)
        }
    }

    static func enabled(_ body: Data) throws(HTTPError) -> Bool {
        try read(body) { m in
            let on = try m.takeRequired("enabled").bool()
            try m.refuseRest()
            return on
        }
    }

    /// Parses the body as one object and hands its members to `read`; a `JSONFieldError` becomes a
    /// 400 naming the field ("'fadeSeconds' 4000 is outside 0…1800").
    static func read<T>(_ body: Data, _ read: (inout JSONMembers) throws -> T) throws(HTTPError) -> T {
        do {
            let object = try JSONReader.parse(
                body, document: "request body", maxDepth: 2, maxValues: 32, maxStringBytes: 256)
            var members = try JSONMembers(object)
            return try read(&members)
        } catch let e as JSONFieldError {
            if e.path == JSONReader.topLevel {
                throw HTTPError(.badRequest, "the body must be a JSON object: \(e.reason)")
            }
            throw HTTPError(.badRequest, "'\(e.path)' \(e.reason)", field: e.path)
        } catch {
            throw HTTPError(.badRequest, "\(error)")
        }
    }
}
