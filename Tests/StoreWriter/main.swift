// Test helper: rewrites the Last Mix in a tight loop until killed, so that a SIGKILL at a random
// moment lands inside a write (crash-safety test in NoiseControlTests).
import Foundation
import NoiseControl
import SharedStore

let store = LastMixStore(root: StoreRoot.resolve())
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
