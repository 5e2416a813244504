#!/usr/bin/env bash
# Packaging tests:
#  install (make test-packaging, part of make test): make install into a scratch DESTDIR puts every
#     expected file in its standard folder, the installed tools run, and make uninstall leaves the
#     scratch tree empty;
#  deb (make test-deb, a CI step of its own): make deb builds a package whose Depends names the
#     runtime libraries; unpacked into a scratch root (no install), its noise and weaver run from
#     there, including a download (libcurl is opened with dlopen). Built from the test build's
#     objects (BUILD_FLAGS as make test's); the package and its checks take a few minutes.
# Usage: scripts/test-packaging.sh install|deb
set -euo pipefail
part=${1:?usage: scripts/test-packaging.sh install|deb}
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "test-packaging: FAIL: $*" >&2; exit 1; }

if [ "$part" = install ]; then
dest="$scratch/dest"
make --no-print-directory install PREFIX=/usr/local DESTDIR="$dest" >/dev/null
p="$dest/usr/local"
for f in bin/noise bin/weaver bin/weaver-desktop bin/weaver-serve share/widgetweaver/presets/sleep.json \
         share/bash-completion/completions/noise share/bash-completion/completions/weaver \
         share/zsh/site-functions/_noise share/zsh/site-functions/_weaver \
         share/fish/vendor_completions.d/noise.fish share/fish/vendor_completions.d/weaver.fish \
         share/man/man1/noise.1.gz share/man/man1/noise.play.1.gz share/man/man1/weaver.1.gz \
         share/man/man1/weaver.designs.set.1.gz share/widgetweaver/install-manifest; do
    [ -f "$p/$f" ] || fail "make install did not write $f"
done
[ -f Resources/desktop/widgetweaver-noise.desktop ] && { [ -f "$p/share/applications/widgetweaver-noise.desktop" ] || fail "desktop entry"; }
[ -f Resources/icons/widgetweaver-noise.svg ] && { [ -f "$p/share/icons/hicolor/scalable/apps/widgetweaver-noise.svg" ] || fail "icon"; }
# The GNOME Shell extension in the system extensions folder, naming the installed weaver; the
# installed weaver finds the extension's sources for 'weaver desktop gnome install'.
ext="$p/share/gnome-shell/extensions/widgetweaver@conornolan.com"
grep -q "\"weaver-executable\" : \"/usr/local/bin/weaver\"" "$ext/metadata.json" || fail "GNOME extension metadata"
[ -f "$ext/extension.js" ] && [ -f "$ext/desktop.js" ] || fail "GNOME extension files"
"$p/bin/weaver" desktop gnome install --shell-version 46 --into "$scratch/extensions" >/dev/null \
    || fail "installed weaver desktop gnome install"
