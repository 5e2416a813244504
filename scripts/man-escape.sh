#!/bin/sh
# Makes generated man pages readable whatever the reader's locale (issue 28 item 10).
# generate-manual writes help text as UTF-8; man under a C/POSIX locale (SSH sessions, containers,
# a fresh Debian) drops what its ASCII device has no glyph for, so "0…1" read "01". Each non-ASCII
# character becomes groff's \[uXXXX] escape, and .fchar gives an ASCII fallback for the few that
# the ASCII device lacks: a UTF-8 terminal still shows "0…1" and "10–20000 Hz", an ASCII one
# "0...1" and "10-20000 Hz" (groff's own fallbacks cover dashes, ×, ±, quotes).
# Usage: scripts/man-escape.sh PAGE.1...   (rewrites each page in place)
set -eu
for page in "$@"; do
  tmp="$page.tmp"
  {
    printf '%s\n' '.\" ASCII fallbacks, used only where the output device has no such glyph'
    printf '%s\n' '.fchar \[u2026] ...' '.fchar \[u00B0] deg' '.fchar \[u00B7] \-' '.fchar \[u2192] ->' \
      '.fchar \[u2190] <-' '.fchar \[u2264] <=' '.fchar \[u2265] >=' '.fchar \[u2248] ~' '.fchar \[u2212] -' \
      '.fchar \[u2009] \~' '.fchar \[u202F] \~' '.fchar \[u00A0] \~' '.fchar \[u25B6] >' '.fchar \[u23F8] ||' \
      '.fchar \[u266A] *' '.fchar \[u2022] *'
    perl -CSD -pe 's/([^\x00-\x7F])/sprintf("\\[u%04X]", ord($1))/ge' "$page"
  } > "$tmp"
  mv "$tmp" "$page"
done
