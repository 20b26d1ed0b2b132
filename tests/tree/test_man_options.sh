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

for c in $commands; do
  page=$man_dir/xliffmt-$c.1
  if [ ! -f "$page" ]; then
    fail "xliffmt $c has no man page ($page)"
    continue
  fi
  help_options "$c" >"$tmp/table"
  man_options "$page" >"$tmp/man"
  if [ ! -s "$tmp/table" ]; then
    fail "xliffmt $c --help prints no options"
    continue
  fi
  missing=$(comm -23 "$tmp/table" "$tmp/man" | tr '\n' ' ')
  extra=$(comm -13 "$tmp/table" "$tmp/man" | tr '\n' ' ')
  if [ -z "$missing$extra" ]; then
    pass "xliffmt-$c.1 documents its $(wc -l <"$tmp/table") option names"
    continue
  fi
  [ -z "$missing" ] ||
    fail "xliffmt-$c.1 does not document: ${missing% }"
  [ -z "$extra" ] ||
    fail "xliffmt-$c.1 documents what 'xliffmt $c' does not take: ${extra% }"
done
finish
