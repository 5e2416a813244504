import Foundation
import NoiseControl
import NoiseEngine
import SharedStore
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch home for one test: store, runtime folder (socket) and config folder.
struct Sandbox {
    let url: URL
    var store: URL { url.appendingPathComponent("store") }
    var run: URL { url.appendingPathComponent("run") }
    var config: URL { url.appendingPathComponent("config") }
    var root: StoreRoot { StoreRoot(url: store) }
    var socket: URL { ControlPaths.socketURL(environment: ["XDG_RUNTIME_DIR": run.path]) }
    var environment: [String: String] {
        TestStore(at: store).environment([
            "XDG_RUNTIME_DIR": run.path, "XDG_CONFIG_HOME": config.path, "WIDGETWEAVER_PRESETS": "",
        ])
    }

    init() throws {
        url = try Products.temporaryDirectory("ww-ctl")
        try FileManager.default.createDirectory(
            at: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func noise(_ args: [String], extra: [String: String] = [:]) throws -> Products.Result {
        try Products.run("noise", args, environment: environment.merging(extra) { $1 })
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

let sleepMix = Mix(
    name: "Sleep", description: "test", masterVolume: 0.7,
    layers: [
        Mix.Layer(
            enabled: true, volume: 0.8, colour: 1.8, lowCutHz: 20, highCutHz: 6000,
            eq: Mix.EQ(lowDb: 2, midDb: -3, highDb: -8)),
        Mix.Layer(enabled: true, volume: 0.45, colour: 1.0, lowCutHz: 200, highCutHz: 4000),
    ])

/// Stands in for the live player: keeps a mix and transport state in memory and answers the
/// control protocol the way the engine will.
final class FakePlayer: Sendable {
    struct State {
        var mix = sleepMix
        var presetID: String? = "sleep"
        var state = PlayerStatus.State.playing
        var timerEndsAt: Date?
        var fadeSeconds: Double?
        var savedPresets: [String] = []
        var muted = false
        var requests: [ControlRequest] = []
    }

    let state = Mutex(State())

    func status() -> PlayerStatus {
        state.withLock { s in
            var st = PlayerStatus(
                state: s.state, mix: s.mix, presetID: s.presetID,
                output: .init(backend: "null", device: "test"))
            st.levelDbfs = -23.5
            st.underruns = 2
            st.muted = s.muted
            st.timerEndsAt = s.timerEndsAt
            st.timerRemainingSeconds = s.timerEndsAt.map { $0.timeIntervalSinceNow }
            return st
        }
    }

    var handler: @Sendable (ControlRequest) -> ControlResponse {
        { [self] request in handle(request) }
    }

    func handle(_ request: ControlRequest) -> ControlResponse {
        let result: String? = state.withLock { s in
            s.requests.append(request)
            switch request {
            case .setLayer(let index, let change):
                do { try s.mix.apply(change, toLayer: index) } catch { return "\(error)" }
            case .setMaster(let v):
                do { try s.mix.setMaster(v) } catch { return "\(error)" }
            case .preset(let id, _): s.presetID = id
            case .pause: s.state = .paused
            case .resume: s.state = .playing
            case .stop: s.state = .stopped
            case .timer(let seconds, let fade):
                s.timerEndsAt = seconds.map { Date().addingTimeInterval($0) }
                s.fadeSeconds = fade
            case .savePreset(let name):
                s.savedPresets.append(name)
                s.presetID = name
            case .forgetPreset(let name): if s.presetID == name { s.presetID = nil }
            case .toggle: s.state = s.state == .paused ? .playing : .paused
            case .adjustMaster(let d):
                do { try s.mix.setMaster(min(max(s.mix.masterVolume + d, 0), 1)) } catch { return "\(error)" }
                s.muted = false
            case .mute(let m): s.muted = m
            case .status, .subscribe: break
            }
            return nil
        }
        if let result { return .error(result) }
        return .ok(status())
    }
}

/// Waits until `condition` holds, for at most `seconds`.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

func fileMode(_ path: String) -> mode_t {
    var st = stat()
    lstat(path, &st)
    return st.st_mode & 0o777
}

/// A connected raw socket to `path`, for sending what a well-behaved client never would.
func rawConnect(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
        let b = Array(path.utf8)
        raw.copyBytes(from: b)
        raw[b.count] = 0
    }
    let rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard rc == 0 else {
        close(fd)
        throw SocketError("connect", path: path)
    }
    var tv = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    return fd
}

func sendRaw(_ fd: Int32, _ data: Data) {
    _ = data.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
}

/// Everything the peer sends until it closes (or 5 s pass).
func readAll(_ fd: Int32) -> String {
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}
