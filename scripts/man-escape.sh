#!/bin/sh
# Keeps the non-ASCII characters of the help texts in the man pages (issue 28 item 10).
# generate-manual drops every non-ASCII character (its escaping keeps only ASCII), so `man noise.set`
# read "Layer volume 01 (or 0%100%)" and "High-pass corner 102000 Hz". Two steps around it:
#   wrap TOOL WRAPPER  writes WRAPPER, which runs TOOL and turns each non-ASCII character of its
#                      output (the --experimental-dump-help JSON) into an ASCII token ZzU2026zZ
#                      that generate-manual passes through;
#   pages PAGE.1...    turns the tokens into groff's \[u2026] escapes, in place, and gives the few
#                      characters that an ASCII terminal lacks a fallback (.fchar, used only where
#                      the output device has no glyph). A UTF-8 terminal shows "0…1" and
#                      "10–20000 Hz", an ASCII one (LANG=C) "0...1" and "10-20000 Hz".
set -eu
mode=$1; shift
case $mode in
wrap)
  tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  printf '#!/bin/sh\n"%s" "$@" | perl -CSD -pe %s\n' "$tool" \
    "'s/([^\\x00-\\x7F])/sprintf(\"ZzU%04XzZ\", ord(\$1))/ge'" > "$2"
  chmod +x "$2"
  ;;
pages)
  for page in "$@"; do
    {
      printf '%s\n' '.\" ASCII fallbacks, used only where the output device has no such glyph'
      printf '%s\n' '.fchar \[u2026] ...' '.fchar \[u00B0] deg' '.fchar \[u00B7] \-' '.fchar \[u2192] ->' \
        '.fchar \[u2190] <-' '.fchar \[u2264] <=' '.fchar \[u2265] >=' '.fchar \[u2248] ~' '.fchar \[u2212] -' \
        '.fchar \[u2009] \~' '.fchar \[u202F] \~' '.fchar \[u00A0] \~' '.fchar \[u25B6] >' '.fchar \[u23F8] ||' \
        '.fchar \[u266A] *' '.fchar \[u2022] *'
      perl -CSD -pe 's/ZzU([0-9A-F]{4,6})zZ/\\[u$1]/g; s/([^\x00-\x7F])/sprintf("\\[u%04X]", ord($1))/ge' "$page"
    } > "$page.tmp"
    mv "$page.tmp" "$page"
  done
  ;;
*) echo "usage: $0 wrap TOOL WRAPPER | pages PAGE.1..." >&2; exit 64 ;;
esac
