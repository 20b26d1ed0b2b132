#!/bin/sh
# test_hostile_outputs.sh: no command writes a file it reads or another of
# its outputs. batch --report naming an input document, an output in
# OUTDIR or the list of incomplete documents; translate --report naming
# the SQLite translation memory, the aligner model it updates or the SRX
# rules; -o naming the rules, the memory or the input; the other
# commands' outputs likewise: each refused before any work, exit 1 and
# one message, every file byte for byte as it was. Devices are no file:
# -o /dev/null --report /dev/null still runs. An output replaced keeps
# its group, or, when the group cannot be kept, grants the new group
# nothing.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-outputs
x=$XLIFFMT
srcdir=$(cd "$(dirname "$0")/../.." && pwd)

cat >"$tmp/orig.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="1"><source>The cat <g id="1">sleeps</g> on the mat.</source></trans-unit>
<trans-unit id="2"><source>The dog barks. It runs.</source></trans-unit>
</body></file></xliff>
EOD
mkdir "$tmp/in"
cp "$tmp/orig.xlf" "$tmp/in/d1.xlf"
cp "$tmp/orig.xlf" "$tmp/in/d2.xlf"
cp "$srcdir/data/xliffmt.srx" "$tmp/rules.srx"

# refused DESC MESSAGE CMD...: exit 1 within the limits, and stderr is
# exactly MESSAGE.
refused() {
  what=$1 msg=$2
  shift 2
  within "$what" 1 20 1000 "$@"
  said "$what" "$msg"
}
over="it would be overwritten"

# --- batch --report: an input document, an output, the batch's list.
refused "batch --report IN/d2.xlf" \
  "xliffmt: $tmp/in/d2.xlf: --report names the input: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q --report "$tmp/in/d2.xlf"
unchanged "batch --report IN/d2.xlf" "$tmp/in/d2.xlf" "$tmp/orig.xlf"
check "batch --report IN/d2.xlf: no output tree" test ! -e "$tmp/tree"
# before OUTDIR exists: the output it would write
refused "batch --report OUT/d1.xlf, OUT not made yet" \
  "xliffmt: $tmp/tree/d1.xlf: --report names the output of $tmp/in/d1.xlf: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q --report "$tmp/tree/d1.xlf"
check "batch --report OUT/d1.xlf: no output tree" test ! -e "$tmp/tree"
within "batch" 0 20 1000 "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q
cp "$tmp/tree/d1.xlf" "$tmp/d1.done"
refused "batch --report OUT/d1.xlf" \
  "xliffmt: $tmp/tree/./d1.xlf: --report names the output of $tmp/in/d1.xlf: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt identity --force -q \
  --report "$tmp/tree/./d1.xlf"
unchanged "batch --report OUT/d1.xlf" "$tmp/tree/d1.xlf" "$tmp/d1.done"
refused "batch --report OUT/.xliffmt-incomplete" \
  "xliffmt: $tmp/tree/.xliffmt-incomplete: --report names the list of incomplete documents: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q \
  --report "$tmp/tree/.xliffmt-incomplete"
check "batch --report OUT/.xliffmt-incomplete: not made" \
  test ! -e "$tmp/tree/.xliffmt-incomplete"
# A file operand already in OUTDIR would be its own output.
cp "$tmp/orig.xlf" "$tmp/tree/d3.xlf"
refused "batch OUT/d3.xlf -o OUT" \
  "xliffmt: $tmp/tree/d3.xlf: -o names the input: $over" \
  "$x" batch "$tmp/tree/d3.xlf" -o "$tmp/tree" --mt pseudo -q
unchanged "batch OUT/d3.xlf -o OUT" "$tmp/tree/d3.xlf" "$tmp/orig.xlf"

# --- translate: the translation memory, the aligner model, the rules.
within "translate --cache sqlite:tm.db" 0 20 1000 \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/t.xlf" --mt pseudo -q \
  --cache "sqlite:$tmp/tm.db"
cp "$tmp/tm.db" "$tmp/tm.orig"
refused "translate --report tm.db --cache sqlite:tm.db" \
  "xliffmt: $tmp/tm.db: --report names the translation memory: $over" \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/t2.xlf" --mt pseudo -q \
  --cache "sqlite:$tmp/tm.db" --report "$tmp/tm.db"
unchanged "translate --report tm.db" "$tmp/tm.db" "$tmp/tm.orig"
check "translate --report tm.db: no output" test ! -e "$tmp/t2.xlf"
refused "translate -o tm.db --cache sqlite:tm.db" \
  "xliffmt: $tmp/tm.db: -o names the translation memory: $over" \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/tm.db" --mt pseudo -q \
  --cache "sqlite:$tmp/tm.db"
