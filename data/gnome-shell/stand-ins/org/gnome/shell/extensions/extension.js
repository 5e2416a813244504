// Stand-in for GNOME Shell 45's extensions/extension.js: what the extension's entry point uses.
export class Extension {
    constructor(metadata) {
        this.metadata = metadata;
        this.uuid = metadata.uuid;
    }
}
