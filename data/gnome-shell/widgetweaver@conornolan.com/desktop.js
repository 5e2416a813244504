// WidgetWeaver's desktop widgets inside GNOME Shell: the code both extension forms share.
//
// GNOME has no layer-shell, so the widgets are not windows here: each is a Clutter actor in the
// shell's background group (above the wallpaper, under every window, on every workspace, never in
// Alt-Tab, the overview or the dash, never focused). Pixels come from one `weaver desktop gnome
// feed` process, which draws with the one renderer (as `weaver render --watch` does, woken by the
// same store wake-ups) and writes a PNG per widget and monitor plus a line of JSON on its standard
// output for each change. Presses go back through `weaver tap`, moves and removals through
// `weaver desktop move/remove`: every decision stays in weaver, this file only shows and forwards.
//
// Written once as an ES module (GNOME 45 and later import it as is); `weaver desktop gnome
// install` writes the GNOME 43-44 form by turning its `export` lines into the legacy importer's
// `var`s. The shell's modules arrive as the `shell` argument, so this file imports nothing.

/** The actors' name prefix: tests and `disable` find every widget actor by it. */
export const ACTOR_NAME = 'widgetweaver-widget';

/** Seconds before a feed that died is started again (a broken install must not spin). */
const RESTART_SECONDS = 10;

export class WidgetLayer {
    /**
     * @param {object} shell GLib, Gio, GdkPixbuf, Clutter, Cogl, St, Main, PopupMenu
     * @param {object} metadata the extension's metadata.json (`weaver-executable`: the weaver to run)
     */
    constructor(shell, metadata) {
        this._shell = shell;
        this._weaver = metadata['weaver-executable'] || 'weaver';
        this._widgets = new Map();
        this._feed = null;
        this._cancellable = null;
        this._restartId = 0;
        this._monitorsId = 0;
    }

    enable() {
        const {GLib, Main} = this._shell;
        this._folder = GLib.build_filenamev([GLib.get_user_runtime_dir(), 'widgetweaver-gnome']);
        GLib.mkdir_with_parents(this._folder, 0o700);
        this._monitorsId = Main.layoutManager.connect('monitors-changed', () => this._restartFeed());
        this._startFeed();
    }

    disable() {
        const {GLib, Main} = this._shell;
        if (this._monitorsId)
            Main.layoutManager.disconnect(this._monitorsId);
        this._monitorsId = 0;
        if (this._restartId)
            GLib.source_remove(this._restartId);
        this._restartId = 0;
        this._stopFeed();
        for (const widget of this._widgets.values())
            widget.destroy();
        this._widgets.clear();
    }

    /** `1280x800@1,1920x1080@2`: each monitor's logical size and pixels per point, in the shell's order. */
    monitorSpec() {
        const {Main} = this._shell;
        return Main.layoutManager.monitors.map((m, i) => {
            const scale = Math.min(3, Math.max(1, Math.ceil(this._monitorScale(m, i))));
            return `${m.width}x${m.height}@${scale}`;
        }).join(',');
    }

    _monitorScale(monitor, index) {
        const display = globalThis.global?.display;
        if (display && display.get_monitor_scale)
            return display.get_monitor_scale(index);
        return monitor.geometry_scale || 1;
    }

    _startFeed() {
        const {Gio, GLib} = this._shell;
        const argv = [this._weaver, 'desktop', 'gnome', 'feed', '--out', this._folder, '--monitors', this.monitorSpec()];
        try {
            this._feed = Gio.Subprocess.new(argv, Gio.SubprocessFlags.STDIN_PIPE | Gio.SubprocessFlags.STDOUT_PIPE);
        } catch (e) {
            log(`WidgetWeaver: cannot start ${argv.join(' ')}: ${e.message}`);
            this._scheduleRestart();
            return;
        }
        this._cancellable = new Gio.Cancellable();
        const feed = this._feed;
        const lines = new Gio.DataInputStream({base_stream: feed.get_stdout_pipe(), close_base_stream: true});
        this._readLine(feed, lines);
        feed.wait_async(null, () => {
            if (this._feed !== feed)
                return;
            log(`WidgetWeaver: the feed (${argv.join(' ')}) ended with status ${feed.get_exit_status()}`);
            this._feed = null;
            this._scheduleRestart();
        });
    }

    _readLine(feed, lines) {
        const {GLib} = this._shell;
        lines.read_line_async(GLib.PRIORITY_DEFAULT, this._cancellable, (stream, result) => {
            let line;
            try {
                [line] = stream.read_line_finish_utf8(result);
            } catch (e) {
                return; // cancelled by disable, or the feed is gone
            }
            if (line === null || this._feed !== feed)
                return;
            try {
                this.show(JSON.parse(line));
            } catch (e) {
                log(`WidgetWeaver: cannot show the feed's line: ${e.message}`);
            }
            this._readLine(feed, lines);
        });
    }

    _stopFeed() {
        if (this._cancellable)
            this._cancellable.cancel();
        this._cancellable = null;
        const feed = this._feed;
        this._feed = null;
        // Closing its standard input ends the feed; the signal covers a feed that is busy drawing.
        if (feed) {
            try {
                feed.get_stdin_pipe().close(null);
            } catch (e) {}
            feed.send_signal(15);
        }
    }

