import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import NoiseControl

/// The night on the Noise page: the sleep timer with its fade and its end (`noise timer --fade
/// --then`), `+15 min` (`noise timer +15m`) and the schedules (`noise schedule`). Every change is
/// the request the CLI sends or the `ScheduleBook` step it takes, refused in its words.
///
/// - `GET /api/night`: the timer, the schedules and what systemd lacks here (`NightState`).
/// - `POST /api/night/timer`: `{"seconds":1800,"fadeSeconds":300,"then":"suspend"}` (fade and
///   then optional), `{"seconds":null}` switches it off.
/// - `POST /api/night/timer/add`: `{"seconds":900}` adds to the running timer (starts one without).
/// - `POST /api/night/schedules`: `{"time":"23:00","preset":"sleep","fadeSeconds":600,
///   "timerSeconds":28800,"withoutSystemdSession":false}` (the last three optional).
/// - `POST /api/night/schedules/ID/remove`, `POST /api/night/schedules/ID/enabled` `{"enabled":false}`.
struct NightRoutes {
    let server: HomeScreenServer

    var night: Night { Night(mixer: server.mixer) }

    @Sendable func state(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Self.json(night.state())
    }

    @Sendable func setTimer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let change = try NightRequest.timer(try await Self.body(request))
        let message = try night.setTimer(change)
        server.refresh()
        return Self.json(NightAnswer(message: message, state: night.state()))
    }

    @Sendable func addToTimer(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let seconds = try NightRequest.addition(try await Self.body(request))
        let message = try night.addToTimer(seconds: seconds)
        server.refresh()
        return Self.json(NightAnswer(message: message, state: night.state()))
    }

    @Sendable func addSchedule(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let wanted = try NightRequest.schedule(try await Self.body(request))
        let added = try night.addSchedule(wanted.schedule, withoutSystemdSession: wanted.withoutSystemdSession)
        return Self.json(NightAnswer(message: added.message, warnings: added.warnings, state: night.state()))
    }

    @Sendable func removeSchedule(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let message = try night.removeSchedule(try Self.scheduleID(context))
        return Self.json(NightAnswer(message: message, state: night.state()))
    }

    @Sendable func enableSchedule(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let enabled = try NightRequest.enabled(try await Self.body(request))
        let message = try night.setScheduleEnabled(try Self.scheduleID(context), enabled)
        return Self.json(NightAnswer(message: message, state: night.state()))
    }

    static func body(_ request: Request) async throws -> Data {
        Data(buffer: try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes))
    }

    /// A schedule id as `noise schedule list` prints it ("2300-sleep").
    static func scheduleID(_ context: BasicRequestContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard id.count <= 80, id.unicodeScalars.allSatisfy({ $0.isASCII && $0 != "/" }), !id.isEmpty else {
            throw HTTPError(.badRequest, "'id' must be a schedule id from the list (e.g. 2300-sleep)", field: "id")
        }
        return id
    }

    static func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Routes.body(String(decoding: data, as: UTF8.self), type: "application/json")
    }
}

/// What a change answers: a line for the page and the night as it is now.
struct NightAnswer: Encodable {
    var message: String
    var warnings: [String] = []
    var state: NightState
}
