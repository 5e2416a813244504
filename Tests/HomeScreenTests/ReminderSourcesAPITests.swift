import Foundation
import SharedStore
import SizeLimits
import TestSupport
import Testing

/// A todo.txt with one overdue task (yesterday), one due in a week and one done: the Reminders
/// widget has a row to show in any mode whenever the test runs.
enum TodoFixture {
    static func text(now: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        let yesterday = f.string(from: now.addingTimeInterval(-86_400))
        let nextWeek = f.string(from: now.addingTimeInterval(7 * 86_400))
        return
            "(A) Renew passport +Personal due:\(yesterday)\nBuy oat milk @shop due:\(nextWeek)\nx 2026-01-02 Old task\n"
    }
}

/// The Data page's Reminders API against a real `weaver serve`: each answer checked against what
/// `weaver reminders list` and the snapshot then hold, and each refusal against the CLI's words.
@Suite(.serialized)
struct ReminderSourcesAPITests {
    @Test func taskListsAreAddedByPathAndUploadRefreshedListedAndRemoved() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let outside = rig.store.deletingLastPathComponent()

        // A path: the person's own file, read where it is.
        let todo = outside.appendingPathComponent("todo.txt")
        try Data(TodoFixture.text().utf8).write(to: todo)
        let added = try LibraryAPITests.send(
            rig, "POST", "/api/data/reminders", #"{"source":"\#(todo.path)","name":"Home"}"#, token: token)
        #expect(added.status == 201, "\(added.text)")
        #expect(added.json()?["message"] as? String == "Added Home: 3 tasks.", "\(added.text)")
        let list = try rig.weaver(["reminders", "list"])
        #expect(list.stdoutText.contains("home\tHome\ttodotxt\t3 tasks"), "\(list.stdoutText)")
        #expect(list.stdoutText.contains(todo.path))
        // Refreshed with the add: the snapshot holds the open tasks.
        let snapshot = try String(
            contentsOf: rig.store.appendingPathComponent("snapshots/reminders.json"), encoding: .utf8)
        #expect(snapshot.contains("Renew passport") && snapshot.contains("Buy oat milk"))

        // An upload: kept in the store under its own name.
        let up = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/reminders/upload?name=work.txt", Array("Call Sam\nFile taxes\n".utf8),
            token: token, type: "text/plain")
        #expect(up.status == 201, "\(up.text)")
        let uploads = rig.store.appendingPathComponent("reminders/uploads")
        #expect((try FileManager.default.contentsOfDirectory(atPath: uploads.path)) == ["work.txt"])
        let page = try RawHTTP.send(port: rig.port, path: "/data").text
        #expect(page.contains("data-reminders-id=\"home\"") && page.contains("data-reminders-id=\"work\""))
        #expect(page.contains("uploaded file"))
        // Explore's set-up card shows the state.
        let explore = try RawHTTP.send(port: rig.port, path: "/explore").text
        let card = try #require(
            explore.firstMatch(of: #/data-source="reminders"><h3>Reminders</h3><p class="setup-state (\w+)">([^<]*)</#))
        #expect(card.1 == "ok" && card.2 == "2 lists, 5 tasks", "\(card.0)")

        // Refresh: the CLI's count of sources and open tasks.
        let refreshed = try LibraryAPITests.send(rig, "POST", "/api/data/reminders/refresh", token: token)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.json()?["message"] as? String == "Refreshed 2 sources: 4 open tasks.", "\(refreshed.text)")

        // Remove: the upload's copy goes with it; the person's own file stays.
        let removeWork = try LibraryAPITests.send(rig, "DELETE", "/api/data/reminders/work", token: token)
        #expect(removeWork.status == 200, "\(removeWork.text)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: uploads.path)).isEmpty)
        let removeHome = try LibraryAPITests.send(rig, "DELETE", "/api/data/reminders/home", token: token)
        #expect(removeHome.status == 200, "\(removeHome.text)")
        #expect(FileManager.default.fileExists(atPath: todo.path))
        #expect((try rig.weaver(["reminders", "list"])).stdoutText.hasPrefix("No reminders sources"))
        #expect(try LibraryAPITests.send(rig, "DELETE", "/api/data/reminders/home", token: token).status == 422)
        let none = try LibraryAPITests.send(rig, "POST", "/api/data/reminders/refresh", token: token)
        #expect(none.status == 422 && none.errorText.hasPrefix("no reminders sources yet"), "\(none.text)")
    }

    @Test func refusalsMatchTheCLIAndNothingIsKept() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let outside = rig.store.deletingLastPathComponent()

        // A calendar of events, not tasks: the CLI's refusal, naming the file as uploaded.
        let events = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/reminders/upload?name=team.ics", Array(CalendarFixture.ics()), token: token,
            type: "text/calendar")
        #expect(events.status == 422, "\(events.text)")
        let eventsFile = outside.appendingPathComponent("team.ics")
        try CalendarFixture.ics().write(to: eventsFile)
        let cli = try rig.weaver(["reminders", "add", eventsFile.path])
        let webMessage = events.errorText.replacingOccurrences(of: "team.ics", with: eventsFile.path)
        #expect(
            cli.status != 0 && !webMessage.isEmpty && cli.stderrText.contains(webMessage),
            "web '\(webMessage)' / cli '\(cli.stderrText)'")
        let uploads = rig.store.appendingPathComponent("reminders/uploads")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []).isEmpty)

        // Paths that must not be read: not .txt/.ics, relative, missing, inside the store, a
        // link named todo.txt to a file that is not.
        let link = outside.appendingPathComponent("sneaky.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/passwd")
        let inStore = rig.store.appendingPathComponent("mine.txt")
        try Data("task\n".utf8).write(to: inStore)
        for (source, words) in [
            ("/etc/passwd", "only .txt (todo.txt) and .ics files"), ("todo.txt", "nor an absolute path"),
            (outside.appendingPathComponent("absent.txt").path, "no such file"),
            (inStore.path, "is inside the store"), (link.path, "only .txt (todo.txt) and .ics files"),
            ("", "1…2000 characters"),
        ] {
            let r = try LibraryAPITests.send(
                rig, "POST", "/api/data/reminders", #"{"source":"\#(source)"}"#, token: token)
            #expect(r.status == 422 && r.errorText.contains(words), "\(source): \(r.text)")
        }
        #expect(((try? rig.weaver(["reminders", "list"]))?.stdoutText ?? "").hasPrefix("No reminders sources"))

        // Writes need the token and the server's Origin; bodies are capped.
        let todo = outside.appendingPathComponent("todo.txt")
        try Data(TodoFixture.text().utf8).write(to: todo)
        let body = #"{"source":"\#(todo.path)"}"#
        #expect(try rig.post("/api/data/reminders", body, token: nil).status == 403)
        #expect(try rig.post("/api/data/reminders", body, token: token, origin: "http://evil.example").status == 403)
        #expect(try rig.post("/api/data/reminders", body, token: token, host: "evil.example:80").status >= 400)
        #expect(try rig.post("/api/data/reminders", #"{"source":1}"#, token: token).status == 400)
        let big = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/reminders/upload?name=big.txt",
            [UInt8](repeating: 0x61, count: SizeLimit.dataSourceFile.bytes + 1), token: token, type: "text/plain")
        #expect(big.status == 413, "\(big.text.prefix(200))")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []).isEmpty)
    }
}
