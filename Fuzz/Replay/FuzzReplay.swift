import Foundation

/// The fuzz targets' `main` in ordinary (non-fuzzer) builds, where libFuzzer supplies none: the
/// target's entry run over each file named on the command line, so `swift build` links every fuzz
/// target and a crash input from the fuzzer can be rerun (`.build/debug/FuzzVariables crash-...`).
/// One replay for the three targets; each calls it from its `#if !FUZZING` `main`.
public enum FuzzReplay {
    /// Replays each file named after the program name through `entry`, printing `ok PATH` after
    /// each; with none, prints the usage. A file that cannot be read ends the replay with exit
    /// status 1 and its name (a mistyped crash file must not pass as replayed).
    public static func main(_ name: String, _ entry: (UnsafePointer<UInt8>, Int) -> Int32) {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            FileHandle.standardError.write(
                Data("usage: \(name) FILE...  (replays inputs; build with -DFUZZING --sanitize=fuzzer to fuzz)\n".utf8))
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(name): cannot read '\(path)'\n".utf8))
                exit(1)
            }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { entry($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            print("ok \(path)")
        }
    }
}
