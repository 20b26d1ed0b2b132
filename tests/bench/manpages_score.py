#!/usr/bin/python3
"""manpages_score.py -- the rows of tests/bench/manpages.sh.

Usage: manpages_score.py rows LANG METHOD SET SCORES
       manpages_score.py diff LANG NAME SET SCORES_A SCORES_B

SCORES holds a method's per-line scores on one set, a line per line of
the set: "half<TAB>tags<TAB>exact" (half: tune or report; tags: the
line's reference tags; exact: those placed exactly). rows prints a row
per half: lines, tags, the share placed exactly and its 95 % bootstrap
interval; diff prints the share of A minus that of B and its 95 % paired
bootstrap interval: each resample draws the same lines for both, so
what the two methods share cancels out. Both draw 1,000 resamples of the
half's lines with random.Random(1), in the same order: the rows'
intervals and the differences' rest on the same resamples. diff fails
when the two files do not describe the same lines (count, half, tags).
"""

import random
import sys

RESAMPLES = 1000


def read(path):
    """{half: [(tags, exact)]} of a scores file, and its rows in order."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[0] not in ("tune", "report"):
                sys.exit("manpages_score.py: %s:%d: not half, tags, exact"
                         % (path, k))
            rows.append((parts[0], int(parts[1]), int(parts[2])))
    return rows


def by_half(rows, half):
    return [(t, e) for h, t, e in rows if h == half]


def draws(n):
    """The resamples of n lines: lists of indexes."""
    rng = random.Random(1)
    for _ in range(RESAMPLES):
        yield [rng.randrange(n) for _ in range(n)]


def interval(values):
    values.sort()
    return values[24], values[974]


def bootstrap(lines):
    """The 95 % interval of 100 * sum(e) / sum(t) over the resamples of
    lines, a list of (t, e)."""
    values = []
    for d in draws(len(lines)):
        t = sum(lines[i][0] for i in d)
        e = sum(lines[i][1] for i in d)
        values.append(100.0 * e / t if t else 0.0)
    return interval(values)


def no_tags(lang, method, set_, half, n):
    """The row of a half without reference tags: no share to give."""
    print("%-4s %-16s %-4s %-6s %6d %6d %6s" % (lang, method, set_, half, n,
                                              0, "-"))


def rows(lang, method, set_, path):
    scores = read(path)
    for half in ("tune", "report"):
        lines = by_half(scores, half)
        n, tags = len(lines), sum(t for t, _ in lines)
        if tags == 0:
            no_tags(lang, method, set_, half, n)
            continue
        lo, hi = bootstrap(lines)
        print("%-4s %-16s %-4s %-6s %6d %6d %6.1f  [%.1f, %.1f]"
              % (lang, method, set_, half, n, tags,
                 100.0 * sum(e for _, e in lines) / tags, lo, hi))


def diff(lang, name, set_, path_a, path_b):
    a, b = read(path_a), read(path_b)
    if len(a) != len(b):
        sys.exit("manpages_score.py: %s has %d lines, %s %d: not the same "
                 "set" % (path_a, len(a), path_b, len(b)))
    for k, (ra, rb) in enumerate(zip(a, b), 1):
        if ra[:2] != rb[:2]:
            sys.exit("manpages_score.py: line %d: %s says %s, %d tags; %s "
                     "%s, %d tags: not the same set"
                     % (k, path_a, ra[0], ra[1], path_b, rb[0], rb[1]))
    for half in ("tune", "report"):
        la, lb = by_half(a, half), by_half(b, half)
        n, tags = len(la), sum(t for t, _ in la)
        if tags == 0:
            no_tags(lang, name, set_, half, n)
            continue
        lo, hi = bootstrap([(t, e - f) for (t, e), (_, f) in zip(la, lb)])
        whole = sum(x[1] for x in la) - sum(x[1] for x in lb)
        print("%-4s %-16s %-4s %-6s %6d %6d %+6.1f  [%+.1f, %+.1f]"
              % (lang, name, set_, half, n, tags, 100.0 * whole / tags, lo,
                 hi))


def main(argv):
    if len(argv) == 5 and argv[0] == "rows":
        rows(*argv[1:])
    elif len(argv) == 6 and argv[0] == "diff":
        diff(*argv[1:])
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
