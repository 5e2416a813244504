// Stand-in for GNOME Shell's ui/main.js: a layout manager with one 1280x800 monitor and the
// background group the widgets join, recording what is added.
export const addedActors = [];

class Group {
    constructor(name) {
        this.name = name;
        this.children = [];
    }

    add_child(actor) {
        this.children.push(actor);
        actor._parent = this;
        addedActors.push(actor);
    }

    remove_child(actor) {
        this.children = this.children.filter(a => a !== actor);
        actor._parent = null;
    }

    get_children() {
        return this.children.slice();
    }
}

class LayoutManager {
    constructor() {
        this.monitors = [{x: 0, y: 0, width: 1280, height: 800, geometry_scale: 1}];
        this.primaryMonitor = this.monitors[0];
        this._backgroundGroup = new Group('background');
        this._handlers = new Map();
        this._nextId = 1;
    }

    connect(signal, callback) {
        const id = this._nextId++;
        this._handlers.set(id, {signal, callback});
        return id;
    }

    disconnect(id) {
        if (!this._handlers.delete(id))
            throw new Error(`no handler ${id} to disconnect`);
    }

    get handlerCount() {
        return this._handlers.size;
    }
}

export const layoutManager = new LayoutManager();
export const uiGroup = new Group('ui');
