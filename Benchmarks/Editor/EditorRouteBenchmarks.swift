import Benchmark
import Foundation
import HomeScreen
import NetworkAddress
import SharedStore
import WidgetDesign

#if canImport(Glibc)
    import Glibc
#endif

/// The Editor's draft render route over HTTP, as the page asks for it on every edit: `POST
/// /api/drafts/{id}/render?family=medium&format=png&scale=2` to a real `weaver serve` server
/// (`HomeScreenServer` on loopback, in this process) over one kept-alive connection. Everything
/// the route does is measured: the access checks, reading the design, the store's inputs, the
/// layout, the PNG and the response. Target (issue 24): ≤ 10 ms p50. And the Editor's dock after
/// an edit: six such pictures (issue 40: keystroke to new dock ≤ 150 ms median in Chromium).
let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "draft render route over HTTP: medium PNG at 2x",
        configuration: .init(metrics: [.wallClock, .cpuTotal, .throughput], maxDuration: .seconds(10))
    ) { benchmark in
        withEditorServer { client, request in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(client.exchange(request("medium", nil))) }
            benchmark.stopMeasurement()
        }
    }
    // The dock after an edit: its six sizes as the page asks for them, one redraw per iteration.
    // With the redraw named (`draw=N`, as the page sends it) the store is read once for the six;
    // without, once per picture (as before the page named its redraws).
    for named in [true, false] {
        Benchmark(
            "dock redraw over HTTP: six sizes, PNG at 2x, \(named ? "one read of the store" : "six reads")",
            configuration: .init(metrics: [.wallClock, .cpuTotal, .throughput], maxDuration: .seconds(10))
        ) { benchmark in
            withEditorServer { client, request in
                var redraw = 0
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    redraw += 1
                    for family in ["small", "medium", "large", "circular", "rectangular", "inline"] {
                        blackHole(client.exchange(request(family, named ? redraw : nil)))
                    }
                }
                benchmark.stopMeasurement()
            }
        }
    }
}

/// A real `weaver serve` server (`HomeScreenServer` on loopback, in this process) with a Classic
/// design, one kept-alive connection to it, and the draft render request for a family (and a
/// redraw's number), as the Editor's page sends it.
func withEditorServer(_ body: (LoopbackClient, (String, Int?) -> [UInt8]) -> Void) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ww-bench-route-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = StoreRoot(url: folder)
    let design = try! TemplateCatalogue.find("classic")!.design(now: Date())
    try! DesignLibrary(root: root).add([design])
    let server = HomeScreenServer(
        listen: ListenAddress(host: "127.0.0.1", port: 0),
        board: RenderedBoard(root: root, perform: { _, _ in TapOutcome(message: "") }), mixer: Mixer(root: root))
    let running = Task { try await server.run { _ in } }
    defer { running.cancel() }
    while server.port == 0 { usleep(10_000) }
    let client = LoopbackClient(port: server.port)
    let request = { (family: String, redraw: Int?) -> [UInt8] in
        let draw = redraw.map { "&draw=\($0)" } ?? ""
        return Array(
            ("POST /api/drafts/\(design.id.uuidString)/render?family=\(family)&format=png&scale=2\(draw) HTTP/1.1\r\n"
                + "Host: 127.0.0.1:\(server.port)\r\nOrigin: http://127.0.0.1:\(server.port)\r\n"
                + "X-WidgetWeaver-Token: \(server.token)\r\nContent-Length: 0\r\n\r\n").utf8)
    }
    // The first answer proves the route works (a PNG), then warms the renderer and fonts.
    let first = client.exchange(request("medium", nil))
    precondition(first.status == 200 && first.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "no PNG: \(first.status)")
    body(client, request)
    client.close()
}

/// One HTTP/1.1 connection to a loopback port: writes a request, reads the status line, headers
/// and a `Content-Length` body. Just enough HTTP for this benchmark.
final class LoopbackClient {
    let fd: Int32

    init(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "connect: errno \(errno)")
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    func close() { _ = Glibc.close(fd) }

    func exchange(_ request: [UInt8]) -> (status: Int, body: [UInt8]) {
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            precondition(n > 0, "write: errno \(errno)")
            sent += n
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func more() {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            precondition(n > 0, "read: errno \(errno)")
            buffer += chunk[0..<n]
        }
        var headerEnd: Int?
        while headerEnd == nil {
            more()
            if buffer.count >= 4 {
                headerEnd = (0...(buffer.count - 4)).first {
                    buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10
                }
            }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self).lowercased()
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count < bodyStart + length { more() }
        return (status, Array(buffer[bodyStart..<(bodyStart + length)]))
    }
}
