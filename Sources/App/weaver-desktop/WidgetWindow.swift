import CGtk
import DesktopWidgets
import Foundation
import WidgetActions
import WidgetDesign
import WidgetInputs
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// One widget on one monitor: an undecorated, transparent, unfocusable window on the desktop
/// layer, drawn by the renderer straight onto GTK's Cairo context (no PNG in between). Buttons
/// work as `weaver tap` does; the right button opens the widget's menu.
final class WidgetWindow {
    unowned let host: DesktopHost
    var pinned: PinnedWidget
    let monitor: Int
    let window: UnsafeMutablePointer<GtkWidget>
    private var gtkWindow: UnsafeMutablePointer<GtkWindow> { ww_gtk_window(window) }
    private(set) var layout: WidgetLayout?
    private var images: [String: DecodedImage] = [:]
    /// The design drawn (for the menu's "Edit in browser").
    private var designID: UUID?
    /// The button held down, drawn pressed until the release.
    private var pressedActionID: String?
    /// What the keyboard is on (Tab moves, Return or Space presses), drawn with a ring: one of the
    /// layout's buttons, or the offer's Undo (after the buttons in the Tab order while it shows).
    private enum KeyboardTarget: Equatable {
        case action(String)
        case undo
    }
    private var keyboardTarget: KeyboardTarget?
    /// Dragging after "Move": where the pointer and the window were when the drag began (root coordinates).
    private var moveMode = false
    private var drag: (pointerX: Double, pointerY: Double, windowX: Int, windowY: Int)?
    private var menu: UnsafeMutablePointer<GtkWidget>?
    private var lastProblem: String?
    private var isClosed = false
    /// Issue 41.5: the second click of a double-click on a reminder row landed on the row that slid
    /// into its place once the list redrew, completing it too. Presses on reminder rows are ignored
    /// until this moment (`DispatchTime` nanoseconds): `rowsQuietNanoseconds` after a completion is
    /// pressed, and again after it is written and after an Undo.
    private var rowsQuietUntil: UInt64 = 0
    static let rowsQuietNanoseconds: UInt64 = 600_000_000
    /// A line over the widget's foot after a press that can be taken back (with its Undo button), or
    /// after an Undo refused (without); gone after `offerMilliseconds`.
    private var offer: (text: String, undo: WidgetActionUndo?)?
    /// Counts offers, so the timer of one replaced meanwhile leaves the new one.
    private var offerSerial = 0
    static let offerMilliseconds: UInt32 = 8_000
    /// The press began on the Undo button.
    private var undoPressed = false

