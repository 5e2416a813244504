// GNOME 45 and later: the ES-module entry point over desktop.js.
import Clutter from 'gi://Clutter';
import Cogl from 'gi://Cogl';
import GdkPixbuf from 'gi://GdkPixbuf';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import St from 'gi://St';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {WidgetLayer} from './desktop.js';

export default class WidgetWeaverExtension extends Extension {
    /** What desktop.js uses of the shell (the gjs test hands in stand-ins for the actors). */
    shellModules() {
        return {Clutter, Cogl, GdkPixbuf, Gio, GLib, St, Main, PopupMenu};
    }

    enable() {
        this._layer = new WidgetLayer(this.shellModules(), this.metadata);
        this._layer.enable();
    }

    disable() {
        this._layer?.disable();
        this._layer = null;
    }
}