grep -q "^export default class" "$scratch/extensions/widgetweaver@conornolan.com/extension.js" || fail "45+ form"
# The installed noise finds the installed presets (PREFIX/share/widgetweaver/presets).
out=$(env -u WIDGETWEAVER_PRESETS HOME="$scratch/home" "$p/bin/noise" presets) || fail "installed noise presets"
grep -q sleep <<< "$out" || fail "installed noise lists no sleep preset"
# The installed weaver runs the installed desktop host beside it (here it finds no X server).
out=$(DISPLAY=:65000 WAYLAND_DISPLAY= "$p/bin/weaver" desktop --store "$scratch/store" 2>&1) && fail "weaver desktop ran without a display"
grep -q "cannot open the display" <<< "$out" || fail "installed weaver desktop did not start the installed host: $out"
zcat "$p/share/man/man1/noise.play.1.gz" | grep -q -- '--preset' || fail "noise-play man page lacks --preset"
# Help texts' "…" and "–" survive generate-manual (scripts/man-escape.sh): ASCII in a C locale,
# the characters themselves in a UTF-8 one (issue 28 item 10: "Layer volume 01 (or 0%100%)").
man_c=$(LANG=C LC_ALL=C MANWIDTH=100 man -l "$p/share/man/man1/noise.set.1.gz" 2>&1) || fail "man -l noise.set"
grep -q 'Layer volume 0\.\.\.1 (or 0%\.\.\.100%)' <<< "$man_c" || fail "noise.set man page under LANG=C: $(grep 'Layer volume' <<< "$man_c")"
man_u=$(LANG=C.UTF-8 LC_ALL=C.UTF-8 MANWIDTH=100 man -l "$p/share/man/man1/weaver.designs.set.1.gz" 2>&1) || fail "man -l weaver.designs.set"
grep -q 'padding: 0…32' <<< "$man_u" || fail "weaver.designs.set man page under C.UTF-8: $(grep 'padding' <<< "$man_u" | head -1)"
grep -q _noise "$p/share/zsh/site-functions/_noise" || fail "zsh completion"
bash -n "$p/share/bash-completion/completions/noise" || fail "bash completion does not parse"
files=$(grep -c '^file' "$p/share/widgetweaver/install-manifest")
# A second install over the first is refused rather than losing track of files.
if make --no-print-directory install PREFIX=/usr/local DESTDIR="$dest" >/dev/null 2>&1; then fail "a second install was not refused"; fi
make --no-print-directory uninstall PREFIX=/usr/local DESTDIR="$dest" >/dev/null
left=$(find "$dest" -mindepth 1 | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "test-packaging: install wrote $files files; uninstall left $dest empty"
exit 0
fi
[ "$part" = deb ] || { echo "usage: scripts/test-packaging.sh install|deb" >&2; exit 2; }

make --no-print-directory deb >/dev/null
deb=$(ls -t dist/widgetweaver_*.deb | head -1)
control=$(dpkg-deb -f "$deb")
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libasound2 libpulse0 libc6 libcairo2 libpango-1.0-0 libpangocairo-1.0-0 fontconfig fonts-inter libcurl4; do
    grep -qw "$lib" <<< "$depends" || fail "Depends lacks $lib: $depends"
done
grep -q 'libswift\|swiftlang' <<< "$depends" && fail "Depends names the Swift toolchain: $depends"
grep -qw 'libgtk-3-0' <<< "$depends" || fail "Depends lacks libgtk-3-0 (weaver-desktop): $depends"
rootfs="$scratch/root"
dpkg-deb -x "$deb" "$rootfs"
# Only what the binaries name themselves: noise and weaver never link X11 (weaver-desktop does, for its window hints).
cli_depends=$(scripts/deb-depends.sh "$rootfs/usr/bin/noise" "$rootfs/usr/bin/weaver")
grep -q 'libx11\|libgtk' <<< "$cli_depends" && fail "noise or weaver link X11 or GTK: $cli_depends"
for tool in noise weaver weaver-desktop weaver-serve; do
    ldd "$rootfs/usr/bin/$tool" | grep -q 'not found' && fail "$tool has unresolved libraries"
    ldd "$rootfs/usr/bin/$tool" | grep -q '/opt/swift\|libswiftCore' && fail "$tool loads the Swift toolchain's runtime"
done
out=$(env -u WIDGETWEAVER_PRESETS HOME="$scratch/home" "$rootfs/usr/bin/noise" presets) || fail "unpacked noise presets"
grep -q sleep <<< "$out" || fail "unpacked noise lists no sleep preset: $out"
"$rootfs/usr/bin/weaver" --help | grep -q USAGE || fail "unpacked weaver --help"
"$rootfs/usr/bin/noise" --version | grep -q "^noise " || fail "unpacked noise --version"
# A download: libcurl is opened at the first request (dlopen), which ldd above cannot check.
web="$scratch/web"; mkdir -p "$web"
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ww//test//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T090000Z\r\nSUMMARY:Packaged\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' > "$web/cal.ics"
python3 -u -m http.server --bind 127.0.0.1 --directory "$web" 0 > "$scratch/http.log" 2>&1 &
http_pid=$!
port=""
for _ in $(seq 50); do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$scratch/http.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { kill $http_pid; fail "the local HTTP server did not start: $(cat "$scratch/http.log")"; }
out=$(HOME="$scratch/home" "$rootfs/usr/bin/weaver" calendar add "http://127.0.0.1:$port/cal.ics" --name Web 2>&1) || { kill $http_pid; fail "unpacked weaver calendar add over HTTP: $out"; }
kill $http_pid
grep -q "1 event" <<< "$out" || fail "unpacked weaver read no event over HTTP: $out"
echo "test-packaging: $deb ($(du -h "$deb" | cut -f1)) runs from an unpacked root; Depends: $depends"