    _restartFeed() {
        this._stopFeed();
        this._startFeed();
    }

    _scheduleRestart() {
        const {GLib} = this._shell;
        if (this._restartId)
            return;
        this._restartId = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, RESTART_SECONDS, () => {
            this._restartId = 0;
            if (!this._feed)
                this._startFeed();
            return GLib.SOURCE_REMOVE;
        });
    }

    /** Makes the actors match one line of the feed: `{widgets: [{key, id, monitor, x, y, …}]}`. */
    show(manifest) {
        const wanted = new Set();
        for (const entry of manifest.widgets) {
            wanted.add(entry.key);
            let widget = this._widgets.get(entry.key);
            if (!widget) {
                widget = new DesktopWidget(this, entry);
                this._widgets.set(entry.key, widget);
            }
            widget.update(entry);
        }
        for (const [key, widget] of this._widgets) {
            if (!wanted.has(key)) {
                widget.destroy();
                this._widgets.delete(key);
            }
        }
        for (const problem of manifest.problems || [])
            log(`WidgetWeaver: ${problem}`);
    }

    /** Runs a weaver command the feed spelled out (tap, move, remove); its complaints go to the journal. */
    run(argv) {
        const {Gio} = this._shell;
        try {
            const proc = Gio.Subprocess.new(argv, Gio.SubprocessFlags.STDOUT_SILENCE | Gio.SubprocessFlags.STDERR_PIPE);
            proc.communicate_utf8_async(null, null, (p, result) => {
                try {
                    const [, , stderr] = p.communicate_utf8_finish(result);
                    if (!p.get_successful())
                        log(`WidgetWeaver: ${argv.slice(1).join(' ')}: ${stderr.trim()}`);
                } catch (e) {
                    log(`WidgetWeaver: ${argv.slice(1).join(' ')}: ${e.message}`);
                }
            });
        } catch (e) {
            log(`WidgetWeaver: cannot run ${argv.join(' ')}: ${e.message}`);
        }
    }

    /** The editor in `weaver serve` (started first when nothing answers on its port), in the browser. */
    openEditor(editor) {
        const {Gio, GLib} = this._shell;
        const client = new Gio.SocketClient();
        const open = () => {
            try {
                Gio.AppInfo.launch_default_for_uri(editor.url, null);
            } catch (e) {
                log(`WidgetWeaver: cannot open ${editor.url}: ${e.message}`);
            }
        };
        const tryConnect = (attemptsLeft, started) => {
            client.connect_to_host_async(`127.0.0.1:${editor.port}`, editor.port, null, (c, result) => {
                try {
                    c.connect_to_host_finish(result).close(null);
                    open();
                    return;
                } catch (e) {}
                if (!started)
                    this.run(editor.serve);
                if (attemptsLeft <= 0) {
                    open();
                    return;
                }
                GLib.timeout_add(GLib.PRIORITY_DEFAULT, 250, () => {
                    tryConnect(attemptsLeft - 1, true);
                    return GLib.SOURCE_REMOVE;
                });
            });
        };
        tryConnect(20, false);
    }
}

/** Moves of fewer points than this are a press, not a drag. */
const DRAG_THRESHOLD_POINTS = 6;

/** One widget on one monitor: an actor showing the feed's PNG, pressed and dragged like on the other hosts. */
class DesktopWidget {
    constructor(layer, entry) {
        const {St, Main, PopupMenu} = layer._shell;
        this._layer = layer;
        this._shell = layer._shell;
        this._entry = entry;
        this._serial = -1;
        this._moveMode = false;
        this._press = null;
        this._grab = null;
        this.actor = new St.Widget({name: `${ACTOR_NAME}-${entry.key}`, reactive: true, can_focus: false});
        this._pressed = new St.Widget({visible: false});
        this.actor.add_child(this._pressed);
        this.actor.connect('button-press-event', (actor, event) => this._onPress(event));
        this.actor.connect('button-release-event', (actor, event) => this._onRelease(event));
        this.actor.connect('motion-event', (actor, event) => this._onMotion(event));
        // Above the wallpaper's actors, under every window: the background group is the bottom of
        // the window group, on every workspace.
        Main.layoutManager._backgroundGroup.add_child(this.actor);

        this._menu = new PopupMenu.PopupMenu(this.actor, 0.5, St.Side.TOP);
        this._menu.addAction('Open in the Editor', () => this._layer.openEditor(this._entry.editor));
        this._moveItem = this._menu.addAction('Move', () => this._setMoveMode(true));
        this._menu.addAction('Remove from desktop', () => this._layer.run(this._entry.remove));
        this._menuManager = new PopupMenu.PopupMenuManager(this.actor);
        this._menuManager.addMenu(this._menu);
        Main.uiGroup.add_child(this._menu.actor);
        this._menu.actor.hide();
    }

