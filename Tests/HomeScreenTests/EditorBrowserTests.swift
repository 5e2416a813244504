import Foundation
import TestSupport
import Testing

/// The Editor in a real headless Chromium against a real `weaver serve`: a person makes a design,
/// edits it while the dock redraws, saves it, and `weaver render` draws the same picture.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct EditorBrowserTests {
    /// The dock's generation (it goes up each time all six pictures are drawn again).
    static func generation(_ browser: WebDriver) throws -> Int {
        Int(try browser.execute("return document.querySelector('.dock').dataset.generation || '0'") as? String ?? "0")
            ?? 0
    }

    /// Waits until the dock has drawn again after `before`.
    /// True once the page has painted two frames since the call: a resize or a scroll has been drawn, so a
    /// screenshot shows it (WebDriver waits for the promise).
    static let twoFramesPainted =
        "return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"

    static func waitForRedraw(_ browser: WebDriver, after before: Int, _ what: String) throws {
        #expect(
            try browser.waitUntil(
                10, "return Number(document.querySelector('.dock').dataset.generation || 0) > \(before)"),
            "the dock did not redraw after \(what)")
    }

    static func value(_ browser: WebDriver, _ field: String) throws -> String {
        try browser.execute("return document.querySelector('[data-field=\"\(field)\"]').value") as? String ?? ""
    }

    /// The picture the dock shows for `family`, as its bytes.
    static func dockPicture(_ browser: WebDriver, _ family: String) throws -> Data {
        let script = """
            const img = document.querySelector('img[data-preview-family="\(family)"]');
            return fetch(img.src).then((r) => r.arrayBuffer()).then((b) => {
              const bytes = new Uint8Array(b); let s = '';
              for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + \
            8192));
              return btoa(s);
            });
            """
        return Data(base64Encoded: try browser.execute(script) as? String ?? "") ?? Data()
    }

    @Test func designAWidgetWhileTheDockRedrawsThenSave() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.setWindowSize(width: 1280, height: 800)

        // 1. Create a design from the Editor's chooser.
        try browser.navigate(rig.url + "editor")
        let name = try #require(try browser.find("#new-name"))
        try browser.sendKeys(name, "Made in the browser")
        try browser.click(try #require(try browser.find("#new-design button[type=submit]")))
        #expect(
            try browser.waitUntil(
                10,
                """
                return !!document.getElementById('editor') && document.getElementById('editor').dataset.ready === \
                'true'
                """
            ),
            "the editor did not open the new design")
        let id = try #require(
            try browser.execute("return document.getElementById('editor').dataset.designId") as? String)
        try Self.waitForRedraw(browser, after: 0, "opening")
        for family in ["small", "medium", "large", "circular", "rectangular", "inline"] {
            #expect(
                try browser.execute(
                    "return document.querySelector('img[data-preview-family=\"\(family)\"]').naturalWidth > 0") as? Bool
                    == true, "\(family)")
        }

        // 2. A text with {{__time}}, typed with the completion list.
        var before = try Self.generation(browser)
        let text = try #require(try browser.find(#"[data-field="primaryText"]"#))
        try browser.sendKeys(text, "\u{E009}a\u{E000}\u{E003}Now {{__ti")
        #expect(
            try browser.waitUntil(
                5,
                """
                const l = document.querySelector('.completions:not([hidden])'); return !!l && \
                [...l.querySelectorAll('li')].some((li) => li.dataset.key === '__time')
                """
            ),
            "typing {{ did not offer __time")
        try browser.sendKeys(text, "\u{E007}")  // Enter takes the highlighted key
        let typed = try Self.value(browser, "primaryText")
        #expect(typed.hasPrefix("Now {{__time}}"), "\(typed)")
        try browser.sendKeys(text, "\u{E004}")  // Tab: the change is sent
        try Self.waitForRedraw(browser, after: before, "typing the text")
        // What the text shows now is written under it (a time, not the braces).
        #expect(
            try browser.waitUntil(
                5,
                """
                return /^Now \
                \\d\\d:\\d\\d/.test(document.querySelector('[data-resolved-for=\"primaryText\"]').textContent)
                """
            ),
            "the resolved text is not shown under the field")

        // 3. A background from the swatches.
        before = try Self.generation(browser)
        try browser.click(try #require(try browser.find(#"[data-field="style.background"] input[value="midnight"]"#)))
        try Self.waitForRedraw(browser, after: before, "picking a background")

        // 3b. Issue 41.18: a font design from the Style group; the dock redraws in that face.
        #expect(
            try browser.execute(
                """
                return [...document.querySelectorAll('[data-field=\"style.fontDesign\"] option')].map(o => \
                o.value).join('|')
                """) as? String == "default|rounded|serif|monospaced")
        let inDefaultFace = try Self.dockPicture(browser, "medium")
        before = try Self.generation(browser)
        _ = try browser.execute(
            """
            const s = document.querySelector('[data-field=\"style.fontDesign\"]'); s.value = 'serif'; \
            s.dispatchEvent(new Event('change', { bubbles: true })); return true;
            """
        )
        try Self.waitForRedraw(browser, after: before, "picking a font")
        #expect(try Self.value(browser, "style.fontDesign") == "serif")
        let inSerif = try Self.dockPicture(browser, "medium")
        #expect(inSerif.count > 1000 && inSerif != inDefaultFace, "the dock did not change with the font")

        // 4. A symbol from the picker.
        before = try Self.generation(browser)
        try browser.click(try #require(try browser.find(#"[data-symbol="bolt.fill"]"#)))
        try Self.waitForRedraw(browser, after: before, "picking a symbol")
        #expect(
            try browser.execute(
                "return document.querySelector('[data-symbol=\"bolt.fill\"]').getAttribute('aria-pressed')") as? String
                == "true")

        // 5. A +1 button (Pro): the kind shows the parts it needs; the key sends it.
        // Issue 41.18: the kinds read as words, not identifiers.
        #expect(
            try browser.execute(
                """
                return [...document.querySelectorAll('[data-field=\"actions[0].kind\"] option')].map(o => \
                o.textContent).join('|')
                """) as? String == "(no button)|Add to a variable|Set a variable to now|Reset a variable|Open a link")
        before = try Self.generation(browser)
        _ = try browser.execute(
            """
            const s = document.querySelector('[data-field=\"actions[0].kind\"]'); s.value = 'incrementVariable'; \
            s.dispatchEvent(new Event('change', { bubbles: true })); return true;
            """
        )
        #expect(
            try browser.waitUntil(
                5, "return !document.querySelector('[data-field-row=\"actions[0].variableKey\"]').hidden"),
            "the kind did not show its key")
        let key = try #require(try browser.find(#"[data-field="actions[0].variableKey"]"#))
        try browser.sendKeys(key, "taps\u{E004}")
        try Self.waitForRedraw(browser, after: before, "adding a button")

        // 6. Save, and `weaver render` of the saved design draws exactly the dock's medium picture
        //    (the same minute on both sides, for {{__time}}).
        MinuteBoundary.waitUntilNoneWithin(20)
        before = try Self.generation(browser)
        _ = try browser.execute(
            """
            const s = document.querySelector('[data-field=\"style.padding\"]'); s.value = '14'; \
            s.dispatchEvent(new Event('change', { bubbles: true })); return true;
            """
        )
        try Self.waitForRedraw(browser, after: before, "changing the padding")
        #expect(
            try browser.execute("return document.getElementById('unsaved').hidden") as? Bool == false,
            "no unsaved marker")
        let save = try #require(try browser.find(#"button#save"#))
        #expect(try browser.execute("return document.getElementById('save').textContent.trim()") as? String == "Save")
        try browser.click(save)
        #expect(
            try browser.waitUntil(10, "return document.getElementById('editor').dataset.unsaved === 'false'"),
            "saving did not clear the marker")
        // Issue 41.18: after Save the line under "Preview" still said "Drawn from the unsaved draft".
        let dockState = try browser.execute("return document.getElementById('dock-state').textContent") as? String
        #expect(dockState?.hasPrefix("Drawn from the saved design") == true, "\(dockState ?? "")")
        let dock = try Self.dockPicture(browser, "medium")
        let out = rig.store.deletingLastPathComponent().appendingPathComponent("medium.png")
        let scale =
            try browser.execute("return String(Math.min(3, Math.max(1, Math.round(window.devicePixelRatio || 1))))")
            as? String ?? "1"
        let rendered = try rig.weaver(["render", id, "--family", "medium", "--scale", scale, "-o", out.path])
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        let file = try Data(contentsOf: out)
        #expect(
            dock.count > 1000 && dock == file,
            "the dock's medium picture (\(dock.count) bytes) is not weaver render's (\(file.count) bytes)")
        let shown =
            try JSONSerialization.jsonObject(with: try rig.weaver(["designs", "show", id, "--json"]).stdout)
            as? [String: Any] ?? [:]
        #expect((shown["primaryText"] as? String)?.hasPrefix("Now {{__time}}") == true)
        #expect((shown["style"] as? [String: Any])?["background"] as? String == "midnight")
        #expect((shown["style"] as? [String: Any])?["fontDesign"] as? String == "serif")
        #expect((shown["symbol"] as? [String: Any])?["name"] as? String == "bolt.fill")
        let actions = ((shown["actionBar"] as? [String: Any])?["actions"] as? [[String: Any]]) ?? []
        #expect(
            actions.first?["kind"] as? String == "incrementVariable"
                && actions.first?["variableKey"] as? String == "taps", "\(actions)")

        // 7. An unsaved edit survives a reload; leaving asks first.
        before = try Self.generation(browser)
        _ = try browser.execute(
            """
            const s = document.querySelector('[data-field=\"style.padding\"]'); s.value = '6'; s.dispatchEvent(new \
            Event('change', { bubbles: true })); return true;
            """
        )
        try Self.waitForRedraw(browser, after: before, "the unsaved edit")
        #expect(
            try browser.execute(
                """
                const e = new Event('beforeunload', { cancelable: true }); window.dispatchEvent(e); return \
                e.defaultPrevented;
                """
            ) as? Bool == true,
            "leaving with unsaved changes does not ask")
        try browser.navigate(rig.url + "editor/" + id)
        #expect(try browser.waitUntil(10, "return document.getElementById('editor').dataset.ready === 'true'"))
        #expect(try Self.value(browser, "style.padding") == "6", "the draft did not survive the reload")
        #expect(try browser.execute("return document.getElementById('unsaved').hidden") as? Bool == false)

        // 8. Undo and redo, with the keyboard.
        before = try Self.generation(browser)
        _ = try browser.execute(
            """
            const s = document.querySelector('[data-field=\"style.padding\"]'); s.value = '9'; s.dispatchEvent(new \
            Event('change', { bubbles: true })); return true;
            """
        )
        try Self.waitForRedraw(browser, after: before, "padding 9")
        _ = try browser.execute("document.getElementById('undo').focus(); return true;")
        before = try Self.generation(browser)
        try browser.press(["\u{E009}", "z"])
        try Self.waitForRedraw(browser, after: before, "Ctrl+Z")
        #expect(try Self.value(browser, "style.padding") == "6", "Ctrl+Z did not undo")
        before = try Self.generation(browser)
        try browser.press(["\u{E009}", "\u{E008}", "Z"])
        try Self.waitForRedraw(browser, after: before, "Ctrl+Shift+Z")
        #expect(try Self.value(browser, "style.padding") == "9", "Ctrl+Shift+Z did not redo")

        // 9. A bad value is refused beside its control, and the draft keeps its value.
        let padding = try #require(try browser.find(#"[data-field="style.padding"]"#))
        try browser.sendKeys(padding, "\u{E009}a\u{E000}99\u{E004}")
        #expect(
            try browser.waitUntil(
                5, "return /0…32/.test(document.querySelector('[data-error-for=\"style.padding\"]').textContent)"),
            "padding 99 was not refused beside its control")
        #expect(
            try browser.execute(
                "return document.querySelector('[data-field=\"style.padding\"]').getAttribute('aria-invalid')")
                as? String == "true")
        let draft = try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").json()
        #expect(((draft?["design"] as? [String: Any])?["style"] as? [String: Any])?["padding"] as? Double == 9)
    }

    /// Every group the design uses is reached with Tab alone and every control in it is labelled;
    /// then 100 edits, each timed from the change to the new pictures decoded in the page.
    @Test func keyboardReachesEveryGroupAndEditsRedrawQuickly() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        #expect(try rig.weaver(["designs", "new", "--template", "classic", "--name", "Morning"]).status == 0)
        let set = try rig.weaver([
            "designs", "set", "Morning", "primaryText=Good morning · {{__time}}",
            "secondaryText=Coffee {{coffee|0}} today",
            "symbol=cup.and.saucer.fill", "background=midnight", "accent=orange",
            "action.1=increment:coffee:1:+1 Coffee",
        ])
        #expect(set.status == 0, "\(set.stderrText)")
        let list =
            try JSONSerialization.jsonObject(with: try rig.weaver(["designs", "list", "--json"]).stdout)
            as? [[String: Any]] ?? []
        let id = try #require(list.first?["id"] as? String)
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.setWindowSize(width: 1280, height: 800)
        try browser.navigate(rig.url + "editor/" + id)
        #expect(
            try browser.waitUntil(
                10,
                """
                return document.getElementById('editor').dataset.ready === 'true' && \
                Number(document.querySelector('.dock').dataset.generation || 0) > 0
                """
            ))

        // Labelled: every visible control has a label or an accessible name.
        let unlabelled =
            try browser.execute(
                """
                return [...document.querySelectorAll('#controls [data-field]')].filter((c) => c.offsetParent !== null)
                  .filter((c) => !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && \
                !c.getAttribute('aria-labelledby'))
                  .map((c) => c.dataset.field);
                """) as? [Any] ?? ["?"]
        #expect(unlabelled.isEmpty, "controls without a label: \(unlabelled)")

        // Tab from the top until every shown group and every shown control has had the focus.
        let groups = Set(
            try browser.execute(
                """
                return [...document.querySelectorAll('#controls fieldset.group')].filter((g) => !g.hidden).map((g) \
                => g.dataset.group);
                """
            ) as? [String] ?? [])
        #expect(groups.isSuperset(of: ["Text", "Layout", "Style", "Symbol", "Image", "Actions"]), "\(groups)")
        let controls = Set(
            try browser.execute(
                """
                return [...document.querySelectorAll('#controls [data-field]')].filter((c) => c.offsetParent !== \
                null).map((c) => c.dataset.field);
                """
            ) as? [String] ?? [])
        _ = try browser.execute(
            "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); return true;")
        var reachedGroups = Set<String>(), reachedControls = Set<String>()
        for _ in 0..<700 where reachedControls != controls {
            try browser.press(["\u{E004}"])
            let here =
                try browser.execute(
                    """
                    const a = document.activeElement; if (!a) return ['', ''];
                    const g = a.closest('fieldset.group'); const f = a.closest('[data-field]');
                    return [g ? g.dataset.group : '', f ? f.dataset.field : ''];
                    """) as? [String] ?? ["", ""]
            if !here[0].isEmpty { reachedGroups.insert(here[0]) }
            if !here[1].isEmpty { reachedControls.insert(here[1]) }
        }
        #expect(reachedGroups == groups, "groups not reached with Tab: \(groups.subtracting(reachedGroups))")
        #expect(reachedControls == controls, "controls not reached with Tab: \(controls.subtracting(reachedControls))")

        // 100 edits: the page's own measure from the change to all six new pictures decoded.
        var durations: [Double] = []
        for batch in 0..<4 {
            let script = """
                const box = document.querySelector('[data-field="style.padding"]');
                const dock = document.querySelector('.dock');
                return (async () => {
                  const out = [];
                  for (let i = 0; i < 25; i++) {
                    const before = Number(dock.dataset.generation || 0);
                    performance.clearMeasures('edit-to-preview');
                    box.value = String(8 + ((\(batch * 25) + i) % 2) * 6);
                    box.dispatchEvent(new Event('change', { bubbles: true }));
                    const deadline = performance.now() + 10000;
                    while (Number(dock.dataset.generation || 0) === before && performance.now() < deadline) await new \
                Promise((r) => setTimeout(r, 2));
                    const m = performance.getEntriesByName('edit-to-preview');
                    out.push(m.length ? m[m.length - 1].duration : 10000);
                  }
                  return out;
                })();
                """
            durations += (try browser.execute(script) as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
        }
        #expect(durations.count == 100)
        let sorted = durations.sorted()
        let p50 = sorted[sorted.count / 2], p95 = sorted[Int((Double(sorted.count) * 0.95).rounded(.up)) - 1]
        print(
            """
            editor edit-to-preview over \(durations.count) edits: p50 \(String(format: "%.1f", p50)) ms, p95 \
            \(String(format: "%.1f", p95)) ms, max \(String(format: "%.1f", sorted.last ?? 0)) ms
            """
        )
        // The issue's target is p95 ≤ 150 ms, met when this test runs alone (docs/editor.md has the
        // figures). Beside the whole suite on a shared machine the browser and server wait for
        // cores, so the default bound only catches a real regression (edits waiting on each
        // other, a redraw per picture); WIDGETWEAVER_EDITOR_TIMING=strict checks the target.
        let strict = ProcessInfo.processInfo.environment["WIDGETWEAVER_EDITOR_TIMING"] == "strict"
        #expect(p95 <= (strict ? 150 : 600), "edit to new preview p95 \(p95) ms (p50 \(p50) ms)")

        // Typed text: 20 keystrokes into the name box, each after a quiet spell longer than the page's
        // typing pause (what is measured is a single key: sent at once, not after the pause), from the
        // keystroke's input event to all six new pictures decoded.
        let typedScript = """
            const box = document.querySelector('[data-field="name"]');
            const dock = document.querySelector('.dock');
            return (async () => {
              const out = [];
              for (let i = 0; i < 20; i++) {
                await new Promise((r) => setTimeout(r, 250));
                const before = Number(dock.dataset.generation || 0);
                performance.clearMeasures('edit-to-preview');
                performance.clearResourceTimings();
                const typedAt = performance.now();
                box.value = i % 2 === 0 ? box.value + 'x' : box.value.slice(0, -1);
                box.dispatchEvent(new Event('input', { bubbles: true }));
                const deadline = performance.now() + 10000;
                while (Number(dock.dataset.generation || 0) === before && performance.now() < deadline) await new \
            Promise((r) => setTimeout(r, 2));
                const m = performance.getEntriesByName('edit-to-preview');
                const sent = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/edit'));
                out.push([m.length ? m[m.length - 1].duration : 10000, sent ? sent.startTime - typedAt : 10000]);
              }
              return out;
            })();
            """
        let rows = (try browser.execute(typedScript) as? [Any] ?? []).compactMap { row in
            (row as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        }
        #expect(rows.count == 20 && rows.allSatisfy { $0.count == 2 })
        let typed = rows.compactMap(\.first), sentAfter = rows.compactMap(\.last)
        // Each lone key goes to the server at once, not after the typing pause (120 ms).
        #expect(sentAfter.allSatisfy { $0 < 100 }, "a lone keystroke's edit waited: \(sentAfter) ms")
        let typedP50 = typed.sorted()[typed.count / 2]
        print(
            """
            editor keystroke-to-preview over \(typed.count) keys: p50 \(String(format: "%.1f", typedP50)) ms, max \
            \(String(format: "%.1f", typed.max() ?? 0)) ms
            """)
        // The issue's target: median ≤ 150 ms on this machine (checked with WIDGETWEAVER_EDITOR_TIMING=strict);
        // by default a bound loose enough for a busy suite (the edit's start is checked above).
        #expect(typedP50 <= (strict ? 150 : 600), "keystroke to new preview p50 \(typedP50) ms")

        // The dock's +1 button can be pressed to try it: the dock shows the new count, the store
        // is not touched.
        let beforeTry = try Self.dockPicture(browser, "medium")
        let generationBeforeTry = try Self.generation(browser)
        let tryButton = try #require(try browser.find(#"button.try[data-family="medium"]"#))
        try browser.click(tryButton)
        try Self.waitForRedraw(browser, after: generationBeforeTry, "trying the +1 button")
        let tried = try browser.waitUntil(
            5, "return /coffee would be 1/.test(document.getElementById('live').textContent)")
        let state = try browser.execute("return document.getElementById('live').textContent") as? String ?? ""
        #expect(tried, "\(state)")
        #expect(try Self.dockPicture(browser, "medium") != beforeTry, "the tried value was not drawn")
        #expect(
            try rig.weaver(["vars", "get", "coffee"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
                .isEmpty, "trying wrote the variable")

        // The sample-data switch redraws the dock and says so.
        let generationBeforeSample = try Self.generation(browser)
        // The dock scrolls on its own below the sticky bars: bring the switch to its middle first.
        _ = try browser.execute(
            "document.getElementById('sample-data').scrollIntoView({ block: 'center' }); return true;")
        try browser.click(try #require(try browser.find("#sample-data")))
        try Self.waitForRedraw(browser, after: generationBeforeSample, "switching to sample data")
        let sampled = try browser.execute("return document.getElementById('dock-state').textContent") as? String ?? ""
        #expect(sampled.contains("with sample data"), "\(sampled)")
        try browser.click(try #require(try browser.find("#sample-data")))

        // Screenshots for docs/editor.md: dark and light at 1280×800 and at a phone's width.
        if let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] {
            _ = try browser.execute(
                "window.scrollTo(0, 0); document.activeElement && document.activeElement.blur(); return true;")
            for (scheme, size) in [
                ("dark", (1280, 800)), ("light", (1280, 800)), ("dark", (390, 844)), ("light", (390, 844)),
            ] {
                try browser.devTools(
                    "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
                try browser.setWindowSize(width: size.0, height: size.1)
                _ = try browser.waitUntil(5, "return window.outerWidth === \(size.0)")
                _ = try browser.waitUntil(5, Self.twoFramesPainted)
                let shot = try browser.screenshotPNG()
                try shot.write(to: URL(fileURLWithPath: dir).appendingPathComponent("editor-\(scheme)-\(size.0).png"))
            }
        }
    }
}