    init(host: DesktopHost, pinned: PinnedWidget, monitor: Int) {
        self.host = host
        self.pinned = pinned
        self.monitor = monitor
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        let win = ww_gtk_window(window)
        gtk_window_set_title(win, "WidgetWeaver desktop widget \(pinned.id)")
        gtk_window_set_decorated(win, 0)
        gtk_window_set_resizable(win, 0)
        gtk_widget_set_app_paintable(window, 1)
        // Transparent corners need a visual with alpha (ARGB); without a compositor the X server
        // shows those pixels as black, as for every other desktop-widget tool.
        if let visual = gdk_screen_get_rgba_visual(gtk_widget_get_screen(window)) {
            gtk_widget_set_visual(window, visual)
        }
        if host.usesLayerShell {
            gtk_layer_init_for_window(win)
            gtk_layer_set_layer(win, GTK_LAYER_SHELL_LAYER_BOTTOM)
            gtk_layer_set_namespace(win, "widgetweaver")
            // Keyboard focus only when the widget is clicked (for its buttons), never taken
            // otherwise; compositors before layer-shell version 4 have no such mode: none then.
            gtk_layer_set_keyboard_mode(
                win,
                gtk_layer_get_protocol_version() >= 4
                    ? GTK_LAYER_SHELL_KEYBOARD_MODE_ON_DEMAND : GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
            gtk_layer_set_exclusive_zone(win, 0)
        } else {
            // X11 (and Wayland without layer-shell): a desktop-type window, also asked to stay
            // below, on every workspace and out of the taskbar and pager, for window managers that
            // treat desktop windows as the wallpaper's.
            gtk_window_set_type_hint(win, GDK_WINDOW_TYPE_HINT_DESKTOP)
            gtk_window_set_keep_below(win, 1)
            gtk_window_set_skip_taskbar_hint(win, 1)
            gtk_window_set_skip_pager_hint(win, 1)
            gtk_window_stick(win)
        }
        // Never focused by appearing; focusable for keyboard use of its buttons (Tab, Return).
        gtk_window_set_focus_on_map(win, 0)
        gtk_widget_add_events(
            window,
            Int32(
                GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
                    | GDK_POINTER_MOTION_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue
                    | GDK_KEY_PRESS_MASK.rawValue | GDK_FOCUS_CHANGE_MASK.rawValue))
        let me = Unmanaged.passUnretained(self).toOpaque()
        connect("draw", unsafeBitCast(Self.onDraw, to: GCallback.self), me)
        connect("button-press-event", unsafeBitCast(Self.onButton, to: GCallback.self), me)
        connect("button-release-event", unsafeBitCast(Self.onButton, to: GCallback.self), me)
        connect("motion-notify-event", unsafeBitCast(Self.onMotion, to: GCallback.self), me)
        connect("key-press-event", unsafeBitCast(Self.onKey, to: GCallback.self), me)
        connect("focus-out-event", unsafeBitCast(Self.onFocusOut, to: GCallback.self), me)
        connect("notify::scale-factor", unsafeBitCast(Self.onScaleChanged, to: GCallback.self), me)
    }

    private func connect(_ signal: String, _ callback: GCallback, _ data: UnsafeMutableRawPointer) {
        g_signal_connect_data(UnsafeMutableRawPointer(window), signal, callback, data, nil, GConnectFlags(rawValue: 0))
    }

    func close() {
        isClosed = true
        if let menu { gtk_widget_destroy(menu) }
        menu = nil
        gtk_widget_destroy(window)
    }

    var scaleFactor: Int { max(1, Int(gtk_widget_get_scale_factor(window))) }

    /// Lays the widget out with the store as it is now; shows or redraws the window only when the
    /// layout (or its pictures) changed.
    func update(design: Result<WidgetSpec, any Error>, now: Date) {
        let spec: WidgetSpec
        switch design {
        case .success(let s): spec = s
        case .failure(let error):
            let problem =
                """
                widget \(pinned.id) (design \(pinned.design)): \(error); not shown (remove it with 'weaver desktop \
                remove \(pinned.id)')
                """
            if problem != lastProblem { warn(problem) }
            lastProblem = problem
            gtk_widget_hide(window)
            layout = nil
            return
        }
        lastProblem = nil
        let inputs = RenderInputs.gather(
            for: spec, root: host.root, now: now, timeZone: .current, locale: .current,
            appearance: .dark, warn: { warn($0) })
        let next = host.renderer.layout(design: spec, family: pinned.family, scale: scaleFactor, inputs: inputs)
        designID = pinned.isNoiseMachine ? nil : spec.id
        let imagesChanged =
            Set(inputs.images.keys) != Set(images.keys)
            || inputs.images.contains { name, image in
                guard let old = images[name] else { return true }
                return old.pixelWidth != image.pixelWidth || old.pixelHeight != image.pixelHeight
            }
        images = inputs.images
        guard next != layout || imagesChanged else { return }
        let firstTime = layout == nil
        layout = next
        if firstTime || Int(next.width) != requestedSize.width || Int(next.height) != requestedSize.height {
            requestedSize = (Int(next.width.rounded()), Int(next.height.rounded()))
            gtk_widget_set_size_request(window, Int32(requestedSize.width), Int32(requestedSize.height))
            gtk_window_resize(gtkWindow, Int32(requestedSize.width), Int32(requestedSize.height))
            place()
        }
        if !gtk_widget_get_visible(window).bool { gtk_widget_show(window) }
        gtk_widget_queue_draw(window)
    }

    private var requestedSize = (width: 0, height: 0)

    /// Puts the window where `pinned.placement` says on its monitor.
    func place() {
        let size = requestedSize
        if host.usesLayerShell {
            let win = gtkWindow
            if let m = gdk_display_get_monitor(host.display, Int32(monitor)) { gtk_layer_set_monitor(win, m) }
            let edges: [(GtkLayerShellEdge, Bool, Int)]
            switch pinned.placement {
            case .at(let x, let y):
                edges = [
                    (GTK_LAYER_SHELL_EDGE_LEFT, true, x), (GTK_LAYER_SHELL_EDGE_TOP, true, y),
                    (GTK_LAYER_SHELL_EDGE_RIGHT, false, 0), (GTK_LAYER_SHELL_EDGE_BOTTOM, false, 0),
                ]
            case .anchor(let a, let m):
                let left = a == .topLeft || a == .bottomLeft, right = a == .topRight || a == .bottomRight
                let top = a == .topLeft || a == .topRight, bottom = a == .bottomLeft || a == .bottomRight
                edges = [
                    (GTK_LAYER_SHELL_EDGE_LEFT, left, m), (GTK_LAYER_SHELL_EDGE_RIGHT, right, m),
                    (GTK_LAYER_SHELL_EDGE_TOP, top, m), (GTK_LAYER_SHELL_EDGE_BOTTOM, bottom, m),
                ]
            }
            for (edge, anchored, margin) in edges {
                gtk_layer_set_anchor(win, edge, anchored ? 1 : 0)
                gtk_layer_set_margin(win, edge, anchored ? Int32(margin) : 0)
            }
            return
        }
        let geometry = host.monitorGeometry(monitor)
        let origin = pinned.placement.origin(widgetSize: size, monitorSize: (Int(geometry.width), Int(geometry.height)))
        gtk_window_move(gtkWindow, geometry.x + Int32(origin.x), geometry.y + Int32(origin.y))
    }

    // MARK: Drawing

    func draw(_ cr: OpaquePointer) {
        guard var layout else { return }
        layout.elements += offerElements()
        host.renderer.draw(layout, onContext: cr, images: images)
        if let id = pressedActionID, let action = layout.actions.first(where: { $0.id == id }) {
            // Pressed: the button darkened, as a held button is on the home screen.
            let r = action.rect, radius = min(12, min(r.width, r.height) / 2)
            cairo_new_path(cr)
            cairo_arc(cr, r.x + r.width - radius, r.y + radius, radius, -.pi / 2, 0)
            cairo_arc(cr, r.x + r.width - radius, r.y + r.height - radius, radius, 0, .pi / 2)
            cairo_arc(cr, r.x + radius, r.y + r.height - radius, radius, .pi / 2, .pi)
            cairo_arc(cr, r.x + radius, r.y + radius, radius, .pi, 1.5 * .pi)
            cairo_close_path(cr)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.3)
            cairo_fill(cr)
        }
        let ringed: Rect? =
            switch keyboardTarget {
            case .action(let id): layout.actions.first { $0.id == id }?.rect
            case .undo: offerGeometry?.button
            case nil: nil
            }
        if let r = ringed {
            cairo_new_path(cr)
            cairo_rectangle(cr, r.x - 2, r.y - 2, r.width + 4, r.height + 4)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
        }
        if moveMode {
            cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
            cairo_set_line_width(cr, 2)
            cairo_set_dash(cr, [6, 4], 2, 0)
            cairo_rectangle(cr, 1, 1, layout.width - 2, layout.height - 2)
            cairo_stroke(cr)
        }
        if host.logsDraws { warn("drew widget \(pinned.id) on monitor \(monitor)", prefix: "weaver desktop: ") }
    }

