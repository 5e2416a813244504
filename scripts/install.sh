#!/usr/bin/env bash
# Installs or uninstalls WidgetWeaver the way Linux tools install: binaries, presets, shell
# completions, man pages, the desktop entry and icon. Called by `make install` / `make uninstall`.
#
#   scripts/install.sh install   BIN_DIR MAN_DIR   (with PREFIX, DESTDIR, MANIFEST=0|1 in the environment)
#   scripts/install.sh uninstall
#
# install records every file and every folder it had to create in
# $DESTDIR$PREFIX/share/widgetweaver/install-manifest; uninstall removes exactly those (files first,
# then the folders it created, when they are empty), so it never touches what was there before.
set -euo pipefail

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
MANIFEST=${MANIFEST:-1}
root="$DESTDIR$PREFIX"
manifest_rel="share/widgetweaver/install-manifest"
manifest="$root/$manifest_rel"
tmp_manifest=""

# Creates a folder and its missing parents, recording those it created.
make_dir() {
    local dir=$1 missing=() d=$1
    while [ ! -d "$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
    for d in "${missing[@]}"; do
        install -d -m 755 "$d"
        echo "dir ${d#"$DESTDIR"}" >> "$tmp_manifest"
    done
}

# put MODE SOURCE DEST: copies one file (DEST is a full path under $root).
put() {
    local mode=$1 src=$2 dest=$3
    make_dir "$(dirname "$dest")"
    install -m "$mode" "$src" "$dest"
    echo "file ${dest#"$DESTDIR"}" >> "$tmp_manifest"
}

do_install() {
    local bin=$1 man=$2 here
    here=$(cd "$(dirname "$0")/.." && pwd)
    tmp_manifest=$(mktemp)
    trap 'rm -f "$tmp_manifest"' EXIT
    # The staging folder belongs to the caller: made if missing, never recorded or removed.
    [ -z "$DESTDIR" ] || install -d "$DESTDIR"
    if [ -f "$manifest" ]; then
        echo "An earlier install is recorded in $manifest; run 'make uninstall' first." >&2
        exit 1
    fi
    # weaver-desktop: the GTK host 'weaver desktop' execs (GTK stays out of weaver's own start);
    # weaver-serve: the browser app's server 'weaver serve' execs (HTTP and audio libraries likewise).
    for tool in noise weaver weaver-desktop weaver-serve; do
        put 755 "$bin/$tool" "$root/bin/$tool"
    done
    for preset in "$here"/Presets/*.json; do
        put 644 "$preset" "$root/share/widgetweaver/presets/$(basename "$preset")"
    done
    local gen
    gen=$(mktemp -d)
    for tool in noise weaver; do
        "$bin/$tool" --generate-completion-script bash > "$gen/$tool.bash"
        "$bin/$tool" --generate-completion-script zsh > "$gen/_$tool"
        "$bin/$tool" --generate-completion-script fish > "$gen/$tool.fish"
        put 644 "$gen/$tool.bash" "$root/share/bash-completion/completions/$tool"
        put 644 "$gen/_$tool" "$root/share/zsh/site-functions/_$tool"
        put 644 "$gen/$tool.fish" "$root/share/fish/vendor_completions.d/$tool.fish"
    done
    rm -rf "$gen"
    # Man pages, compressed as Debian policy asks (-n: no name or time stamp, reproducible).
    for page in "$man"/*.1; do
        gzip -9n -c "$page" > "$page.gz"
        put 644 "$page.gz" "$root/share/man/man1/$(basename "$page").gz"
        rm -f "$page.gz"
    done
    # The desktop entry and icon come with the MPRIS work; installed when present.
    if [ -f "$here/Resources/desktop/widgetweaver-noise.desktop" ]; then
        put 644 "$here/Resources/desktop/widgetweaver-noise.desktop" "$root/share/applications/widgetweaver-noise.desktop"
    fi
    if [ -f "$here/Resources/icons/widgetweaver-noise.svg" ]; then
        put 644 "$here/Resources/icons/widgetweaver-noise.svg" "$root/share/icons/hicolor/scalable/apps/widgetweaver-noise.svg"
    fi
    # The GNOME Shell extension (GNOME has no layer-shell; docs/desktop.md): its sources, from which
    # 'weaver desktop gnome install' writes a user's copy, and in the system extensions folder the
    # form this machine's GNOME Shell loads (GNOME_SHELL_VERSION overrides; 45+ when none is found).
    local uuid=widgetweaver@conornolan.com shell_major
    for f in "$here/data/gnome-shell/$uuid"/*; do
        put 644 "$f" "$root/share/widgetweaver/gnome-shell/$uuid/$(basename "$f")"
    done
    shell_major=$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p' || true)
    gen=$(mktemp -d)
    "$bin/weaver" desktop gnome install --shell-version "${GNOME_SHELL_VERSION:-${shell_major:-45}}" \
        --into "$gen" --weaver "$PREFIX/bin/weaver" > /dev/null
    for f in "$gen/$uuid"/*; do
        put 644 "$f" "$root/share/gnome-shell/extensions/$uuid/$(basename "$f")"
    done
    rm -rf "$gen"
    if [ "$MANIFEST" = 1 ]; then
        make_dir "$(dirname "$manifest")"
        echo "file $PREFIX/$manifest_rel" >> "$tmp_manifest"
        install -m 644 "$tmp_manifest" "$manifest"
        echo "Installed $(grep -c '^file' "$manifest") files under $root (list: $manifest)."
    fi
}

do_uninstall() {
    if [ ! -f "$manifest" ]; then
        echo "Nothing recorded at $manifest: nothing to uninstall." >&2
        exit 0
    fi
    local kind path removed=0 entries
    entries=$(cat "$manifest")
    # Files first, then the folders install created, deepest first, only when empty.
    while read -r kind path; do
        [ "$kind" = file ] || continue
        rm -f -- "$DESTDIR$path" && removed=$((removed + 1))
    done <<< "$entries"
    while read -r kind path; do
        [ "$kind" = dir ] || continue
        echo "$path"
    done <<< "$entries" | sort -r | while read -r path; do
        rmdir -- "$DESTDIR$path" 2>/dev/null || true
    done
    echo "Removed $removed files from $root."
}

case ${1:-} in
    install) shift; do_install "$@" ;;
    uninstall) do_uninstall ;;
    *) echo "usage: $0 install BIN_DIR MAN_DIR | uninstall" >&2; exit 2 ;;
esac
