import Foundation
import NetworkAddress
import TestSupport
import Testing

/// Multi-room: `noise play --output pipe:PATH` feeding a real Snapcast server's pipe source, heard
/// through a real Snapcast client writing what it plays to a file (shared/notes/desktop-and-multiroom.md).
@Suite(.serialized) struct SnapcastTests {
    /// The left channel of what snapclient wrote so far (raw 16-bit stereo): empty before the file is.
    static func frames(_ path: String) -> [Float] {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return bytes.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { Float(Int16(littleEndian: s[$0])) / 32767 }
        }
    }

    /// Whether a client holds an established TCP connection to 127.0.0.1:`port`: the client's end
    /// has the port as its remote one, state 01, in `/proc/net/tcp` (or `/proc/net/tcp6` for an
    /// IPv6 socket holding the v4-mapped address).
    static func connected(_ port: Int) -> Bool {
        let remote = String(format: "0100007F:%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].contains { file in
            let table = Self.procFile(file)
            return table.split(separator: "\n").contains { line in
                let f = line.split(separator: " ")
                return f.count > 3 && f[2].hasSuffix(remote) && f[3] == "01"
            }
        }
    }

    /// A /proc file read to its end: it says its size is 0, and Foundation's whole-file readers
    /// stopped after the first page, which a suite's other sockets (TIME_WAIT) fill.
    static func procFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func listening(_ port: Int) -> Bool { LoopbackProbe.accepts(port: port) }

    @Test func aSnapclientPlaysWhatNoiseRenders() throws {
        for tool in ["/usr/bin/snapserver", "/usr/bin/snapclient"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: tool),
                "\(tool) is missing (make deps installs snapserver and snapclient)")
        }
        let dir = try Products.temporaryDirectory("snap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("noise.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let port = try WebDriver.freePort()
        let conf = dir.appendingPathComponent("snapserver.conf")
        try Data(
            """
            [server]
            datadir = \(dir.path)
            [http]
            enabled = false
            [tcp]
            enabled = false
            [stream]
            port = \(port)
            source = pipe://\(fifo)?name=noise&sampleformat=48000:16:2

            """.utf8
        ).write(to: conf)
        let server = try ChildProcess("/usr/bin/snapserver", ["-c", conf.path], environment: ["HOME": dir.path])
        defer {
            server.signal(SIGTERM)
            _ = server.wait(timeoutSeconds: 10)
        }
        _ = eventually(10) { Self.listening(port) }
        try #require(
            Self.listening(port),
            "snapserver did not listen on \(port): \(String(decoding: server.stderr, as: UTF8.self))")
        let heard = dir.appendingPathComponent("heard.raw").path
        let client = try ChildProcess(
            "/usr/bin/snapclient", ["-h", "127.0.0.1", "-p", "\(port)", "--player", "file:filename=\(heard)"],
            environment: ["HOME": dir.path])
        defer {
            client.signal(SIGTERM)
            _ = client.wait(timeoutSeconds: 10)
        }
        // The client connects to the server: neither says so, the kernel's table of connections does.
        #expect(eventually(20) { Self.connected(port) }, "snapclient did not connect to \(port)")

        let args = ["--preset", "rain", "--seed", "5", "--timer", "11s", "--fade", "0s"]
        let env = TestStore(at: dir.appendingPathComponent("store")).environment(["XDG_RUNTIME_DIR": dir.path])
        let played = try Products.run(
            "noise", ["play", "--fade-in", "0", "--no-mpris", "--output", "pipe:\(fifo)"] + args, environment: env)
        #expect(played.status == 0, "\(played.stderrText)")
        #expect(played.stderrText.contains("pipe (\(fifo))"), "\(played.stderrText)")
        // The client's buffer (1 s by default) plays out: the sound in its file stops growing.
        _ = steady(for: 1, within: 10, interval: 0.1) { PlaybackTests.active(Self.frames(heard)).count }
        client.signal(SIGTERM)
        _ = client.wait(timeoutSeconds: 10)

        let left = Self.frames(heard)
        let sound = PlaybackTests.active(left)
        print("snapclient wrote \(left.count) frames, \(sound.count) with sound")
        // 11 s were played: at least 10 s arrive whole.
        try #require(sound.count >= 480_000, "only \(sound.count) frames of sound reached the client")
        let reference = try PlaybackTests.render(args)
        let heardSteady = Array(sound.dropFirst(24_000).prefix(480_000))
        let renderSteady = Array(reference.channels[0][24_000..<504_000])
        let levelDiff =
            TestRender.db(TestRender.rms(heardSteady[...])) - TestRender.db(TestRender.rms(renderSteady[...]))
        print("snapclient vs render over 10 s: \(levelDiff) dB")
        #expect(abs(levelDiff) <= 0.1)
        // No gaps: every 10 ms window of the 10 s carries sound near the overall level.
        let overall = TestRender.db(TestRender.rms(heardSteady[...]))
        let windows = stride(from: 0, to: heardSteady.count - 480, by: 480).map {
            TestRender.db(TestRender.rms(heardSteady[$0..<($0 + 480)]))
        }
        let gaps = windows.indices.filter { windows[$0] <= overall - 20 }
        #expect(
            gaps.isEmpty,
            """
            \(gaps.count) windows of 10 ms without sound, the first at \(Double(gaps.first ?? 0) / 100 + 0.5) s; \
            player: \(played.stderrText)
            """
        )
    }
}
