#!/usr/bin/env bash
# Prints the Debian packages that provide the shared libraries the given binaries load, as a
# Depends list ("libasound2, libc6, ..."). ldd finds the libraries, dpkg -S their packages.
set -euo pipefail
declare -A packages=()
for binary in "$@"; do
    while read -r lib; do
        pkg=""
        # Debian is merged-/usr: dpkg may know a library under /lib or /usr/lib, by its name or its target.
        for candidate in "$lib" "/usr$lib" "${lib#/usr}" "$(readlink -f "$lib")" "$(readlink -f "$lib" | sed 's|^/usr||')"; do
            [ -n "$candidate" ] || continue
            pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
        done
        if [ -z "$pkg" ]; then
            echo "deb-depends: no Debian package provides $lib (needed by $binary)" >&2
            exit 1
        fi
        packages[$pkg]=1
    done < <(ldd "$binary" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }')
done
printf '%s\n' "${!packages[@]}" | sort | paste -sd, - | sed 's/,/, /g'