    // MARK: Undo

    /// The offer's line and its Undo button, in the widget's points: a capsule over the foot.
    private var offerGeometry: (bar: Rect, button: Rect?)? {
        guard let layout, let offer else { return nil }
        let height = 30.0, margin = 8.0
        let bar = Rect(x: margin, y: layout.height - margin - height, width: layout.width - 2 * margin, height: height)
        let button = offer.undo == nil ? nil : Rect(x: bar.maxX - 64, y: bar.minY, width: 64, height: height)
        return (bar, button)
    }

    private func offerElements() -> [LayoutElement] {
        guard let geometry = offerGeometry, let offer else { return [] }
        let bar = geometry.bar, button = geometry.button
        let textHeight = 17.0, y = bar.midY - textHeight / 2
        let textEnd = button?.minX ?? bar.maxX - 12
        var elements = [
            LayoutElement(
                kind: .shape, rect: bar,
                primitive: .shape(
                    fill: .solid(RGBA(0.11, 0.11, 0.13)), cornerRadius: bar.height / 2,
                    stroke: RGBA(1, 1, 1, 0.18), strokeWidth: 1)),
            LayoutElement(
                kind: .text, rect: Rect(x: bar.minX + 14, y: y, width: textEnd - bar.minX - 20, height: textHeight),
                primitive: .text(TextRun(text: offer.text, sizePoints: 13, colour: RGBA(1, 1, 1)))),
        ]
        if let button {
            elements.append(
                LayoutElement(
                    kind: .text, rect: Rect(x: button.minX + 12, y: y, width: button.width - 18, height: textHeight),
                    primitive: .text(TextRun(text: "Undo", sizePoints: 13, weight: 600, colour: RGBA(hex: 0x0A84FF)))))
        }
        return elements
    }

