import Hummingbird

/// One route of an area: its method, its path and the area's handler.
struct Route {
    typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response

    let method: HTTPRequest.Method
    let path: RouterPath
    let handler: Handler

    init(_ method: HTTPRequest.Method, _ path: RouterPath, _ handler: @escaping Handler) {
        (self.method, self.path, self.handler) = (method, path, handler)
    }
}

extension Routes {
    /// Every page and API route of the areas, as data in one table: the whole HTTP surface is read
    /// here, each area's file holds its handlers (named methods of its route collection), and the
    /// areas no longer each repeat the same registering code. Registered in this order.
    var table: [Route] {
        let home = HomeRoutes(server: server)
        let noise = NoiseRoutes(server: server)
        let board = BoardRoutes(server: server)
        let calibrate = CalibrateRoutes(server: server)
        let night = NightRoutes(server: server)
        let editor = EditorRoutes(server: server)
        let designs = DesignAPIRoutes(server: server)
        let assistant = AssistantRoutes(server: server)
        let library = LibraryRoutes(server: server)
        let imports = ImportRoutes(server: server)
        let explore = ExploreRoutes(server: server)
        let data = DataRoutes(server: server)
        let reminders = ReminderSourceRoutes(server: server)
        let steps = StepsRoutes(server: server)
        let (calendarFiles, reminderFiles) = (SourceFileRoutes.calendars(server), SourceFileRoutes.reminders(server))
        return [
            // HomeRoutes
            Route(.get, "/", home.page),
            Route(.get, "/widgets/:file", home.picture),
            Route(.get, "/api/designs", home.designs),
            Route(.post, "/api/designs/:id/tap", home.tap),
            // The notice's Undo after a tap that can be taken back (a completed reminder).
            Route(.post, "/api/undo/:token", home.undo),
            // NoiseRoutes
            Route(.get, "/noise", noise.page),
            // A share link names `/share` (ShareLinks' default address); the page reads its fragment.
            Route(.get, "/share", noise.page),
            Route(.get, "/api/mixer", noise.state),
            Route(.post, "/api/mixer", noise.change),
            // BoardRoutes
            Route(.get, "/api/board", board.state),
            Route(.post, "/api/board/add", board.add),
            Route(.post, "/api/board/remove", board.remove),
            Route(.post, "/api/board/play", board.play),
            Route(.post, "/api/board/pause", board.pause),
            Route(.post, "/api/presets", board.savePreset),
            Route(.post, "/api/presets/:id/rename", board.renamePreset),
            Route(.delete, "/api/presets/:id", board.deletePreset),
            Route(.post, "/api/share/open", board.openLink),
            Route(.post, "/api/share/play", board.playLink),
            // CalibrateRoutes
            Route(.get, "/noise/calibrate", calibrate.page),
            Route(.get, "/noise/calibrate/chart.svg", calibrate.chart),
            Route(.get, "/api/hearing/calibration", calibrate.state),
            Route(.post, "/api/hearing/calibration/start", calibrate.start),
            Route(.post, "/api/hearing/calibration/gain", calibrate.gain),
            Route(.post, "/api/hearing/calibration/accept", calibrate.accept),
            Route(.post, "/api/hearing/calibration/stop", calibrate.stop),
            // NightRoutes
            Route(.get, "/api/night", night.state),
            Route(.post, "/api/night/timer", night.setTimer),
            Route(.post, "/api/night/timer/add", night.addToTimer),
            Route(.post, "/api/night/schedules", night.addSchedule),
            Route(.post, "/api/night/schedules/:id/remove", night.removeSchedule),
            Route(.post, "/api/night/schedules/:id/enabled", night.enableSchedule),
            // EditorRoutes
            Route(.get, "/editor", editor.chooserPage),
            Route(.get, "/editor/:id", editor.editorPage),
            Route(.get, "/static/symbols.ttf", editor.font),
            Route(.get, "/api/swatches", editor.swatches),
            // DesignAPIRoutes
            Route(.get, "/api/designs/:id", designs.design),
            Route(.put, "/api/designs/:id", designs.saveDesign),
            Route(.post, "/api/designs", designs.createDesign),
            // Drafts: the page's unsaved design, kept here so a reload finds it.
            Route(.get, "/api/drafts/:id", designs.draft),
            Route(.put, "/api/drafts/:id", designs.replaceDraft),
            Route(.delete, "/api/drafts/:id", designs.discardDraft),
            Route(.post, "/api/drafts/:id/edit", designs.editDraft),
            // Trying a preview button: what it would do to the draft's variables, nothing written.
            Route(.post, "/api/drafts/:id/try", designs.tryDraft),
            Route(.post, "/api/drafts/:id/render", designs.renderDraft),
            Route(.post, "/api/images", designs.addImage),
            // Theme from photo: the picture's colours and the accent and background that suit it.
            Route(.get, "/api/images/:name/theme", designs.imageTheme),
            // A picture as stored, for the Editor's crop rectangles (the browser decodes it in an img).
            Route(.get, "/api/images/:name", designs.image),
            Route(.get, "/api/variables", designs.variables),
            // Pro from the page, for a browser-only user: what `weaver pro unlock` does.
            Route(.post, "/api/pro/unlock", designs.unlockPro),
            Route(.get, "/api/symbols", designs.symbols),
            // AssistantRoutes
            // Which model the boxes would ask, read from the store; nothing is contacted.
            Route(.get, "/api/assistant", assistant.settings),
            Route(.post, "/api/drafts/:id/describe", assistant.describe),
            Route(.post, "/api/drafts/:id/ask", assistant.ask),
            // FieldsRoute
            Route(.get, "/api/fields", FieldsRoute().fields),
            // LibraryRoutes
            Route(.get, "/library", library.page),
            Route(.get, "/api/library", library.list),
            Route(.post, "/api/library/add", library.add),
            Route(.post, "/api/library/:id/default", library.makeDefault),
            Route(.post, "/api/library/:id/duplicate", library.duplicate),
            Route(.post, "/api/library/:id/rename", library.rename),
            Route(.delete, "/api/library/:id", library.delete),
            Route(.post, "/api/library/:id/restore", library.restore),
            // ImportRoutes
            Route(.get, "/api/export", imports.export),
            Route(.post, "/api/import", imports.review),
            Route(.post, "/api/import/:review", imports.importReviewed),
            Route(.get, "/api/import/:review/:picture", imports.reviewPicture),
            // ExploreRoutes
            Route(.get, "/explore", explore.page),
            // `/api/explore/TEMPLATE.svg?family=F&remix=R`: the starter (or its remix) drawn as a draft.
            Route(.get, "/api/explore/:file", explore.picture),
            // DataRoutes
            Route(.get, "/data", data.page),
            // Weather
            Route(.post, "/api/data/weather/location", data.setLocation),
            Route(.post, "/api/data/weather/refresh", data.refreshWeather),
            // Auto-refresh on or off: the call `weaver weather autorefresh enable|disable` makes.
            Route(.post, "/api/data/weather/autorefresh", data.setAutorefresh),
            // Calendar
            Route(.post, "/api/data/calendar", data.addCalendar),
            Route(.post, "/api/data/calendar/upload", calendarFiles.upload),
            Route(.delete, "/api/data/calendar/:id", calendarFiles.remove),
            Route(.post, "/api/data/calendar/refresh", data.refreshCalendars),
            // ReminderSourceRoutes
            Route(.post, "/api/data/reminders", reminders.addSource),
            Route(.post, "/api/data/reminders/upload", reminderFiles.upload),
            Route(.delete, "/api/data/reminders/:id", reminderFiles.remove),
            Route(.post, "/api/data/reminders/refresh", reminders.refresh),
            // StepsRoutes
            Route(.get, "/data/steps", steps.page),
            Route(.post, "/api/data/steps/import", steps.importSteps),
            Route(.post, "/api/data/steps/goal", steps.setGoal),
            Route(.post, "/api/data/steps/pin", steps.pinDay),
        ]
    }
}