unchanged "translate -o tm.db" "$tmp/tm.db" "$tmp/tm.orig"
refused "batch --report tm.db --cache sqlite:tm.db" \
  "xliffmt: $tmp/tm.db: --report names the translation memory: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q --force \
  --cache "sqlite:$tmp/tm.db" --report "$tmp/tm.db"
unchanged "batch --report tm.db" "$tmp/tm.db" "$tmp/tm.orig"

printf 'The <b>cat</b> sleeps\nThe dog\n' >"$tmp/src.txt"
printf 'El gato duerme\nEl perro\n' >"$tmp/tgt.txt"
within "project --aligner-model M --update-model" 0 60 2000 \
  "$x" project --source "$tmp/src.txt" --target "$tmp/tgt.txt" \
  --aligner self --no-priors --aligner-model "$tmp/model" --update-model \
  -o "$tmp/p.txt"
cp "$tmp/model" "$tmp/model.orig"
refused "translate --report M --align-model M --update-model" \
  "xliffmt: $tmp/model: --report names the aligner model: $over" \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/t2.xlf" --mt pseudo -q \
  --align-model "$tmp/model" --update-model --dictionary none \
  --report "$tmp/model"
unchanged "translate --report M" "$tmp/model" "$tmp/model.orig"
refused "batch --report M --align-model M --update-model" \
  "xliffmt: $tmp/model: --report names the aligner model: $over" \
  "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo -q --force \
  --align-model "$tmp/model" --update-model --dictionary none \
  --report "$tmp/model"
unchanged "batch --report M" "$tmp/model" "$tmp/model.orig"
# The model updated is written: it may not be the input either.
cp "$tmp/orig.xlf" "$tmp/doc.xlf"
refused "translate --align-model IN --update-model" \
  "xliffmt: $tmp/doc.xlf: --align-model names the input: $over" \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/t2.xlf" --mt pseudo -q \
  --align-model "$tmp/doc.xlf" --update-model --dictionary none
unchanged "translate --align-model IN --update-model" "$tmp/doc.xlf" "$tmp/orig.xlf"

cp "$tmp/rules.srx" "$tmp/rules.orig"
refused "translate --report RULES --srx RULES" \
  "xliffmt: $tmp/rules.srx: --report names the segmentation rules: $over" \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/t2.xlf" --mt pseudo -q \
  --srx "$tmp/rules.srx" --report "$tmp/rules.srx"
unchanged "translate --report RULES" "$tmp/rules.srx" "$tmp/rules.orig"
refused "translate -o RULES --srx RULES" \
  "xliffmt: $tmp/rules.srx: -o names the segmentation rules: $over" \
  "$x" translate "$tmp/in/d1.xlf" -o "$tmp/rules.srx" --mt pseudo -q \
  --srx "$tmp/rules.srx"
unchanged "translate -o RULES" "$tmp/rules.srx" "$tmp/rules.orig"
refused "segment -o RULES --srx RULES" \
  "xliffmt: $tmp/rules.srx: -o names the segmentation rules: $over" \
  "$x" segment --srx "$tmp/rules.srx" "$tmp/in/d1.xlf" -o "$tmp/rules.srx"
unchanged "segment -o RULES" "$tmp/rules.srx" "$tmp/rules.orig"
refused "extract -o RULES --srx RULES" \
  "xliffmt: $tmp/rules.srx: -o names the segmentation rules: $over" \
  "$x" extract "$tmp/in/d1.xlf" --srx "$tmp/rules.srx" -o "$tmp/rules.srx"
unchanged "extract -o RULES" "$tmp/rules.srx" "$tmp/rules.orig"
refused "translate -o IN" \
  "xliffmt: $tmp/doc.xlf: -o names the input: $over" \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/doc.xlf" --mt pseudo -q
unchanged "translate -o IN" "$tmp/doc.xlf" "$tmp/orig.xlf"

# --- the other commands that write files.
printf '<html lang="en"><body><p>The cat sleeps.</p></body></html>\n' >"$tmp/page.html"
cp "$tmp/page.html" "$tmp/page.orig"
refused "extract PAGE -o PAGE" \
  "xliffmt: $tmp/page.html: -o names the input: $over" \
  "$x" extract "$tmp/page.html" -o "$tmp/page.html" -q
unchanged "extract PAGE -o PAGE" "$tmp/page.html" "$tmp/page.orig"
within "extract PAGE" 0 20 1000 \
  "$x" extract "$tmp/page.html" -o "$tmp/page.xlf" -q
