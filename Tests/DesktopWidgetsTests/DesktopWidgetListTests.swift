import DesktopWidgets
import Foundation
import LoginEntryFiles
import SharedStore
import TestSupport
import Testing
import WidgetRender

@Suite struct DesktopWidgetListTests {
    static func scratch() throws -> (URL, StoreRoot) {
        let dir = try Products.temporaryDirectory("desktop-list")
        return (dir, StoreRoot(url: dir))
    }

    @Test func roundTripsThroughTheStoreFile() throws {
        let (dir, root) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let widgets = [
            PinnedWidget(
                id: 1, design: PinnedWidget.noiseMachineDesign, family: .small,
                placement: .anchor(.topRight, marginPoints: 24), monitor: .index(0)),
            PinnedWidget(
                id: 3, design: UUID().uuidString, family: .medium, placement: .at(x: 40, y: 60), monitor: .all),
        ]
        try DesktopWidgetList.update(root) { $0.widgets = widgets }
        let loaded = try DesktopWidgetList.load(root)
        #expect(loaded.widgets == widgets)
        #expect(loaded.nextID == 4)
        let text = try String(contentsOf: DesktopWidgetList.url(root), encoding: .utf8)
        #expect(text.contains("\"anchor\" : \"top-right\"") && text.contains("\"monitor\" : \"all\""), "\(text)")
    }

    @Test(arguments: [
        (
            #"{"version":1,"widgets":[{"id":1,"design":"noise-machine","family":"huge","at":[1,2],"monitor":0}]}"#,
            "widgets[0].family", "must be one of small"
        ),
        (
            #"{"version":1,"widgets":[{"id":1,"design":"noise-machine","family":"small","at":[1,99999],"monitor":0}]}"#,
            "widgets[0].at", "0…16384"
        ),
        (
            #"""
            {"version":1,"widgets":[{"id":1,"design":"noise-machine","family":"small",\#
            "anchor":"left","monitor":0}]}
            """#,
            "widgets[0].anchor", "top-left"
        ),
        (
            #"""
            {"version":1,"widgets":[{"id":1,"design":"noise-machine","family":"small","anchor":"center","margin":5000,\#
            "monitor":0}]}
            """#,
            "widgets[0].margin", "allowed 0…1000"
        ),
        (
            #"{"version":1,"widgets":[{"id":1,"design":"noise-machine","family":"small","at":[1,2],"monitor":99}]}"#,
            "widgets[0].monitor", "0…15"
        ),
        (
            #"{"version":1,"widgets":[{"id":1,"design":"../etc/passwd","family":"small","at":[1,2],"monitor":0}]}"#,
            "widgets[0].design", "UUID"
        ),
        (#"{"version":7,"widgets":[]}"#, "version", "allowed: 1"),
        (#"[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#, "desktop.json: ", "nested deeper than 6 levels"),
    ])
    func badFileIsSetAsideNamingTheField(json: String, field: String, allowed: String) throws {
        let (dir, root) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(json.utf8).write(to: DesktopWidgetList.url(root))
        var warnings: [String] = []
        let list = try DesktopWidgetList.load(root, warn: { warnings.append($0) })
        #expect(list.widgets.isEmpty)
        let w = try #require(warnings.first)
        #expect(w.contains(field) && w.contains(allowed) && w.contains("moved to"), "\(w)")
        // Nothing lost: the file is beside, byte for byte.
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("desktop.json") && $0 != "desktop.json"
        }
        #expect(aside.count == 1)
        #expect(try String(contentsOf: dir.appendingPathComponent(aside[0]), encoding: .utf8) == json)
    }

    @Test func placementsOnAMonitor() {
        let monitor = (width: 1920, height: 1080), small = (width: 170, height: 170)
        #expect(
            Placement.anchor(.topRight, marginPoints: 24).origin(widgetSize: small, monitorSize: monitor) == (1726, 24))
        #expect(
            Placement.anchor(.bottomLeft, marginPoints: 10).origin(widgetSize: small, monitorSize: monitor) == (10, 900)
        )
        #expect(
            Placement.anchor(.center, marginPoints: 0).origin(widgetSize: small, monitorSize: monitor) == (875, 455))
        #expect(Placement.at(x: 40, y: 60).origin(widgetSize: small, monitorSize: monitor) == (40, 60))
        // Kept on the monitor: a place beyond its edge is pulled back.
        #expect(Placement.at(x: 5000, y: 5000).origin(widgetSize: small, monitorSize: monitor) == (1750, 910))
        #expect(MonitorChoice.all.monitors(count: 3) == [0, 1, 2])
        #expect(MonitorChoice.index(2).monitors(count: 1) == [0], "an unplugged monitor's widget goes to the first")
        #expect(MonitorChoice.parse("16") == nil && MonitorChoice.parse("all") == .all)
        #expect(
            Placement.parsePoint("40,60")! == (40, 60) && Placement.parsePoint("40") == nil
                && Placement.parsePoint("-1,2") == nil)
    }

    @Test func autostartEntryRunsWeaverDesktop() throws {
        let dir = try Products.temporaryDirectory("desktop-autostart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let entry = DesktopAutostart(
            target: LoginEntryTarget(
                configHome: dir, executable: URL(fileURLWithPath: "/opt/my tools/weaver"),
                storeDirectory: "/home/a b/store"))
        let files = try entry.install(.xdg)
        #expect(files == [dir.appendingPathComponent("autostart/widgetweaver-desktop.desktop")])
        let text = try String(contentsOf: files[0], encoding: .utf8)
        #expect(text.contains(#"Exec="/opt/my tools/weaver" "desktop" "--store" "/home/a b/store""#), "\(text)")
        #expect(entry.isInstalled)
        #expect(try entry.remove() == files)
        #expect(!entry.isInstalled)
        let unit = try entry.install(.systemd)
        #expect(try String(contentsOf: unit[0], encoding: .utf8).contains("WantedBy=graphical-session.target"))
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: unit[1].path) == "../widgetweaver-desktop.service"
        )
    }
}
