// Only in ordinary (non-fuzzer) builds, where libFuzzer supplies no `main`: replays the fuzz
// entry over the files named on the command line (`FuzzReplay`), so `swift build` links this
// target and a crash input can be rerun with `swift run FuzzDesignImport CRASH-FILE`. The fuzzer
// build passes `-Xswiftc -DFUZZING` so this `main` does not clash with libFuzzer's.
#if !FUZZING
    import FuzzReplay

    @main
    struct ReplayMain {
        static func main() { FuzzReplay.main("FuzzDesignImport") { fuzzDesignImport($0, $1) } }
    }
#endif
