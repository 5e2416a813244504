import BoundedJSON
import Foundation
import LoginEntryFiles
import NoiseControl
import NoiseEngine
import Synchronization
import TestSupport
import Testing

@Suite struct StoreRobustnessTests {
    /// Ten `noise set` processes at once, each changing its own field five times, while this
    /// process keeps reading the file: every change lands and every read parses.
    @Test func tenProcessesChangingTheMixLoseNothing() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        let start = Mix(name: "Four", masterVolume: 0.5, layers: (0..<4).map { _ in Mix.Layer(volume: 0.5, colour: 1) })
        try store.save(LastMix(mix: start, wasPlaying: true, resumeOnLaunch: true))
        let jobs: [(flags: (Int) -> [String], check: (Mix, Int) -> Bool)] = [
            ({ ["--layer", "1", "--volume", "0.0\($0)"] }, { $0.layers[0].volume == Double("0.0\($1)") }),
            ({ ["--layer", "2", "--volume", "0.0\($0)"] }, { $0.layers[1].volume == Double("0.0\($1)") }),
            ({ ["--layer", "3", "--volume", "0.0\($0)"] }, { $0.layers[2].volume == Double("0.0\($1)") }),
            ({ ["--layer", "4", "--volume", "0.0\($0)"] }, { $0.layers[3].volume == Double("0.0\($1)") }),
            ({ ["--layer", "1", "--colour", "1.\($0)"] }, { $0.layers[0].colour == Double("1.\($1)") }),
            ({ ["--layer", "2", "--colour", "1.\($0)"] }, { $0.layers[1].colour == Double("1.\($1)") }),
            ({ ["--layer", "3", "--eq-low", "\($0)"] }, { $0.layers[2].eq.lowDb == Double($1) }),
            ({ ["--layer", "4", "--eq-high", "-\($0)"] }, { $0.layers[3].eq.highDb == -Double($1) }),
            ({ ["--layer", "1", "--low-cut", "\(100 + $0)"] }, { $0.layers[0].lowCutHz == Double(100 + $1) }),
            ({ ["--master", "0.\($0)"] }, { $0.masterVolume == Double("0.\($1)") }),
        ]
        let rounds = 5
        let noise = Products.url("noise").path
        var processes: [ChildProcess] = []
        for job in jobs {
            // One shell per job runs its five changes in order; the ten shells run at once.
            let script = (1...rounds).map { r in
                ([noise, "set"] + job.flags(r)).map { "'\($0)'" }.joined(separator: " ")
            }
            .joined(separator: " && ")
            processes.append(
                try ChildProcess("/bin/sh", ["-c", script + " >/dev/null 2>&1"], environment: box.environment))
        }
        var reads = 0, unparseable = 0
        while processes.contains(where: { $0.poll() == nil }) {
            if let data = try? Data(contentsOf: store.url) {
                reads += 1
                if (try? JSONValue.parse(data)) == nil { unparseable += 1 }
            }
        }
        #expect(processes.allSatisfy { $0.wait() == 0 })
        #expect(unparseable == 0)
        #expect(reads > 0)
        let load = try store.load()
        #expect(load.repairs.isEmpty && load.setAsideAt == nil)
        let mix = try #require(load.lastMix).mix
        for (i, job) in jobs.enumerated() { #expect(job.check(mix, rounds), "job \(i): \(mix)") }
        #expect(load.lastMix?.resumeOnLaunch == true)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.store.path).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    /// A writer that rewrites the Last Mix in a loop is SIGKILLed at random moments: the file is
    /// always the old or the new document, never a torn one, and leftovers are cleaned up.
    @Test func aWriterKilledAtRandomNeverLeavesATornFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try store.save(LastMix(mix: sleepMix))
        var generator = SystemRandomNumberGenerator()
        var env = box.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        let iterations = 40
        var killedWhileWriting = 0, changed = 0
        var previous = try Data(contentsOf: store.url)
        for i in 0..<iterations {
            let p = try ChildProcess(Products.url("store-writer").path, [], environment: env)
            // Wait until this writer has replaced the file at least once (start-up time varies a
            // lot on a loaded machine), then kill it at a random moment of its loop.
            if eventually(5, { (try? Data(contentsOf: store.url)) != previous }) { changed += 1 }
            usleep(UInt32.random(in: 0...20_000, using: &generator))  // a random moment of the loop is the point
            p.signal(SIGKILL)
            #expect(p.wait() == 128 + SIGKILL, "iteration \(i): the writer exited by itself")
            // A temporary file left behind means the kill landed between creating it and the rename.
            if try FileManager.default.contentsOfDirectory(atPath: box.store.path).contains(where: {
                $0.contains(".tmp-")
            }) {
                killedWhileWriting += 1
            }
            let data = try #require(try Data(contentsOf: store.url))
            #expect((try? JSONValue.parse(data)) != nil, "iteration \(i): torn file")
            let load = try store.load()
            #expect(load.repairs.isEmpty && load.setAsideAt == nil, "iteration \(i)")
            previous = data
        }
        print(
            """
            crash test: \(iterations) writers killed, \(killedWhileWriting) inside the write (temporary file \
            left), \(changed) had written at least once
            """
        )
        // Meaningful only if every writer really was writing, and kills landed mid-write.
        #expect(changed == iterations)
        #expect(killedWhileWriting > 0)
        // Killed writers leave their temporary files; the next locked update removes them.
        try store.update { $0.wasPlaying = false }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: box.store.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func saverCoalescesToOneWritePerSecondAndFlushes() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try store.save(LastMix(mix: sleepMix, resumeOnLaunch: true))
        let saver = LastMixSaver(store: store)
        let start = Date()
        var mix = sleepMix
        // A slider dragged for 1.5 s: 150 changes.
        for step in 0..<150 {
            mix.masterVolume = Double(step) / 200
            saver.submit(mix: mix, presetID: "sleep", wasPlaying: true)
            usleep(10_000)  // the drag's pace (a change per 10 ms) is the input
        }
        let elapsed = Date().timeIntervalSince(start)
        let writes = saver.writeCount
        print("saver: 150 changes in \(String(format: "%.2f", elapsed)) s gave \(writes) writes before the final flush")
        #expect(writes >= 1 && Double(writes) <= elapsed.rounded(.up) + 1, "\(writes) writes in \(elapsed) s")
        mix.masterVolume = 0.9
        saver.submit(mix: mix, presetID: "sleep", wasPlaying: false)
        saver.close()
        let last = try #require(try store.load().lastMix)
        #expect(last.mix.masterVolume == 0.9)
        #expect(last.wasPlaying == false)
        #expect(last.resumeOnLaunch == true)
    }
}

