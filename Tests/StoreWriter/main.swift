// Test helper: rewrites the Last Mix in a tight loop until killed, so that a SIGKILL at a random
// moment lands inside a write (crash-safety test in NoiseControlTests).
import Foundation
import NoiseControl
import SharedStore

// Only ever a test's private store: run by hand (`--help`, or no environment) it would rewrite the
// user's own Last Mix forever, so it refuses instead.
let environment = ProcessInfo.processInfo.environment
guard CommandLine.arguments.count == 1, let home = environment["WIDGETWEAVER_HOME"], !home.isEmpty else {
    FileHandle.standardError.write(
        Data(
            """
            usage: WIDGETWEAVER_HOME=DIR store-writer
            A test helper: rewrites DIR's Last Mix in a loop until killed. It takes no arguments and \
            refuses to run without WIDGETWEAVER_HOME, so it never touches your own store.

            """.utf8))
    exit(2)
}
let store = LastMixStore(root: StoreRoot.resolve(environment: environment))
var step = 0
while true {
    step += 1
    let value = Double(step % 101) / 100
    try store.update { last in
        last.mix.masterVolume = value
        last.mix.name = "Step \(step)"
        for i in last.mix.layers.indices { last.mix.layers[i].volume = value }
    }
}
