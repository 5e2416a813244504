// Loads the GNOME 45+ extension with gjs's ES-module loader against the stand-ins in this folder
// (compiled into a GResource at resource:///org/gnome/shell, where the shell's own modules live)
// and takes it through enable and disable with a real `weaver desktop gnome feed`. Run by
// GnomeShellExtensionTests:
//   gjs -m run-45.js STAND_INS.gresource EXTENSION_DIR
// Prints one line of JSON with what it saw; exits 1 when a step did not happen in time.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {exit, programArgs} from 'system';

const [resourcePath, extensionDir] = programArgs;
Gio.Resource.load(resourcePath)._register();

const Main = await import('resource:///org/gnome/shell/ui/main.js');
const {default: WidgetWeaverExtension} = await import(`file://${extensionDir}/extension.js`);
const {ACTOR_NAME} = await import(`file://${extensionDir}/desktop.js`);
const metadata = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(`${extensionDir}/metadata.json`)[1]));

// Actors as the extension uses them: St's real ones need a running compositor.
class StandInWidget {
    constructor(props = {}) {
        Object.assign(this, {x: 0, y: 0, width: 0, height: 0, visible: true, style: null}, props);
        this.children = [];
        this.content = null;
        this.handlers = {};
        this.destroyed = false;
    }

    add_child(child) {
        this.children.push(child);
        child._parent = this;
    }

    set_position(x, y) {
        [this.x, this.y] = [x, y];
    }

    get_position() {
        return [this.x, this.y];
    }

    set_size(width, height) {
        [this.width, this.height] = [width, height];
    }

    set_content(content) {
        this.content = content;
    }

    connect(signal, callback) {
        this.handlers[signal] = callback;
    }

    destroy() {
        this.destroyed = true;
        this._parent?.remove_child?.(this);
    }
}

const St = {
    Widget: StandInWidget,
    Side: {TOP: 0},
    ImageContent: {
        new_with_preferred_size(width, height) {
            return {
                preferred: [width, height],
                set_data(pixels, format, w, h, stride) {
                    this.pixels = {length: pixels.length, format, width: w, height: h, stride};
                },
            };
        },
    },
};

class UnderTest extends WidgetWeaverExtension {
    shellModules() {
        return {...super.shellModules(), St, Main};
    }
}

globalThis.global = {display: null, stage: {grab: () => ({dismiss() {}})}};

const loop = new GLib.MainLoop(null, false);
const result = {};
let failure = null;

function waitFor(what, seconds, predicate, then) {
    const end = GLib.get_monotonic_time() + seconds * 1e6;
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
        if (predicate()) {
            then();
            return GLib.SOURCE_REMOVE;
        }
        if (GLib.get_monotonic_time() > end) {
            failure = `${what} within ${seconds} s`;
            loop.quit();
            return GLib.SOURCE_REMOVE;
        }
        return GLib.SOURCE_CONTINUE;
    });
}

const extension = new UnderTest(metadata);
const group = Main.layoutManager._backgroundGroup;
extension.enable();
const layer = extension._layer;
result.handlersAfterEnable = Main.layoutManager.handlerCount;
const feed = layer._feed;
result.feedStarted = feed !== null;
waitFor('no widget actor with a picture', 30, () => group.children.some(a => a.content?.pixels), () => {
    result.actors = group.children.map(a => ({
        name: a.name, x: a.x, y: a.y, width: a.width, height: a.height, reactive: a.reactive,
        pixels: a.content.pixels,
    }));
    result.namedAsWidgets = group.children.every(a => a.name.startsWith(`${ACTOR_NAME}-`));
    result.menuItems = [...layer._widgets.values()][0]._menu.items.map(i => i.title);
    extension.disable();
    result.actorsAfterDisable = group.children.length;
    result.allDestroyed = Main.addedActors.filter(a => a.name?.startsWith(ACTOR_NAME)).every(a => a.destroyed);
    result.handlersAfterDisable = Main.layoutManager.handlerCount;
    const timeout = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 10, () => {
        failure = 'the feed did not exit within 10 s of disable';
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    feed.wait_async(null, () => {
        GLib.source_remove(timeout);
        result.feedExited = true;
        loop.quit();
    });
});
loop.run();
result.failure = failure;
print(JSON.stringify(result));
if (failure)
    exit(1);