@Suite struct AutostartTests {
    @Test func unitPassesSystemdAnalyzeVerify() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let a = box.autostart(store: box.store.path + "/with space and 100%")
        try a.install(.systemd)
        let text = try String(contentsOf: a.unitURL, encoding: .utf8)
        #expect(
            text.contains(
                """
                ExecStart=\"\(Products.url("noise").path)\" \"resume\" \"--if-enabled\" \"--store\" \
                \"\(box.store.path)/with space and 100%%\"
                """
            ))
        #expect(text.contains("WantedBy=default.target"))
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: a.wantsLinkURL.path)
                == "../widgetweaver-noise.service")
        let tool = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            Issue.record("systemd-analyze is not installed; only the unit text was checked")
            return
        }
        let p = try ChildProcess(tool, ["verify", a.unitURL.path])
        let status = p.wait()
        let messages = String(decoding: p.stderr, as: UTF8.self)
        #expect(status == 0, "\(messages)")
        #expect(messages.isEmpty, "\(messages)")
    }

    @Test func desktopEntryQuoting() throws {
        #expect(try LoginEntries.desktopWord("/opt/my apps/noise") == "\"/opt/my apps/noise\"")
        #expect(try LoginEntries.desktopWord("a$b\"c`d\\e%f") == "\"a\\\\$b\\\\\"c\\\\`d\\\\\\\\e%%f\"")
        #expect(try LoginEntries.systemdWord("a\"b\\c$d%e") == "\"a\\\"b\\\\c$$d%%e\"")
        #expect(throws: LoginEntries.Unquotable.self) { try LoginEntries.systemdWord("a\nb") }
        let box = try Sandbox()
        defer { box.remove() }
        let text = try box.autostart().desktopText()
        #expect(text.contains("Exec=\"\(Products.url("noise").path)\" \"resume\" \"--if-enabled\""))
        #expect(text.hasPrefix("[Desktop Entry]\nType=Application\n"))
    }
}
