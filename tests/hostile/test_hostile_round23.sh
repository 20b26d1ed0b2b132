#!/bin/sh
# test_hostile_round23.sh: exit 0 means the output is right: no
# translation lands under a unit of another language pair or document.
#   - translate of an XLIFF 1.2 document of two <file>s into two target
#     languages (target-language="ca", then "es"), a sentence in both:
#     each file's unit translated into its own language, the second
#     asked again (the run's table of translations so far gave the
#     second file the first's Catalan under xml:lang="es", exit 0);
#     a cache written by that run and read by the next gives the same.
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

finish
