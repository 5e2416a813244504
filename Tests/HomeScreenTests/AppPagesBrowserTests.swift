import Foundation
import TestSupport
import Testing

/// Explore, the Library with its Import Review, the Data page and Steps History in a real headless
/// Chromium against a real `weaver serve`: what a person does, checked in the page and in the
/// store (through the `weaver` verbs). Each page is photographed in dark and light when
/// `WIDGETWEAVER_SCREENSHOT_DIR` is set (docs/app.md shows them).
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct AppPagesBrowserTests {
    static func shoot(_ browser: WebDriver, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] else { return }
        for scheme in ["dark", "light"] {
            try browser.devTools(
                "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
            // Let lazy pictures load before the photograph.
            _ = try browser.waitUntil(10, "return [...document.images].every(i => i.complete)")
            try browser.screenshotPNG().write(
                to: URL(fileURLWithPath: dir).appendingPathComponent("\(name)-\(scheme).png"))
        }
        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
    }

    static func visibleCards(_ browser: WebDriver) throws -> [String] {
        try browser.execute(
            """
            return [...document.querySelectorAll('#library [data-design-id]')].filter(c => !c.hidden).map(c => \
            c.dataset.name)
            """
        ) as? [String] ?? []
    }

    static func click(_ browser: WebDriver, _ css: String) throws {
        let element = try #require(try browser.find(css), "no \(css)")
        try browser.click(element)
    }

    @Test func exploreAddsToTheLibraryAndHomeAndTheLibraryActionsWork() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }

        // Explore: a template, then one of its remixes.
        try browser.navigate(rig.url + "explore")
        #expect(try browser.waitUntil(10, "return document.querySelectorAll('.template-card').length >= 10"))
        // Pictures load lazily: bring one into view first.
        _ = try browser.execute(
            """
            document.querySelector('[data-template=\"classic\"] .explore-small').scrollIntoView({block: \
            'center'}); return true
            """
        )
        #expect(
            try browser.waitUntil(
                20,
                """
                const i = document.querySelector('[data-template=\"classic\"] .explore-small'); return i.complete \
                && i.naturalWidth > 0
                """
            ),
            "the renderer's picture did not load")
        try Self.shoot(browser, "explore")
        try Self.click(browser, #"button[data-add-template="classic"]:not([data-add-remix])"#)
        #expect(
            try browser.waitUntil(
                10, "return /Added Classic to the Library/.test(document.querySelector('#notice-text').textContent)"))
        // The message is shown once: the app bar's live line does not repeat the notice.
        #expect(try browser.execute("return document.querySelector('#live').textContent") as? String == "")
        try Self.click(browser, #"button[data-add-template="classic"][data-add-remix="midnight"]"#)
        #expect(try browser.waitUntil(10, "return /Midnight/.test(document.querySelector('#notice-text').textContent)"))
        // A seeded remix (`weaver remix … --seed S --save 2`): added, then taken out again so the
        // Library steps below keep their free-tier room.
        try Self.click(browser, #"button[data-add-template="classic"][data-add-seed][data-add-variant="2"]"#)
        #expect(
            try browser.waitUntil(
                10, "return /Added Classic \\(Remix 2\\)/.test(document.querySelector('#notice-text').textContent)"))
        #expect(try LibraryAPITests.list(rig).contains { $0["name"] as? String == "Classic (Remix 2)" })
        #expect(try rig.weaver(["designs", "delete", "Classic (Remix 2)"]).status == 0)
        #expect(try rig.weaver(["designs", "trash", "--empty"]).status == 0)
        let rows = try LibraryAPITests.list(rig)
        #expect(Set(rows.compactMap { $0["name"] as? String }) == ["Classic", "Classic – Midnight"], "\(rows)")
        let classicID = try #require(rows.first { $0["name"] as? String == "Classic" }?["id"] as? String)

        // Home shows it.
        try browser.navigate(rig.url)
        #expect(
            try browser.waitUntil(10, "return !!document.querySelector('.widget[data-design-id=\"\(classicID)\"]')"))

        // Library: both, searchable; set default, duplicate, delete and undo.
        try browser.navigate(rig.url + "library")
        #expect(try browser.waitUntil(10, "return document.querySelectorAll('#library [data-design-id]').length === 2"))
        #expect(
            try browser.execute("return document.querySelector('#library-cap').textContent") as? String
                == "2 of 3 designs; Pro: unlimited")
        let search = try #require(try browser.find("#library-search"))
        try browser.sendKeys(search, "midnight")
        #expect(
            try browser.waitUntil(
                5,
                "return [...document.querySelectorAll('#library [data-design-id]')].filter(c => !c.hidden).length === 1"
            ))
        #expect(try Self.visibleCards(browser) == ["Classic – Midnight"])
        let remixCard = #"#library [data-name="Classic – Midnight"]"#
        try Self.click(browser, "\(remixCard) button[data-act=\"default\"]")
        #expect(try browser.waitUntil(10, "return !!document.querySelector('\(remixCard) .default-pill')"))
        #expect(try rig.weaver(["designs", "default"]).stdoutText.contains("Classic – Midnight"))
        try Self.click(browser, "#library [data-name=\"Classic\"] button[data-act=\"duplicate\"]")
        #expect(try browser.waitUntil(10, "return !!document.querySelector('#library [data-name=\"Classic (Copy)\"]')"))
        #expect(
            try browser.execute("return document.querySelector('#library-cap').textContent") as? String
                == "3 of 3 designs; Pro: unlimited")
        try Self.shoot(browser, "library")
        try Self.click(browser, "#library [data-name=\"Classic (Copy)\"] button[data-act=\"delete\"]")
        #expect(
            try browser.waitUntil(
                10,
                """
                return !document.querySelector('#library [data-name=\"Classic (Copy)\"]') && \
                !document.querySelector('#undo-delete').hidden
                """
            ))
        // The notice kept across the reload is shown once: not also in the app bar's live line.
        #expect(try browser.execute("return document.querySelector('#notice-text').textContent") as? String != "")
        #expect(try browser.execute("return document.querySelector('#live').textContent") as? String == "")
        #expect(try LibraryAPITests.list(rig).count == 2)
        try Self.click(browser, "#undo-delete")
        #expect(try browser.waitUntil(10, "return !!document.querySelector('#library [data-name=\"Classic (Copy)\"]')"))
        #expect(try LibraryAPITests.list(rig).count == 3)
    }

    @Test func anExportedDesignIsImportedIntoASecondStoreThroughTheReview() throws {
        // Store A: two designs, exported as the Library's "Export all" link downloads them.
        let first = try ServeRig()
        defer { first.stop() }
        _ = try EditorAPITests.makeDesign(first, name: "Morning")
        _ = try EditorAPITests.makeDesign(first, name: "Evening")
        try first.startServer()
        let download = try RawHTTP.send(port: first.port, path: "/api/export?ids=all")
        #expect(download.status == 200)
        let file = first.store.deletingLastPathComponent().appendingPathComponent("designs.wwdesign")
        try Data(download.body).write(to: file)

        // Store B: the file goes through the Import Review with one of the two ticked.
        let second = try ServeRig()
        defer { second.stop() }
        let browser = try second.startServerAndBrowser()
        defer { browser.quit() }
        try browser.navigate(second.url + "library")
        let picker = try #require(try browser.find("#import-file"))
        try browser.sendKeys(picker, file.path)
        #expect(
            try browser.waitUntil(
                10,
                """
                return !document.querySelector('#import-review').hidden && \
                document.querySelectorAll('#import-review li').length === 2
                """
            ))
        #expect(
            try browser.execute("return document.querySelector('.review-file').textContent") as? String
                == "designs.wwdesign · 2 designs")
        #expect(
            try browser.waitUntil(
                20,
                """
                return [...document.querySelectorAll('#import-review img')].every(i => i.complete && \
                i.naturalWidth > 0)
                """
            ),
            "the review's pictures did not load")
        try Self.shoot(browser, "import-review")
        try Self.click(browser, "#select-none")
        #expect(try browser.execute("return document.querySelector('#import-selected').disabled") as? Bool == true)
        let names =
            try browser.execute("return [...document.querySelectorAll('#import-review li b')].map(b => b.textContent)")
            as? [String] ?? []
        let evening = try #require(names.firstIndex(of: "Evening"))
        try Self.click(browser, "#pick-\(evening)")
        try Self.click(browser, "#import-selected")
        #expect(
            try browser.waitUntil(
                10,
                """
                return /Imported 1 design. Skipped 1 \\(not \
                selected\\)./.test(document.querySelector('#notice-text').textContent)
                """
            ))
        #expect(try LibraryAPITests.list(second).compactMap { $0["name"] as? String } == ["Evening"])
        #expect(try browser.waitUntil(10, "return document.querySelectorAll('#library [data-design-id]').length === 1"))

        // Past the free tier: three more into two free slots is blocked with the warning.
        let many = ImportFixtures.package(specs: [
            ImportFixtures.spec("One"), ImportFixtures.spec("Two"), ImportFixtures.spec("Three"),
        ])
        let manyFile = second.store.deletingLastPathComponent().appendingPathComponent("three.wwdesign")
        try many.write(to: manyFile)
        try browser.sendKeys(try #require(try browser.find("#import-file")), manyFile.path)
        #expect(try browser.waitUntil(10, "return document.querySelectorAll('#import-review li').length === 3"))
        #expect(
            try browser.execute("return document.querySelectorAll('#import-review input:checked').length") as? Int == 2,
            "the default fills the free slots")
        try Self.click(browser, "#select-all")
        #expect(try browser.execute("return document.querySelector('#import-selected').disabled") as? Bool == true)
        let warning =
            try browser.execute("return document.querySelector('#review-warning').textContent") as? String ?? ""
        #expect(
            warning.contains("3 designs selected but the free tier has 2 slots left")
                && warning.contains("weaver pro unlock"), "\(warning)")
        try Self.shoot(browser, "import-review-cap")
        #expect(try LibraryAPITests.list(second).count == 1)
    }

    @Test func dataSetUpFillsTheWidgetsAndTheStepsHistory() throws {
        let meteo = try DataFixtures.openMeteo()
        defer { meteo.stop() }
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "weather"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "next-up"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "reminders"]).status == 0)
        let rows = try LibraryAPITests.list(rig)
        let remindersID = try #require(rows.first { $0["name"] as? String == "Reminders" }?["id"] as? String, "\(rows)")
        let weatherID = try #require(rows.first { $0["template"] as? String == "weather" }?["id"] as? String)
        let nextUpID = try #require(
            rows.first { $0["template"] as? String == "nextUpCalendar" }?["id"] as? String, "\(rows)")
        let browser = try rig.startServerAndBrowser(environment: ["WIDGETWEAVER_OPEN_METEO_URL": meteo.baseURL])
        defer { browser.quit() }
        func label(_ id: String) throws -> String {
            try browser.execute(
                """
                const i = document.querySelector('.widget[data-design-id=\"\(id)\"][data-family=\"small\"] img'); \
                return i ? i.getAttribute('aria-label') : ''
                """
            ) as? String ?? ""
        }
        try browser.navigate(rig.url)
        #expect(
            try browser.waitUntil(10, "return !!document.querySelector('.widget[data-design-id=\"\(weatherID)\"]')"))
        let weatherBefore = try label(weatherID)

        // Weather by name, against the local Open-Meteo.
        try browser.navigate(rig.url + "data")
        try browser.sendKeys(try #require(try browser.find("#place")), "Dublin\u{E007}")
        #expect(
            try browser.waitUntil(
                15,
                """
                return /Dublin/.test(document.querySelector('#weather-location').textContent) && /min ago|0 \
                min/.test(document.querySelector('#weather-fetched').textContent)
                """
            ),
            "the location was not set and fetched")
        // Calendar: an .ics file.
        let ics = rig.store.deletingLastPathComponent().appendingPathComponent("team.ics")
        try CalendarFixture.ics().write(to: ics)
        try browser.sendKeys(try #require(try browser.find("#calendar-file")), ics.path)
        #expect(try browser.waitUntil(15, "return !!document.querySelector('[data-calendar-id=\"team\"]')"))
        #expect(
            try browser.execute("return document.querySelector('[data-calendar-id=\"team\"] .event-count').textContent")
                as? String == "2")
        // Steps: a CSV.
        let csv = rig.store.deletingLastPathComponent().appendingPathComponent("steps.csv")
        try StepsFixture.csv().write(to: csv)
        try browser.sendKeys(try #require(try browser.find("#steps-file")), csv.path)
        #expect(
            try browser.waitUntil(
                15, "return /120 days recorded/.test(document.querySelector('#steps-summary').textContent)"))
        // Reminders: a todo.txt by its path (the person's own file, which the widget completes in).
        let todo = rig.store.deletingLastPathComponent().appendingPathComponent("todo.txt")
        try Data(TodoFixture.text().utf8).write(to: todo)
        let remindersBefore = try label(remindersID)
        try browser.sendKeys(
            try #require(try browser.find("#reminders-source input[name=source]")), todo.path + "\u{E007}")
        #expect(try browser.waitUntil(15, "return !!document.querySelector('[data-reminders-id=\"todo\"]')"))
        #expect(
            try browser.execute("return document.querySelector('[data-reminders-id=\"todo\"] .task-count').textContent")
                as? String == "3")
        #expect(
            try browser.execute("return document.querySelector('#notice-text').textContent") as? String
                == "Added todo: 3 tasks.")
        // The message is shown once: the app bar's live line stays empty on this page.
        #expect(try browser.execute("return document.querySelector('#live').textContent") as? String == "")
        // "Weekend" stays on the line of its input.
        #expect(
            try browser.execute(
                """
                const l = document.querySelector('label[for=goal-weekend]').getBoundingClientRect(), i = \
                document.querySelector('#goal-weekend').getBoundingClientRect(); return Math.abs((l.top + \
                l.bottom) - (i.top + i.bottom)) < 4
                """
            ) as? Bool == true)
        try Self.shoot(browser, "data")

        // The widgets on Home fill.
        try browser.navigate(rig.url)
        #expect(try browser.waitUntil(10, "return !!document.querySelector('.widget[data-design-id=\"\(nextUpID)\"]')"))
        let weatherAfter = try label(weatherID)
        #expect(
            weatherAfter != weatherBefore && weatherAfter.contains("°"),
            "weather widget: '\(weatherBefore)' then '\(weatherAfter)'")
        let nextUp = try label(nextUpID)
        #expect(nextUp.contains("Design review"), "Next Up: \(nextUp)")
        let reminders = try label(remindersID)
        #expect(reminders.contains("Renew passport"), "Reminders: '\(remindersBefore)' then '\(reminders)'")

        // Steps History: the charts drawn, the insights filled.
        try browser.navigate(rig.url + "data/steps")
        #expect(
            try browser.waitUntil(
                10,
                """
                return document.querySelectorAll('#steps-timeline rect.bar').length === 90 && \
                document.querySelectorAll('#steps-heatmap rect.recorded').length >= 120
                """
            ))
        #expect(
            try browser.execute("return document.querySelector('#steps-month').getBoundingClientRect().height")
                as? Double ?? 0 > 100)
        #expect(
            try browser.execute("return document.querySelector('[data-insight=\"avg7\"] b').textContent") as? String
                != "–")
        try Self.shoot(browser, "steps-history")
    }
}
