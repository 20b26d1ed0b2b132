#!/bin/sh
# test_serve_translate_node.sh: npm's translate package (installed from
# the npm registry into the scratch folder) with its two engines that a
# server of one's own can answer. The libre engine with its url option
# (POST of JSON with api_key), as its README sets it up; the deepl engine,
# whose URL is DeepL's own (api-free.deepl.com for a key ending in :fx):
# its request (a POST with auth_key, the languages and the text in the
# query) sent to xliffmt serve instead by a fetch that changes the host
# only. Over HTTP, then over HTTPS (a certificate made here, given to Node
# by NODE_EXTRA_CA_CERTS).
# Env: XLIFFMT; XMT_TRANSLATE_NODE, a folder where the package is
# installed already (node_modules/translate), to run without the registry.
# Exit 0 pass, 1 fail, 77 skip (no node or npm, the package cannot be
# installed: no network; no openssl nor certtool, once the HTTP pass has
# passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-translate-node
. "$(dirname "$0")/lib.sh"

node_package translate "${XMT_TRANSLATE_NODE:-}"

cat >"$tmp/client.mjs" <<'EOD'
// translate() as its README sets it up; the answer, or the error's message.
const [lib, url, engine, key, to] = process.argv.slice(2);
const { Translate } =
    await import(`${lib}/node_modules/translate/index.min.js`);
const real = globalThis.fetch;
// The deepl engine asks DeepL's own host: the same request, to url.
globalThis.fetch = (u, o) =>
    real(String(u).replace(/^https:\/\/api(-free)?\.deepl\.com/, url), o);
const t = Translate({ engine, key, url: `${url}/translate` });
t('The red car.', { from: 'en', to })
    .then((r) => console.log(JSON.stringify(r)))
    .catch((e) => console.log('error: ' + e.message));
EOD
# client ENGINE KEY TO: the client's answer in $out.
client() {
  out=$(node "$tmp/client.mjs" "$lib" "$url" "$@" 2>"$tmp/node.err")
}
# want DESC EXPECTED: the last answer is EXPECTED.
want() {
  if [ "$out" = "$2" ]; then
    pass "$1"
  else
    fail "$1"
    echo "    expected: $2"
    echo "    got:      $out"
    sed 's/^/#   /' "$tmp/node.err"
  fi
}

echo "k3y:fx" >"$tmp/keys"
# sequence: each engine against a keyed server.
sequence() {
  serve_start keyed --mt pseudo -s en -t es --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  client libre k3y:fx es
  want "npm translate, libre: en to es" '"[réd Thé çár. ~~~~]"'
  client libre wrong es
  want "npm translate, libre: a wrong key" 'error: Invalid API key'
  client deepl k3y:fx es
  want "npm translate, deepl: en to es" '"[réd Thé çár. ~~~~]"'
  client deepl wrong:fx es
  want "npm translate, deepl: a wrong key" \
    'error: Auth Error, please review the key for DeepL'
  client deepl k3y:fx de
  want "npm translate, deepl: a target the server lacks" 'error: Error 400'
  serve_stop
}
each_scheme sequence
finish
