#!/bin/sh
# test_man_options.sh: every command's man page documents exactly the
# options of its option table. The commands are the ones `xliffmt --help`
# lists; a command's options are the ones `xliffmt CMD --help` prints
# (made from the table that getopt_long takes, cli/options.c: lines
# "  -x, --name VALUE" and "      --name VALUE"); the documented ones are
# the option names in the tags (the line after .TP or .TQ) of the OPTIONS
# section of doc/xliffmt-CMD.1. Any name in one and not the other fails,
# either way, naming the command and the option.
# Env: XLIFFMT; XMT_MAN_DIR (default: this tree's doc/) to check other
# pages. Exit 0 pass, 1 fail.
set -u
. "$(dirname "$0")/../cli/lib.sh"
cli_setup man_options
man_dir=${XMT_MAN_DIR:-$(cd "$(dirname "$0")/../../doc" && pwd)}

# The options a command's --help prints, one name a line (-x, --name).
help_options() {
  "$XLIFFMT" "$1" --help | awk '
    /^  -[A-Za-z0-9], --[a-z0-9]/ { print substr($1, 1, 2); print $2; next }
    /^      --[a-z0-9]/ { print $1 }' | sed 's/,$//' | sort -u
}

# The option names in the tags of the OPTIONS section of man page $1.
man_options() {
  awk '
    /^\.SH/ { in_opts = ($0 ~ /^\.SH "?OPTIONS"?[[:space:]]*$/); tag = 0; next }
    in_opts && /^\.T[PQ]/ { tag = 1; next } # .TQ: one more tag
    in_opts && tag {
      tag = 0
      line = $0
      gsub(/\\-/, "-", line)          # \- is a hyphen
      gsub(/\\f[A-Z]|\\c/, " ", line) # font changes, joins
      while (match(line, /--[a-z0-9][a-z0-9_-]*/)) {
        print substr(line, RSTART, RLENGTH)
        line = substr(line, 1, RSTART - 1) " " substr(line, RSTART + RLENGTH)
      }
      line = " " line " "
      while (match(line, /[^A-Za-z0-9-]-[A-Za-z0-9][^A-Za-z0-9-]/)) {
        print substr(line, RSTART + 1, 2)
        line = substr(line, RSTART + RLENGTH - 1)
      }
    }' "$1" | sort -u
}

commands=$("$XLIFFMT" --help | awk '
  /^Commands:/ { on = 1; next }
  on && /^$/ { on = 0 }
  on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "xliffmt --help lists no commands"

# differences CMD PAGE: what CMD's table and PAGE do not share, a line
# each ("missing: NAMES", "extra: NAMES"); nothing when they agree.
differences() {
  help_options "$1" >"$tmp/table"
  man_options "$2" >"$tmp/man"
  if [ ! -s "$tmp/table" ]; then
    echo "no options in xliffmt $1 --help"
    return
  fi
  missing=$(comm -23 "$tmp/table" "$tmp/man" | tr '\n' ' ')
  extra=$(comm -13 "$tmp/table" "$tmp/man" | tr '\n' ' ')
  [ -z "$missing" ] || echo "does not document: ${missing% }"
  [ -z "$extra" ] || echo "documents what 'xliffmt $1' does not take: ${extra% }"
}

for c in $commands; do
  page=$man_dir/xliffmt-$c.1
  if [ ! -f "$page" ]; then
    fail "xliffmt $c has no man page ($page)"
    continue
  fi
  differences "$c" "$page" >"$tmp/diff"
  if [ -s "$tmp/diff" ]; then
    while IFS= read -r line; do fail "xliffmt-$c.1 $line"; done <"$tmp/diff"
  else
    pass "xliffmt-$c.1 documents its $(wc -l <"$tmp/table") option names"
  fi
done

# The comparison sees a change either way: a page whose --quiet is
# renamed --quieter lacks one option and documents one too many.
sed 's/\\-\\-quiet/\\-\\-quieter/' "$man_dir/xliffmt-translate.1" \
  >"$tmp/changed.1"
differences translate "$tmp/changed.1" >"$tmp/diff"
printf '%s\n' "does not document: --quiet" \
  "documents what 'xliffmt translate' does not take: --quieter" >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/diff"; then
  pass "a page with an option renamed fails both ways"
else
  fail "a page with an option renamed fails both ways: got"
  cat "$tmp/diff"
fi
finish
