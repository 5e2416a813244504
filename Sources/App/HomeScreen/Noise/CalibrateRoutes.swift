import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import NoiseEngine

/// Noise → Calibrate (listed after `NoiseRoutes` in `Routes.table`): the hearing calibration of `noise hearing
/// calibrate` in the browser, played by the server through the output (never by the browser), and the profiles'
/// charts.
///
/// - `GET /noise/calibrate`: the page; `GET /api/hearing/calibration`: the state (step, gain, devices, profiles);
/// - `POST /api/hearing/calibration/start` `{"device": NAME, "level": 0.1…0.9, "mode": "loudness"|"threshold",
///   "retest": 0…12, "restart": BOOL}` (all but device optional);
/// - `POST /api/hearing/calibration/gain` `{"gainDb": -40…12}` (the band playing, at once);
/// - `POST /api/hearing/calibration/accept` `{"gainDb": -40…12, "centreHz": HZ (optional)}` (answer, save, next);
/// - `POST /api/hearing/calibration/stop` `{}` (save and stop: the next start resumes);
/// - `GET /noise/calibrate/chart.svg?device=NAME`: the stored profile drawn.
///
/// Every change answers `{"message": …, "calibration": STATE}`; a refusal `{"error": …, "field": …}`.
struct CalibrateRoutes {
    let server: HomeScreenServer

    static let body = JSONLimits(maxDepth: 2, maxValueCount: 12, maxStringBytes: 1024)
    static let templates = HTMLTemplates(PackageResources.calibrate_html, file: "Noise/calibrate.html")

    var desk: CalibrationDesk { server.calibration }

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let t = Self.templates
        let body = t.render(
            "page",
            [
                "minLevel": HearingProbe.levelRange.lowerBound.description,
                "maxLevel": HearingProbe.levelRange.upperBound.description,
                "maxRetest": CalibrationDesk.retestRange.upperBound,
                "capDb": Int(HearingCalibration.gainRange.upperBound),
            ])
        let html = AppShell.page(
            title: "Calibrate", active: .noise, token: server.token, body: body.description,
            stylesheets: ["/static/app.css", "/static/calibrate.css"],
            scripts: ["/static/app.js", "/static/calibrate.js"])
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func chart(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let device = request.uri.queryParameters.get("device"), !device.isEmpty else {
            throw HTTPError(.badRequest, "'device' is missing: ?device=NAME", field: "device")
        }
        let loaded = try? desk.store.load(device: device)
        guard let profile = loaded?.profile else {
            throw HTTPError(.notFound, "\(device) has no hearing profile")
        }
        var response = Routes.body(HearingChart.svg(profile, device: device), type: WebAssets.svg)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func state(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        BoardRoutes.json(desk.state())
    }

    @Sendable func start(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let o = try await BoardRoutes.body(
            request, limits: Self.body, allowed: ["device", "level", "mode", "retest", "restart"], required: ["device"],
            shape: #"{"device": NAME, "level": 0.1…0.9, "mode": "loudness"|"threshold", "retest": 0…12}"#)
        guard let device = o.text("device"), !device.isEmpty else {
            throw HTTPError(.badRequest, "'device' must be an output's name", field: "device")
        }
        let level = try Self.number(o, "level", in: HearingProbe.levelRange, default: 0.6, unit: "")
        var mode = HearingProfile.Mode.loudness
        if o.has("mode") {
            let allowed = HearingProfile.Mode.allCases.map(\.rawValue)
            guard let s = o.text("mode"), let m = HearingProfile.Mode(rawValue: s) else {
                throw HTTPError(.badRequest, "'mode' must be one of \(allowed.joined(separator: ", "))", field: "mode")
            }
            mode = m
        }
        let range = CalibrationDesk.retestRange
        let retest = try Self.number(
            o, "retest", in: Double(range.lowerBound)...Double(range.upperBound), default: 6, unit: "", whole: true)
        var restart = false
        if o.has("restart") {
            guard let b = o.flag("restart") else {
                throw HTTPError(.badRequest, "'restart' must be true or false", field: "restart")
            }
            restart = b
        }
        return try answer {
            try desk.start(device: device, level: level, mode: mode, retest: Int(retest), restart: restart)
        }
    }

    @Sendable func gain(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let o = try await BoardRoutes.body(
            request, limits: Self.body, allowed: ["gainDb"], required: ["gainDb"], shape: #"{"gainDb": -40…12}"#)
        let g = try Self.number(o, "gainDb", in: HearingCalibration.gainRange, unit: " dB")
        return try answer {
            try desk.setGain(g)
            return "Playing at \(String(format: "%+.0f", g)) dB."
        }
    }

    @Sendable func accept(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let o = try await BoardRoutes.body(
            request, limits: Self.body, allowed: ["gainDb", "centreHz"], required: ["gainDb"],
            shape: #"{"gainDb": -40…12, "centreHz": HZ}"#)
        let g = try Self.number(o, "gainDb", in: HearingCalibration.gainRange, unit: " dB")
        var centre: Double?
        if o.has("centreHz") { centre = try Self.number(o, "centreHz", in: HearingProfile.centreRange, unit: " Hz") }
        return try answer { try desk.accept(gainDb: g, centreHz: centre) }
    }

    @Sendable func stop(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        _ = try await BoardRoutes.body(request, limits: Self.body, allowed: [], shape: "{}")
        return try answer { try desk.stop() }
    }

    // MARK: Helpers

    func answer(_ body: () throws -> String) throws -> Response {
        do {
            let message = try body()
            return BoardRoutes.json(["message": message, "calibration": desk.state()])
        } catch let error as CalibrationDesk.Refusal {
            throw HTTPError(error.isConflict ? .conflict : .badRequest, error.message, field: error.field)
        }
    }

    /// `key`'s number, within `range` (the message names the field and the range); `default` when absent.
    static func number(
        _ o: JSONReader, _ key: String, in range: ClosedRange<Double>, default fallback: Double? = nil, unit: String,
        whole: Bool = false
    ) throws -> Double {
        if !o.has(key), let fallback { return fallback }
        let text = "\(JSONValue.formatted(range.lowerBound))…\(JSONValue.formatted(range.upperBound))\(unit)"
        guard let v = o.finiteNumber(key), range.contains(v), !whole || v == v.rounded() else {
            throw HTTPError(
                .badRequest, "'\(key)' must be a \(whole ? "whole " : "")number; allowed \(text)", field: key)
        }
        return v
    }
}