    /// Shows `text` over the widget's foot (with an Undo button when `undo` is given) for a while.
    private func show(_ text: String, undo: WidgetActionUndo?) {
        offerSerial += 1
        offer = (text, undo)
        gtk_widget_queue_draw(window)
        if host.logsDraws, let button = offerGeometry?.button {
            warn(
                "widget \(pinned.id): Undo button at \(Int(button.midX)),\(Int(button.midY))",
                prefix: "weaver desktop: ")
        }
        let serial = offerSerial
        MainLoop.after(milliseconds: Self.offerMilliseconds) { [weak self] in
            guard let self, !self.isClosed, self.offerSerial == serial else { return }
            self.offer = nil
            if self.keyboardTarget == .undo { self.keyboardTarget = nil }
            gtk_widget_queue_draw(self.window)
        }
    }

    /// A reminder row pressed within the quiet time after a completion or an Undo.
    private func isQuiet(_ action: ActionArea) -> Bool {
        guard case .completeReminder = action.action else { return false }
        return DispatchTime.now().uptimeNanoseconds < rowsQuietUntil
    }

    private func quietRows() {
        rowsQuietUntil = max(rowsQuietUntil, DispatchTime.now().uptimeNanoseconds + Self.rowsQuietNanoseconds)
    }

    /// Performs a laid-out button; a completed reminder quiets the rows and is offered for Undo.
    private func perform(_ action: ActionArea) {
        guard case .completeReminder = action.action else {
            ActionRunner.perform(action, root: host.root, storeDirectory: host.storeDirectory, widgetID: pinned.id)
            return
        }
        quietRows()
        ActionRunner.perform(action, root: host.root, storeDirectory: host.storeDirectory, widgetID: pinned.id) {
            [weak self] outcome in
            guard let self, !self.isClosed else { return }
            self.quietRows()
            if let undo = outcome?.undo { self.show(undo.description, undo: undo) }
        }
    }

    private func performUndo() {
        guard let undo = offer?.undo else { return }
        offer = nil
        if keyboardTarget == .undo { keyboardTarget = nil }
        gtk_widget_queue_draw(window)
        ActionRunner.undo(undo, root: host.root, storeDirectory: host.storeDirectory, widgetID: pinned.id) {
            [weak self] outcome in
            guard let self, !self.isClosed else { return }
            // The reopened row slides back into the list: the same quiet as after a completion.
            self.quietRows()
            if outcome == nil { self.show("Not undone: the file changed since", undo: nil) }
        }
    }

    // MARK: Pointer

