#!/bin/sh
# test_serve_libre_node.sh: npm's libretranslate package (installed from
# the npm registry into the scratch folder) pointed at xliffmt serve with
# its apiurl option. It looks the source and the target up in
# /languages before it translates, and sends its key as apiKey: English
# to Spanish translated, a language the server lacks refused by the
# client itself, a keyed server reached with the key. Over HTTP, then over
# HTTPS (a certificate made here, given to Node by NODE_EXTRA_CA_CERTS).
# Env: XLIFFMT; XMT_LIBRE_NODE, a folder where the package is installed
# already (node_modules/libretranslate), to run without the registry.
# Exit 0 pass, 1 fail, 77 skip (no node or npm, the package cannot be
# installed: no network; no openssl nor certtool, once the HTTP pass has
# passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-libre-node
. "$(dirname "$0")/lib.sh"

node_package libretranslate "${XMT_LIBRE_NODE:-}"

cat >"$tmp/client.js" <<'EOD'
// translate() as its README calls it; the answer, or the error's message.
const { translate } = require('libretranslate');
const [url, source, target, key] = process.argv.slice(2);
translate({ query: 'The red car.', source, target, apiurl: url,
            apiKey: key || undefined })
    .then((r) => console.log(JSON.stringify(r)))
    .catch((e) => console.log('error: ' + e.message));
EOD
# client SOURCE TARGET [KEY]: the client's answer in $out.
client() {
  out=$(NODE_PATH=$lib/node_modules node "$tmp/client.js" "$url" "$@" \
    2>"$tmp/node.err")
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

echo "k3y" >"$tmp/keys"
# sequence: the client against a server, then a keyed one.
sequence() {
  serve_start plain --mt identity -s en -t es --threads 1 || exit 1
  client en es
  want "npm libretranslate: en to es" '"The red car."'
  client en de
  want "npm libretranslate: a target the server lacks" \
    'error: This language was not found/does not exist.'
  serve_stop

  serve_start keyed --mt identity -s en -t es --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  client en es k3y
  want "npm libretranslate: a keyed server, with the key" '"The red car."'
  serve_stop
}
each_scheme sequence
finish
