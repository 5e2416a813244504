// Stand-in for GNOME Shell's ui/popupMenu.js: a menu of actions that can be toggled and destroyed.
export class PopupMenu {
    constructor(sourceActor, arrowAlignment, arrowSide) {
        this.sourceActor = sourceActor;
        this.items = [];
        this.isOpen = false;
        this.destroyed = false;
        this.actor = {visible: true, hide() { this.visible = false; }};
    }

    addAction(title, callback) {
        const item = {title, callback, visible: true, activate: () => callback()};
        this.items.push(item);
        return item;
    }

    toggle() {
        this.isOpen = !this.isOpen;
    }

    destroy() {
        this.destroyed = true;
    }
}

export class PopupMenuManager {
    constructor(owner) {
        this.owner = owner;
        this.menus = [];
    }

    addMenu(menu) {
        this.menus.push(menu);
    }
}