    func button(_ event: GdkEventButton) -> Bool {
        let point = Point(x: event.x, y: event.y)
        switch (event.type, event.button) {
        case (GDK_BUTTON_PRESS, 1) where offerGeometry?.button?.contains(point) == true && !moveMode:
            undoPressed = true
            return true
        case (GDK_BUTTON_RELEASE, 1) where undoPressed:
            undoPressed = false
            if offerGeometry?.button?.contains(point) == true { performUndo() }
            return true
        case (GDK_BUTTON_PRESS, 1):
            if moveMode {
                if host.usesLayerShell {
                    // Wayland tells a surface neither where it is nor where the pointer is on the
                    // screen: the drag follows the pointer inside the surface, from the stored place.
                    let geometry = host.monitorGeometry(monitor)
                    let origin = pinned.placement.origin(
                        widgetSize: requestedSize, monitorSize: (Int(geometry.width), Int(geometry.height)))
                    drag = (event.x, event.y, origin.x, origin.y)
                } else {
                    var x: Int32 = 0, y: Int32 = 0
                    gtk_window_get_position(gtkWindow, &x, &y)
                    drag = (event.x_root, event.y_root, Int(x), Int(y))
                }
                return true
            }
            let pressed = layout?.action(at: point)
            if let pressed, isQuiet(pressed) {
                return true  // the second click of a double-click, or a row still sliding into place
            }
            pressedActionID = pressed?.id
            if pressedActionID != nil { gtk_widget_queue_draw(window) }
            return true
        case (GDK_BUTTON_RELEASE, 1):
            if moveMode {
                finishMove(event)
                return true
            }
            guard let id = pressedActionID else { return true }
            pressedActionID = nil
            gtk_widget_queue_draw(window)
            // Released over the same button: pressed. Elsewhere: cancelled, as buttons do.
            if let action = layout?.action(at: point), action.id == id { perform(action) }
            return true
        case (GDK_BUTTON_PRESS, 3):
            showMenu(event)
            return true
        default:
            return false
        }
    }

    func motion(_ event: GdkEventMotion) {
        if let d = drag {
            if host.usesLayerShell {
                // The surface moves with the pointer, so the pointer stays at the grab point in it:
                // each motion is the step since the last one.
                let x = max(0, d.windowX + Int((event.x - d.pointerX).rounded()))
                let y = max(0, d.windowY + Int((event.y - d.pointerY).rounded()))
                drag = (d.pointerX, d.pointerY, x, y)
                pinned.placement = .at(x: x, y: y)
                place()
            } else {
                gtk_window_move(
                    gtkWindow, Int32(d.windowX + Int((event.x_root - d.pointerX).rounded())),
                    Int32(d.windowY + Int((event.y_root - d.pointerY).rounded())))
            }
            return
        }
        // A press dragged off its button shows it released (and the release will not perform it).
        if let id = pressedActionID, layout?.action(at: Point(x: event.x, y: event.y))?.id != id {
            pressedActionID = nil
            gtk_widget_queue_draw(window)
        }
    }

    private func finishMove(_ event: GdkEventButton) {
        defer {
            moveMode = false
            drag = nil
            gdk_window_set_cursor(gtk_widget_get_window(window), nil)
            gtk_widget_queue_draw(window)
        }
        guard let drag else { return }
        if host.usesLayerShell {
            host.store(widgetID: pinned.id, at: (drag.windowX, drag.windowY))
            return
        }
        let geometry = host.monitorGeometry(monitor)
        let x = drag.windowX + Int((event.x_root - drag.pointerX).rounded()) - Int(geometry.x)
        let y = drag.windowY + Int((event.y_root - drag.pointerY).rounded()) - Int(geometry.y)
        host.store(widgetID: pinned.id, at: (x, y))
    }

    func beginMove() {
        moveMode = true
        if let cursor = gdk_cursor_new_from_name(host.display, "move") {
            gdk_window_set_cursor(gtk_widget_get_window(window), cursor)
            g_object_unref(UnsafeMutableRawPointer(cursor))
        }
        gtk_widget_queue_draw(window)
    }

    // MARK: Keyboard