cp "$tmp/page.xlf" "$tmp/page.xlf.orig"
refused "merge PAGE XLF -o XLF" \
  "xliffmt: $tmp/page.xlf: -o names the XLIFF: $over" \
  "$x" merge "$tmp/page.html" "$tmp/page.xlf" -o "$tmp/page.xlf" -q
unchanged "merge PAGE XLF -o XLF" "$tmp/page.xlf" "$tmp/page.xlf.orig"
cp "$srcdir/data/xliffmt-tmx.xsl" "$tmp/my.xsl"
cp "$tmp/my.xsl" "$tmp/my.orig"
refused "report -x F -o F" \
  "xliffmt: $tmp/my.xsl: -o names the stylesheet: $over" \
  "$x" report "$tmp/in/d1.xlf" -x "$tmp/my.xsl" -o "$tmp/my.xsl"
unchanged "report -x F -o F" "$tmp/my.xsl" "$tmp/my.orig"
printf 'the cat ||| el gato\n' >"$tmp/corpus"
cp "$tmp/corpus" "$tmp/corpus.orig"
refused "align --save-model CORPUS" \
  "xliffmt: $tmp/corpus: --save-model names the corpus: $over" \
  "$x" align -i "$tmp/corpus" --save-model "$tmp/corpus"
unchanged "align --save-model CORPUS" "$tmp/corpus" "$tmp/corpus.orig"
printf '0-0 1-1 2-2\n0-0 1-1\n' >"$tmp/aln.txt"
cp "$tmp/tgt.txt" "$tmp/tgt.orig"
refused "project -o TGT" \
  "xliffmt: $tmp/tgt.txt: -o names the translations: $over" \
  "$x" project --source "$tmp/src.txt" --target "$tmp/tgt.txt" \
  --alignment "$tmp/aln.txt" -o "$tmp/tgt.txt"
unchanged "project -o TGT" "$tmp/tgt.txt" "$tmp/tgt.orig"
refused "project -o M --aligner-model M --update-model" \
  "xliffmt: $tmp/pm: -o names the aligner model: $over" \
  "$x" project --source "$tmp/src.txt" --target "$tmp/tgt.txt" \
  --aligner self --no-priors --aligner-model "$tmp/pm" --update-model \
  -o "$tmp/pm"
check "project -o M: nothing made" test ! -e "$tmp/pm"

# Devices and pipes are not files a command destroys.
within "translate -o /dev/null --report /dev/null" 0 20 1000 \
  "$x" translate "$tmp/in/d1.xlf" -o /dev/null --mt pseudo -q \
  --report /dev/null

# --- an output replaced keeps its group.
cp "$tmp/orig.xlf" "$tmp/g.xlf"
if [ "$(id -u)" -ne 0 ] || ! chgrp daemon "$tmp/g.xlf" 2>/dev/null ||
  [ "$(id -gn)" = daemon ]; then
  echo "# not root or no group daemon: the group checks skipped"
else
  chmod 640 "$tmp/g.xlf"
  within "translate over a 640 root:daemon output" 0 20 1000 \
    "$x" translate "$tmp/in/d1.xlf" -o "$tmp/g.xlf" --mt pseudo -q
  got=$(stat -c '%a %G' "$tmp/g.xlf")
  check "its group kept: 640 daemon ($got)" test "$got" = "640 daemon"
  check "and it was replaced" grep -q 'Thé' "$tmp/g.xlf"
  # A user not in the group: the new file is that user's group, which
  # gets none of the old group's rights.
  if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
    ! id -Gn nobody | grep -qw daemon && [ "$(id -gn nobody)" != daemon ] &&
    setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
      "$x" --version >/dev/null 2>&1; then
    mkdir "$tmp/shared"
    chmod 777 "$tmp/shared"
    chmod 755 "$tmp"
    cp "$tmp/orig.xlf" "$tmp/shared/in.xlf"
    cp "$tmp/orig.xlf" "$tmp/shared/g.xlf"
    chmod 644 "$tmp/shared/in.xlf"
    chown nobody:daemon "$tmp/shared/g.xlf"
    chmod 664 "$tmp/shared/g.xlf"
    within "nobody translates over a 664 nobody:daemon output" 0 20 1000 \
      setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
      "$x" translate "$tmp/shared/in.xlf" -o "$tmp/shared/g.xlf" \
      --mt pseudo -q
    got=$(stat -c '%a %U %G' "$tmp/shared/g.xlf")
    want="604 nobody $(id -gn nobody)"
    check "its new group gets nothing: $want ($got)" test "$got" = "$want"
  else
    echo "# no setpriv, no user nobody outside daemon, or a build nobody cannot run: that check skipped"
  fi
fi

finish
