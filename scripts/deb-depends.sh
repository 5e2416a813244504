#!/usr/bin/env bash
# Prints the Debian packages that provide the shared libraries the given binaries link against
# directly (their ELF NEEDED entries; the packages bring their own dependencies), as a Depends
# list ("libasound2, libc6, ..."). ldd says where each library is, dpkg -S which package owns it.
set -euo pipefail
declare -A packages=()
for binary in "$@"; do
    declare -A where=()
    while read -r name path; do where[$name]=$path; done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
    while read -r name; do
        # The dynamic loader comes with libc6, which libc.so.6 already names.
        case $name in ld-linux*) continue ;; esac
        lib=${where[$name]:-}
        if [ -z "$lib" ]; then
            echo "deb-depends: $binary needs $name, which ldd cannot find" >&2
            exit 1
        fi
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
    done < <(readelf -d "$binary" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p')
    unset where
done
printf '%s\n' "${!packages[@]}" | sort | paste -sd, - | sed 's/,/, /g'