    func key(_ event: GdkEventKey) -> Bool {
        let undoOffered = offer?.undo != nil
        // Ctrl+Z while the bar offers Undo: as pressing its Undo button.
        if undoOffered, event.state & GDK_CONTROL_MASK.rawValue != 0, event.keyval == 0x7a || event.keyval == 0x5a {
            performUndo()
            return true
        }
        let actions = layout?.actions ?? []
        let targets = actions.map { KeyboardTarget.action($0.id) } + (undoOffered ? [.undo] : [])
        guard !targets.isEmpty else { return false }
        let current = keyboardTarget.flatMap { targets.firstIndex(of: $0) }
        switch Int32(event.keyval) {
        case 0xff09, 0xff53, 0xff54:  // Tab, Right, Down: the next button
            keyboardTarget = targets[current.map { ($0 + 1) % targets.count } ?? 0]
        case 0xfe20, 0xff51, 0xff52:  // Shift+Tab, Left, Up: the previous one
            keyboardTarget = targets[current.map { ($0 + targets.count - 1) % targets.count } ?? targets.count - 1]
        case 0xff0d, 0xff8d, 0x020:  // Return, keypad Enter, Space: press it
            switch keyboardTarget {
            case .undo where current != nil:
                performUndo()
            case .action(let id):
                guard current != nil, let action = actions.first(where: { $0.id == id }) else { return false }
                // A key held down (auto-repeat) or pressed twice: the same quiet as for the pointer.
                if !isQuiet(action) { perform(action) }
            default:
                return false
            }
        case 0xff1b:  // Escape
            keyboardTarget = nil
        default:
            return false
        }
        gtk_widget_queue_draw(window)
        return true
    }

    // MARK: Menu

    private func showMenu(_ event: GdkEventButton) {
        if menu == nil {
            let m = gtk_menu_new()!
            let me = Unmanaged.passUnretained(self).toOpaque()
            for (title, callback) in [
                ("Edit in browser", Self.onEdit), ("Move", Self.onMove), ("Remove from desktop", Self.onRemove),
            ] {
                let item = gtk_menu_item_new_with_label(title)!
                g_signal_connect_data(
                    UnsafeMutableRawPointer(item), "activate", unsafeBitCast(callback, to: GCallback.self), me, nil,
                    GConnectFlags(rawValue: 0))
                gtk_menu_shell_append(ww_gtk_menu_shell(m), item)
            }
            gtk_menu_attach_to_widget(ww_gtk_menu(m), window, nil)
            gtk_widget_show_all(m)
            menu = m
        }
        var copy = event
        withUnsafeMutablePointer(to: &copy) { p in
            p.withMemoryRebound(to: GdkEvent.self, capacity: 1) { gtk_menu_popup_at_pointer(ww_gtk_menu(menu!), $0) }
        }
    }

    func editInBrowser() {
        BrowserEditor.open(designID: designID, root: host.root, storeDirectory: host.storeDirectory)
    }

    // MARK: C callbacks (main thread)

    private static func this(_ data: gpointer?) -> WidgetWindow {
        Unmanaged<WidgetWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let onDraw:
        @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, cr, data in
            if let cr { this(data).draw(cr) }
            return 1
        }
    private static let onButton:
        @convention(c) (
            UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventButton>?, gpointer?
        ) -> gboolean =
            { _, event, data in
                guard let event else { return 0 }
                return this(data).button(event.pointee) ? 1 : 0
            }
    private static let onMotion:
        @convention(c) (
            UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventMotion>?, gpointer?
        ) -> gboolean =
            { _, event, data in
                if let event { this(data).motion(event.pointee) }
                return 0
            }
    private static let onKey:
        @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
            _, event, data in
            guard let event else { return 0 }
            return this(data).key(event.pointee) ? 1 : 0
        }
    private static let onFocusOut:
        @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventFocus>?, gpointer?) -> gboolean =
            { _, _, data in
                let w = this(data)
                if w.keyboardTarget != nil {
                    w.keyboardTarget = nil
                    gtk_widget_queue_draw(w.window)
                }
                return 0
            }
    private static let onScaleChanged: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?, gpointer?) -> Void =
        { _, _, data in
            // A monitor of another scale: lay out again at its scale.
            let w = this(data)
            w.layout = nil
            w.host.scheduleRefresh()
        }
    private static let onEdit: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
        this(data).editInBrowser()
    }
    private static let onMove: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
        this(data).beginMove()
    }
    private static let onRemove: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
        let w = this(data)
        w.host.remove(widgetID: w.pinned.id)
    }
}

extension gboolean {
    var bool: Bool { self != 0 }
}