    update(entry) {
        const {Main} = this._shell;
        this._entry = entry;
        const monitor = Main.layoutManager.monitors[entry.monitor] || Main.layoutManager.primaryMonitor;
        if (!this._press || !this._press.dragging)
            this.actor.set_position(monitor.x + entry.x, monitor.y + entry.y);
        this.actor.set_size(entry.width, entry.height);
        if (entry.serial !== this._serial) {
            this._serial = entry.serial;
            this._load(entry);
        }
    }

    _load(entry) {
        const {GdkPixbuf, Cogl, St} = this._shell;
        let pixbuf;
        try {
            pixbuf = GdkPixbuf.Pixbuf.new_from_file(entry.png);
        } catch (e) {
            log(`WidgetWeaver: cannot read ${entry.png}: ${e.message}`);
            return;
        }
        const content = St.ImageContent.new_with_preferred_size(entry.width, entry.height);
        const format = pixbuf.get_has_alpha() ? Cogl.PixelFormat.RGBA_8888 : Cogl.PixelFormat.RGB_888;
        const args = [pixbuf.get_pixels(), format, pixbuf.get_width(), pixbuf.get_height(), pixbuf.get_rowstride()];
        try {
            content.set_data(...args);
        } catch (e) {
            // GNOME 46 and later take the Cogl context first.
            const context = globalThis.global.stage.context.get_backend().get_cogl_context();
            content.set_data(context, ...args);
        }
        this.actor.set_content(content);
    }

    _local(event) {
        const [stageX, stageY] = event.get_coords();
        const [, x, y] = this.actor.transform_stage_point(stageX, stageY);
        return {x, y, stageX, stageY};
    }

    _actionAt(p) {
        if (this._moveMode)
            return null;
        return [...this._entry.actions].reverse().find(a => p.x >= a.x && p.y >= a.y && p.x < a.x + a.width && p.y < a.y + a.height);
    }

    _onPress(event) {
        const {Clutter} = this._shell;
        const button = event.get_button();
        if (button === Clutter.BUTTON_SECONDARY) {
            this._menu.toggle();
            return Clutter.EVENT_STOP;
        }
        if (button !== Clutter.BUTTON_PRIMARY)
            return Clutter.EVENT_PROPAGATE;
        const p = this._local(event);
        const action = this._actionAt(p);
        const [x, y] = this.actor.get_position();
        this._press = {start: p, action, actorX: x, actorY: y, dragging: false};
        if (action)
            this._showPressed(action);
        this._grab = globalThis.global.stage.grab(this.actor);
        return Clutter.EVENT_STOP;
    }

    _onMotion(event) {
        const {Clutter} = this._shell;
        const press = this._press;
        if (!press)
            return Clutter.EVENT_PROPAGATE;
        const p = this._local(event);
        const dx = p.stageX - press.start.stageX, dy = p.stageY - press.start.stageY;
        if (!press.dragging && !press.action && Math.hypot(dx, dy) >= DRAG_THRESHOLD_POINTS)
            press.dragging = true;
        if (press.dragging)
            this.actor.set_position(press.actorX + dx, press.actorY + dy);
        else if (press.action)
            this._pressed.visible = this._actionAt(p) === press.action;
        return Clutter.EVENT_STOP;
    }

    _onRelease(event) {
        const {Clutter, Main} = this._shell;
        const press = this._press;
        if (!press || event.get_button() !== Clutter.BUTTON_PRIMARY)
            return Clutter.EVENT_PROPAGATE;
        this._press = null;
        if (this._grab)
            this._grab.dismiss();
        this._grab = null;
        this._pressed.visible = false;
        const p = this._local(event);
        if (press.dragging) {
            const monitor = Main.layoutManager.monitors[this._entry.monitor] || Main.layoutManager.primaryMonitor;
            const [x, y] = this.actor.get_position();
            const at = `${Math.max(0, Math.round(x - monitor.x))},${Math.max(0, Math.round(y - monitor.y))}`;
            this._layer.run(this._entry.move.concat(['--at', at]));
            this._setMoveMode(false);
        } else if (press.action && this._actionAt(p) === press.action) {
            // The point as `weaver tap --at` takes it: points from the widget's top-left corner.
            this._layer.run(this._entry.tap.concat(['--at', `${Math.floor(p.x)},${Math.floor(p.y)}`]));
        }
        return Clutter.EVENT_STOP;
    }

    /** Held: the button darkened, as the other hosts draw a held button. */
    _showPressed(action) {
        const radius = Math.min(12, Math.min(action.width, action.height) / 2);
        this._pressed.set_position(action.x, action.y);
        this._pressed.set_size(action.width, action.height);
        this._pressed.style = `background-color: rgba(0,0,0,0.3); border-radius: ${radius}px;`;
        this._pressed.visible = true;
    }

    /** After "Move": a white outline, and any drag (even from a button) moves the widget. */
    _setMoveMode(on) {
        this._moveMode = on;
        this.actor.style = on ? 'border: 2px solid rgba(255,255,255,0.9);' : null;
        if (this._press)
            this._press.dragging = on && this._press.dragging;
    }

    destroy() {
        if (this._grab)
            this._grab.dismiss();
        this._grab = null;
        this._menu.destroy();
        this.actor.destroy();
    }
}
