// Only in ordinary (non-fuzzer) builds, where libFuzzer supplies no `main`: replays the fuzz
// entry over the files named on the command line, so `swift build` links this target and a
// crash input can be rerun with `swift run FuzzDesignImport CRASH-FILE`. The fuzzer build passes
// `-Xswiftc -DFUZZING` so this `main` does not clash with libFuzzer's.
#if !FUZZING
    import Foundation

    @main
    struct ReplayMain {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                let data = FileManager.default.contents(atPath: path) ?? Data()
                _ = data.withUnsafeBytes { fuzzDesignImport($0.baseAddress, $0.count) }
                print("ok: \(path)")
            }
        }
    }
#endif
