#!/bin/sh
# test_cli_xliff2_npm.sh: a real client reads what xliffmt writes. The npm
# package xliff (its xliff2js) parses each XLIFF 2 fixture translated with
# the pseudo engine, and every unit has its target with as many inline
# codes as its source. The package is installed once into
# $XLIFFMT_CACHE_DIR/npm-xliff (make check sets it), from the npm
# registry. xliff2js reads no prefixed elements (prefixed22.xlf is left
# out), keeps the last segment of a unit, and gives "" for the elements it
# does not know (cp, mrk, sm, em): those count as codes too. reseg.xlf is
# read as written with --seg-source too (units of a segment per
# sentence).
# Env: XLIFFMT, XMT_FIXTURES, XLIFFMT_CACHE_DIR. Exit 0 pass, 1 fail, 77
# skip (only when node or npm is missing).
set -u

. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/simple.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node or npm not found"
  exit 77
fi
cli_setup xliff2-npm
x=$XLIFFMT

dir=${XLIFFMT_CACHE_DIR:-$tmp}/npm-xliff
if [ ! -f "$dir/node_modules/xliff/package.json" ]; then
  mkdir -p "$dir"
  if ! npm install --prefix "$dir" --no-audit --no-fund --silent xliff \
    >"$tmp/npm.log" 2>&1; then
    fail "npm install xliff"
    sed -n '1,10s/^/    /p' "$tmp/npm.log"
    finish
  fi
fi
pass "the npm package xliff $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' \
  "$dir/node_modules/xliff/package.json")"

cat >"$tmp/read.js" <<'EOF'
// Lists each unit of an XLIFF 2 document as xliff2js reads it:
// "FILE/UNIT N M": N codes in its source, M in its target ("-": none).
const xliff2js = require('xliff/xliff2js');
const fs = require('fs');
function codes(c) {
  if (typeof c === 'string') return c === '' ? 1 : 0;
  if (Array.isArray(c)) return c.reduce((n, e) => n + codes(e), 0);
  if (c && typeof c === 'object') {
    const inner = Object.values(c)[0];
    return 1 + (inner && Array.isArray(inner.contents) ? codes(inner.contents) : 0);
  }
  return 0;
}
function walk(prefix, units, out) {
  for (const [id, u] of Object.entries(units)) {
    if (u.groupUnits) { walk(prefix, u.groupUnits, out); continue; }
    out.push(prefix + id + ' ' + codes(u.source) + ' ' +
             (u.target === undefined ? '-' : codes(u.target)));
  }
}
xliff2js(fs.readFileSync(process.argv[2], 'utf8'), (err, res) => {
  if (err) { console.error(String(err)); process.exit(1); }
  const out = [];
  for (const [file, units] of Object.entries(res.resources))
    walk(file + '/', units, out);
  console.log(out.join('\n'));
});
EOF

# name trgLang expected-listing; name+seg: translated with --seg-source
while read -r name lang listing; do
  set -- --mt pseudo -t "$lang" -q
  case $name in *+seg) set -- "$@" --seg-source ;; esac
  out=$tmp/$name.xlf
  expect_exit 0 "translate $name" "$x" translate "$fx/${name%+seg}.xlf" \
    -o "$out" "$@" || continue
  if NODE_PATH=$dir/node_modules node "$tmp/read.js" "$out" \
    >"$tmp/got" 2>"$tmp/node.err"; then
    printf '%s\n' "$listing" | tr ';' '\n' >"$tmp/want"
    if cmp -s "$tmp/got" "$tmp/want"; then
      pass "xliff2js reads $name: every target with its codes"
    else
      fail "xliff2js reads $name"
      diff "$tmp/want" "$tmp/got" | sed 's/^/    /'
    fi
  else
    fail "xliff2js cannot read $name"
    sed -n '1,5s/^/    /p' "$tmp/node.err"
  fi
done <<'EOF'
simple fr f1/1 0 0;f1/2 0 0
groups de f1/u1 0 -;f1/u2 0 0;f1/u3 0 -;f1/u4 0 0;f2/u1 0 -;f3/u1 0 0
segments es f1/p1 0 0;f1/p2 0 0;f1/p3 0 0
inline fr f1/pc 2 2;f1/ph 2 2;f1/scec 3 3;f1/span 1 1;f1/iso 2 2;f1/cp 2 2;f1/mrk 4 4;f1/empty 2 2
prefilled fr f1/final 0 0;f1/reviewed 1 1;f1/translated 0 0;f1/empty 0 0;f1/lang 0 0;f1/mixed 0 0
okapi de f1/tu1 0 0;f1/tu2 2 2;f1/tu3 4 4
angular fr ngi18n/introductionHeader 0 0;ngi18n/5811701742971715242 1 1;ngi18n/2393298213484032341 1 1;ngi18n/7131225298451212335 3 3
omegat pl 1/1 0 0;1/2 1 1;1/3 0 0
its21 ja f1/u1 2 2
reseg fr f1/u1 1 1;f1/u2 2 2;f1/u3 0 0;f1/u4 0 0;f1/u5 0 0;f1/u6 0 0;f1/u7 0 0;f1/u8 0 0
reseg+seg fr f1/u1 0 0;f1/u2 0 0;f1/u3 0 0;f1/u4 0 0;f1/u5 0 0;f1/u6 0 0;f1/u7 0 0;f1/u8 0 0
EOF

finish
