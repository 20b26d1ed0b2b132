#!/bin/sh
# test_hostile_round23.sh: exit 0 means the output is right: no
# translation is taken from another language pair, engine or project.
#   - translate of an XLIFF 1.2 document of two <file>s into two target
#     languages (target-language="ca", then "es"), a sentence in both:
#     each file's unit translated into its own language, the second
#     asked again (the run's table of translations so far gave the
#     second file the first's Catalan under xml:lang="es", exit 0);
#     a cache written by that run and read by the next gives the same.
#   - batch into a tree that a batch of other settings wrote (-t es,
#     then -t fr; another --mt-option): every document translated again,
#     its target in French (they were "up to date", the Spanish outputs
#     kept, exit 0); the same settings again, or others that change no
#     output (-j, --timeout, -q), find them up to date. A tree an earlier
#     version wrote (no .xliffmt-settings) keeps its outputs.
#   - translate of two projects, each with its own engine "cmd:./mt.sh",
#     sharing a --cache: each document gets its own engine's answer (the
#     second took the first project's from the cache, exit 0: the key
#     held the command as written, not where it runs); a rerun in one
#     project sends nothing. So for batch: the tree project A's engine
#     wrote is translated again by project B's.
#   - translate run in a working directory that was removed, naming a
#     new output by a relative path (-o ../new.xlf): written, exit 0 (the
#     check of the output's name recursed without end: SIGSEGV).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round23
x=$XLIFFMT

# --- Two <file>s of two target languages, one sentence in both.
if command -v apertium >/dev/null 2>&1 &&
  apertium -l 2>/dev/null | grep -qx '[[:space:]]*eng-spa' &&
  apertium -l 2>/dev/null | grep -qx '[[:space:]]*eng-cat'; then
  cat >"$tmp/pair.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="ca" datatype="plaintext"><body>
<trans-unit id="u1"><source>The house is big.</source></trans-unit>
</body></file>
<file original="b" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="u1"><source>The house is big.</source></trans-unit>
</body></file>
</xliff>
EOD
  q=' state="needs-review-translation" state-qualifier="mt-suggestion"'
  for run in first cached; do
    within "translate, two files into ca and es ($run run)" 0 60 600 \
      "$x" translate "$tmp/pair.xlf" --mt apertium -o "$tmp/pair.$run.xlf" \
      --cache "sqlite:$tmp/pair.db" -q
    check "translate, two files into ca and es ($run run): Catalan" \
      grep -qF "<target xml:lang=\"ca\"$q>La casa és gran.</target>" \
      "$tmp/pair.$run.xlf"
    check "translate, two files into ca and es ($run run): Spanish" \
      grep -qF "<target xml:lang=\"es\"$q>La casa es grande.</target>" \
      "$tmp/pair.$run.xlf"
  done
else
  echo "SKIP: two files into two languages (no apertium eng-spa and eng-cat)"
fi

# --- batch over a tree of other settings.
mkdir "$tmp/bi"
sed 's/ target-language="es"//' >"$tmp/bi/a.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="u1"><source>Hello world.</source></trans-unit>
</body></file></xliff>
EOD
# batched DESC TGT SUMMARY [OPTION...]: batch of bi into bo with -t TGT;
# SUMMARY the documents translated and up to date; the target in TGT.
batched() {
  b_desc=$1 b_tgt=$2 b_want=$3
  shift 3
  within "batch, $b_desc" 0 30 500 "$x" batch "$tmp/bi" -o "$tmp/bo" \
    --mt pseudo -t "$b_tgt" "$@"
  check "batch, $b_desc: $b_want" grep -qF \
    "batch: 1 documents, $b_want, 0 with untranslated" "$tmp/err"
  check "batch, $b_desc: the target in $b_tgt" \
    grep -qF "<target xml:lang=\"$b_tgt\"" "$tmp/bo/a.xlf"
}
batched "into es" es "1 translated, 0 up to date"
batched "into es again" es "0 translated, 1 up to date"
batched "into fr over the es tree" fr "1 translated, 0 up to date"
batched "into fr again, -j 2 --timeout 9" fr "0 translated, 1 up to date" \
  -j 2 --timeout 9
batched "into fr, another --mt-option" fr "1 translated, 0 up to date" \
  --mt-option accents=no
check "batch: the settings written" test "$(cat "$tmp/bo/.xliffmt-settings")" \
  = "# the options this output tree was translated with (xliffmt batch)
--mt pseudo
--mt-option accents=no
--target-lang fr"
rm "$tmp/bo/.xliffmt-settings"
batched "into fr, a tree without settings" fr "0 translated, 1 up to date"

# --- Two projects' ./mt.sh, one cache.
for p in A B; do
  mkdir "$tmp/p$p"
  printf '#!/bin/sh\nwhile IFS= read -r l; do printf "%s %%s\\n" "$l"; done\n' \
    "$p" >"$tmp/p$p/mt.sh"
  chmod +x "$tmp/p$p/mt.sh"
  cp "$tmp/bi/a.xlf" "$tmp/p$p/a.xlf"
done
for p in A B A; do
  cd "$tmp/p$p" || exit 99
  within "translate in project $p, cmd:./mt.sh, a shared cache" 0 30 500 \
    "$x" translate a.xlf --mt cmd:./mt.sh -t es --probes off \
    --cache "sqlite:$tmp/shared.db" -o o.xlf
  check "translate in project $p: its own engine's answer" \
    grep -qF ">$p Hello world.</target>" "$tmp/p$p/o.xlf"
done
check "translate in project A again: nothing sent" grep -qF \
  '0 segments sent to cmd in 0 calls' "$tmp/err"
# batch likewise: the tree project A's engine wrote is not B's.
for p in A B; do
  cd "$tmp/p$p" || exit 99
  within "batch in project $p, cmd:./mt.sh, one output tree" 0 30 500 \
    "$x" batch a.xlf --mt cmd:./mt.sh -t es --probes off -o "$tmp/po"
  check "batch in project $p: its own engine's answer" \
    grep -qF ">$p Hello world.</target>" "$tmp/po/a.xlf"
done
cd "$tmp" || exit 99

# --- A working directory that was removed.
mkdir "$tmp/gone"
cd "$tmp/gone" && rmdir "$tmp/gone" || exit 99
within "translate in a removed folder, -o ../new.xlf" 0 30 500 \
  "$x" translate ../bi/a.xlf --mt pseudo -t es -o ../new.xlf -q
check "translate in a removed folder: written" \
  grep -qF '<target xml:lang="es"' "$tmp/new.xlf"
cd "$tmp" || exit 99

finish
