#!/bin/sh
# test_serve_document_node.sh: DeepL's own client library for Node.js,
# deepl-node (installed from the npm registry into the scratch folder),
# translating whole files through xliffmt serve's document API with
# translateDocument: an XLIFF 1.2 file, an HTML page and an SDLXLIFF
# file, each written byte for byte as `xliffmt translate` writes it with
# the same engine, with the status deepl-node reports (done, billed
# characters); a document the filter refuses is deepl-node's
# DocumentTranslationError with the filter's message. Over HTTP, then over
# HTTPS (a certificate made here, given to Node by NODE_EXTRA_CA_CERTS).
# Env: XLIFFMT; XMT_DEEPL_NODE, a folder where deepl-node is installed
# already (node_modules/deepl-node), to run without the registry.
# Exit 0 pass, 1 fail, 77 skip (no node or npm, deepl-node cannot be
# installed: no network; no openssl nor certtool, once the HTTP pass has
# passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-document-node
. "$(dirname "$0")/lib.sh"

node_package deepl-node "${XMT_DEEPL_NODE:-}"
fx=$(cd "$(dirname "$0")/../fixtures/serve-document" && pwd)

cat >"$tmp/client.js" <<'EOD'
// translateDocument of each file named into OUT/NAME, as a DeepL user
// calls it; the status it gives (or its error), a line each.
const deepl = require('deepl-node');
const [url, key, out, ...files] = process.argv.slice(2);
const t = new deepl.Translator(key, { serverUrl: url, maxRetries: 0 });
(async () => {
  for (const f of files) {
    const name = f.split('/').pop();
    try {
      const s = await t.translateDocument(f, `${out}/${name}`, 'en', 'es');
      console.log(JSON.stringify([name, s.status, s.billedCharacters]));
    } catch (e) {
      console.log(JSON.stringify([name, e.constructor.name, e.message]));
    }
  }
})().catch((e) => { console.error(String(e)); process.exit(1); });
EOD

# billed FILE: the characters DeepL bills for FILE: its text to translate,
# not its markup. guide.xlf: "Press the red button now." 25, "You have
# new messages." 23 (the code's two spaces kept), "The old house is big."
# 21 and "The dog sleeps." 15 (the space between the sentences, and the
# unit translate="no", not counted); page.html: "The new house" twice
# (title, heading) 26, "Open the red door and wait." 27, "The dog & the
# cat sleep." 24, "The end." 8; report.sdlxliff: "The small garden is
# green." 26, "The house is old." 17; notes.xlf: "The blue car is fast."
# 21, "You have  items." 16.
billed() {
  case ${1##*/} in
  guide.xlf) echo 84 ;; page.html) echo 85 ;;
  report.sdlxliff) echo 43 ;; notes.xlf) echo 37 ;;
  esac
}

echo "s3cret:fx" >"$tmp/keys"
# sequence: the four files through a server, then the server stopped.
sequence() {
  rm -rf "$tmp/out"
  mkdir "$tmp/out"
  serve_start node --mt pseudo -s en-US -t es-ES --auth-key-file "$tmp/keys" \
    --document-dir "$tmp" || exit 1
  # A broken XLIFF: what the filter says of it, less the program's name.
  "$XLIFFMT" translate "$fx/broken.xlf" --mt pseudo -s en-US -t es-ES -q \
    -o "$tmp/broken.out" 2>"$tmp/broken.err"
  why=$(sed "s|^xliffmt: $fx/||" "$tmp/broken.err")
  if NODE_PATH=$lib/node_modules timeout 120 node "$tmp/client.js" "$url" \
    "s3cret:fx" "$tmp/out" "$fx/guide.xlf" "$fx/page.html" \
    "$fx/report.sdlxliff" "$fx/broken.xlf" >"$tmp/node.out" 2>"$tmp/node.err"; then
    pass "deepl-node ran"
  else
    fail "deepl-node failed"
    sed 's/^/    /' "$tmp/node.err"
  fi
  n=0
  for f in guide.xlf page.html report.sdlxliff; do
    n=$((n + 1))
    want="[\"$f\",\"done\",$(billed "$f")]"
    got=$(sed -n "${n}p" "$tmp/node.out")
    [ "$got" = "$want" ] && pass "$f: status done" ||
      fail "$f: expected $want, got $got"
    "$XLIFFMT" translate "$fx/$f" --mt pseudo -s en-US -t es-ES -q \
      -o "$tmp/want.$f"
    if cmp -s "$tmp/out/$f" "$tmp/want.$f"; then
      pass "$f: deepl-node wrote what translate writes"
    else
      fail "$f: deepl-node's file differs from translate's"
      diff "$tmp/out/$f" "$tmp/want.$f" | sed -n '1,10s/^/    /p'
    fi
  done
  want="[\"broken.xlf\",\"DocumentTranslationError\",\"Error occurred while translating document: $why\"]"
  got=$(sed -n 4p "$tmp/node.out")
  [ "$got" = "$want" ] && pass "broken.xlf: DocumentTranslationError, the filter's message" ||
    fail "broken.xlf: expected $want, got $got"
  [ ! -e "$tmp/out/broken.xlf" ] && pass "broken.xlf: no file written" ||
    fail "broken.xlf: a file written"
  serve_stop
  [ "$rc" -eq 0 ] && [ -z "$(ls -d "$tmp"/xliffmt-serve-* 2>/dev/null)" ] &&
    pass "stopped, its folder gone" || fail "stopped with $rc"
}
each_scheme sequence
finish
