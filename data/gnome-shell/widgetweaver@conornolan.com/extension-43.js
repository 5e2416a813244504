// GNOME 43 and 44: the legacy entry point over desktop.js (installed as extension.js).
const {Clutter, Cogl, GdkPixbuf, Gio, GLib, St} = imports.gi;
const Main = imports.ui.main;
const PopupMenu = imports.ui.popupMenu;
const ExtensionUtils = imports.misc.extensionUtils;

class WidgetWeaverExtension {
    constructor(metadata) {
        this._metadata = metadata;
        this._layer = null;
    }

    enable() {
        const {WidgetLayer} = ExtensionUtils.getCurrentExtension().imports.desktop;
        const shell = {Clutter, Cogl, GdkPixbuf, Gio, GLib, St, Main, PopupMenu};
        this._layer = new WidgetLayer(shell, this._metadata);
        this._layer.enable();
    }

    disable() {
        if (this._layer)
            this._layer.disable();
        this._layer = null;
    }
}

// GNOME 43-44 hand init() the extension object; its metadata is metadata.json.
function init(extension) {
    return new WidgetWeaverExtension(extension.metadata);
}
