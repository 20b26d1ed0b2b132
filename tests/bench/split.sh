# split.sh -- the tuning and reporting halves of the dev sets, read from
# their SPLIT files (tests/data/markup-tags/SPLIT,
# tests/fixtures/align-gold/SPLIT): sourced, not run.
#
# A SPLIT file has one range a line, "SET HALF FIRST-LAST" or "SET HALF
# LINE" (1-based line numbers of the set's files, inclusive), HALF tune
# or report; "#" starts a comment. Choices are made on the tune half
# only; the report half is the figure to publish.

# split_check SPLIT SET LINES: fails, saying why, unless the ranges of SET
# in SPLIT put each line 1..LINES in exactly one half.
split_check() {
  awk -v set="$2" -v n="$3" -v f="$1" '
    { sub(/#.*/, "") }
    NF == 0 || $1 != set { next }
    NF != 3 || ($2 != "tune" && $2 != "report") {
      printf "%s:%d: bad line\n", f, NR; bad = 1; exit }
    { lo = $3; hi = $3; sub(/-.*/, "", lo); sub(/.*-/, "", hi)
      if (lo !~ /^[0-9]+$/ || hi !~ /^[0-9]+$/ || lo + 0 < 1 ||
          hi + 0 > n || lo + 0 > hi + 0) {
        printf "%s:%d: range %s outside 1-%d\n", f, NR, $3, n; bad = 1
        exit }
      for (i = lo + 0; i <= hi + 0; i++) {
        if (i in seen) {
          printf "%s:%d: line %d of %s in two ranges\n", f, NR, i, set
          bad = 1; exit }
        seen[i] = 1 } }
    END { if (bad) exit 1
      for (i = 1; i <= n; i++) if (!(i in seen)) {
        printf "%s: line %d of %s in no half\n", f, i, set; exit 1 } }
  ' "$1" >&2
}

# split_pick SPLIT SET HALF FILE: the lines of FILE in HALF of SET, in
# order.
split_pick() {
  awk -v set="$2" -v half="$3" '
    NR == FNR { sub(/#.*/, "")
      if (NF == 3 && $1 == set && $2 == half) {
        lo = $3; hi = $3; sub(/-.*/, "", lo); sub(/.*-/, "", hi)
        for (i = lo + 0; i <= hi + 0; i++) want[i] = 1 }
      next }
    FNR in want
  ' "$1" "$4"
}
