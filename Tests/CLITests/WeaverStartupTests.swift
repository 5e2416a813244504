import Foundation
import TestSupport
import Testing

/// Issue 41 item 25: what a `weaver render` start does not carry. Status bars start weaver every
/// minute; the server (`weaver serve`) and the audio outputs it needs for Noise → Calibrate are
/// in `weaver-serve`, and a rendered file is not fsynced. (The time itself: `make bench-render-cli`.)
@Suite struct WeaverStartupTests {
    @Test func weaverLoadsNoAudioLibraryAndCarriesNoHTTPServer() throws {
        let ldd = try ChildProcess("/usr/bin/ldd", [Products.url("weaver").path])
        #expect(ldd.wait() == 0)
        let libraries = String(decoding: ldd.stdout, as: UTF8.self)
        for audio in ["libpulse", "libasound", "libFLAC", "libsndfile"] {
            #expect(!libraries.contains(audio), "weaver loads \(audio): \(libraries)")
        }
        #expect(libraries.contains("libcairo"), "\(libraries)")
        // Swift's reflection metadata names each module's types (`11Hummingbird`, `8NIOPosix`).
        for module in ["11Hummingbird", "8NIOPosix"] {
            let grep = try ChildProcess("/usr/bin/grep", ["-c", "-a", "-F", module, Products.url("weaver").path])
            #expect(grep.wait() == 1, "weaver carries \(module)")
        }
        let server = try ChildProcess("/usr/bin/ldd", [Products.url("weaver-serve").path])
        #expect(server.wait() == 0)
        #expect(String(decoding: server.stdout, as: UTF8.self).contains("libpulse"))
    }

    @Test func aRenderedFileIsRenamedIntoPlaceWithoutFsync() throws {
        let dir = try Products.temporaryDirectory("startup")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace")
        let png = dir.appendingPathComponent("w.png")
        let child = try ChildProcess(
            "/usr/bin/strace",
            [
                "-f", "-o", trace.path, "-e", "trace=fsync,fdatasync,syncfs,rename,renameat,renameat2",
                Products.url("weaver").path, "render", "--store", dir.appendingPathComponent("store").path,
                "--template", "noise-machine", "--family", "small", "-o", png.path,
            ])
        #expect(child.wait() == 0, "\(String(decoding: child.stderr, as: UTF8.self))")
        let calls = try String(contentsOf: trace, encoding: .utf8)
        #expect(!calls.contains("fsync(") && !calls.contains("fdatasync(") && !calls.contains("syncfs("), "\(calls)")
        #expect(calls.contains("w.png"), "the PNG was not renamed into place: \(calls)")
        let bytes = try Data(contentsOf: png)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// Pango 1.50 starts two threads per new font pattern (FcFontSetMatch, FcFontSetSort): 24 in a
    /// small Noise Machine render. weaver runs those jobs on the calling thread; only Pango's FcInit
    /// thread is started.
    @Test func aRenderStartsNoThreadPerFontPattern() throws {
        let dir = try Products.temporaryDirectory("startup")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace")
        let child = try ChildProcess(
            "/usr/bin/strace",
            [
                "-f", "-o", trace.path, "-e", "trace=clone,clone3",
                Products.url("weaver").path, "render", "--store", dir.appendingPathComponent("store").path,
                "--template", "noise-machine", "--family", "medium", "--scale", "2", "-o",
                dir.appendingPathComponent("w.png").path,
            ])
        #expect(child.wait() == 0, "\(String(decoding: child.stderr, as: UTF8.self))")
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        let threads = calls.filter { $0.contains("clone") && !$0.contains("resumed>") }
        #expect(threads.count <= 1, "\(threads.count) threads started: \(threads)")
    }
}
