#!/bin/sh
# check-links.sh -- every relative link of the Markdown documentation
# points to a file that exists and, for FILE.md#ANCHOR or #ANCHOR, to a
# heading of that file.
#
#   sh scripts/check-links.sh [FILE.md...]    # default: README.md doc/*.md
#
# Links are [text](target) and ![alt](target) outside code blocks and
# code spans; targets with a scheme (https:, mailto:) are not checked.
# Anchors are made from headings as GitHub makes them: lower case,
# punctuation other than '-' and '_' dropped, spaces made '-', a repeated
# heading numbered -1, -2... Prints each broken link as FILE:LINE: TARGET:
# WHY; exit status 0 when none is broken, 1 otherwise, 2 for a missing
# input file.
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- README.md doc/*.md

# links FILE: LINE<TAB>TARGET for each link of FILE.
links() {
  LC_ALL=C awk '
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)       # code spans on one line
      while (match(line, /\]\([^) \t]+\)/)) {
        print NR "\t" substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$1"
}

# anchors FILE: the anchor of each heading of FILE, one per line.
anchors() {
  LC_ALL=C awk '
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence || !/^#{1,6}[ \t]/ { next }
    {
      h = $0
      sub(/^#+[ \t]+/, "", h); sub(/[ \t]+#+[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
      h = tolower(h)
      gsub(/-/, "\001", h); gsub(/_/, "\002", h)
      gsub(/[[:punct:]]/, "", h)
      gsub(/\001/, "-", h); gsub(/\002/, "_", h)
      gsub(/[ \t]/, "-", h)
      a = (h in seen) ? h "-" seen[h] : h
      seen[h]++
      print a
    }' "$1"
}

tmp=$(mktemp "${TMPDIR:-/tmp}/check-links.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
broken=0
checked=0
tab=$(printf '\t')
for file in "$@"; do
  if [ ! -f "$file" ]; then
    echo "check-links.sh: $file: no such file" >&2
    exit 2
  fi
  dir=$(dirname "$file")
  links "$file" >"$tmp" || exit 2
  while IFS="$tab" read -r line target; do
    case $target in
    [a-zA-Z]*:*) continue ;; # https:, mailto: ...
    esac
    checked=$((checked + 1))
    path=${target%%#*}
    anchor=
    case $target in *'#'*) anchor=${target#*#} ;; esac
    if [ -z "$path" ]; then
      dest=$file
    else
      dest=$dir/$path
    fi
    if [ ! -e "$dest" ]; then
      echo "$file:$line: $target: no file $dest"
      broken=$((broken + 1))
      continue
    fi
    if [ -n "$anchor" ]; then
      case $dest in
      *.md)
        if ! anchors "$dest" | grep -Fqx -- "$anchor"; then
          echo "$file:$line: $target: no heading #$anchor in $dest"
          broken=$((broken + 1))
        fi
        ;;
      *)
        echo "$file:$line: $target: an anchor into a file that is not Markdown"
        broken=$((broken + 1))
        ;;
      esac
    fi
  done <"$tmp"
done
echo "check-links.sh: $checked relative links in $# files, $broken broken"
[ "$broken" -eq 0 ]
