#!/bin/sh
# check-formats.sh [TOP]: a format is one entry of the table in
# filter/format/detect.c, and what differs from one format to another is
# asked of its entry (filter_private.h), never of its name. Prints, one a
# line, "formats: FILE:LINE: WHY: TEXT" for
#  - a format compared by identity (== or != &xmt_format_X) anywhere in
#    filter/ or cli/;
#  - a format named (&xmt_format_X) in the code above the formats: the
#    file functions (filter/format/format.c), the pipeline, check and the
#    report, which take the entry they are given or xmt_format_entry's;
#  - a format compared by its value (== XMT_FORMAT_X, case XMT_FORMAT_X)
#    in cli/ or serve/, which ask the table (xmt_format_flags, _noun...);
#  - a format's extension written outside its entry's list (".html" and
#    the others once each in the C files of filter/ and cli/);
# and exits 1 when it printed anything.
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2

# grep -n output "file:line:text" to "formats: file:line: why: text"
report() {
  why=$1
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    text=$(printf '%s' "${rest#*:}" | sed 's/^[[:space:]]*//')
    printf 'formats: %s:%s: %s: %s\n' "$file" "$line" "$why" "$text"
  done
}

scan() {
sources=$(find filter cli -name '*.[ch]' | sort)
hits=$(grep -nE '[!=]=[[:space:]]*&xmt_format_|&xmt_format_[a-z0-9_]+[[:space:]]*[!=]=' \
  $sources /dev/null)
[ -n "$hits" ] && printf '%s\n' "$hits" |
  report "a format compared by identity, not asked of its entry"

users=$(find cli serve -name '*.[ch]' 2>/dev/null | sort)
hits=$(grep -nE '[!=]=[[:space:]]*XMT_FORMAT_|XMT_FORMAT_[A-Z0-9_]+[[:space:]]*[!=]=|case[[:space:]]+XMT_FORMAT_' \
  $users /dev/null)
[ -n "$hits" ] && printf '%s\n' "$hits" |
  report "a format compared by its value, not asked of the table"

above=$(find filter/format/format.c filter/pipeline filter/check.c \
  filter/report -name '*.[ch]' | sort)
hits=$(grep -nE '&xmt_format_[a-z0-9_]+' $above /dev/null)
[ -n "$hits" ] && printf '%s\n' "$hits" |
  report "a format named above the formats"

code=$(find filter cli -name '*.c' | sort)
for ext in .xlf .xliff .sdlxliff .mqxliff .html .htm .xhtml; do
  n=$(grep -cF "\"$ext\"" $code /dev/null | awk -F: '{n += $NF} END {print n}')
  if [ "$n" -ne 1 ]; then
    hits=$(grep -nF "\"$ext\"" $code /dev/null)
    printf '%s\n' "$hits" | report "the extension $ext written $n times"
  fi
done
}
out=$(scan)
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
