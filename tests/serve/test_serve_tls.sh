#!/bin/sh
# test_serve_tls.sh: xliffmt serve over HTTPS (--tls-cert, --tls-key),
# with a self-signed certificate made here (openssl, else GnuTLS's
# certtool). curl --cacert gets APy's and DeepL's exact answers and
# /health; plain HTTP to the HTTPS port gets no answer; a key that is not
# the certificate's, a missing file, a file that is not PEM and one option
# without the other are each refused with their message and exit 1
# before the server listens. Plain HTTP off loopback: a warning without
# keys, refused with --auth-key-file unless --insecure, nothing said with
# HTTPS. Then deepl-node's translateText against https://127.0.0.1:PORT,
# the certificate given to Node by NODE_EXTRA_CA_CERTS.
# Env: XLIFFMT; XMT_DEEPL_NODE, a folder where deepl-node is installed
# already (node_modules/deepl-node). Exit 0 pass, 1 fail, 77 skip (no
# curl, neither openssl nor certtool; or no node or deepl-node, once the
# checks with curl have passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-tls
. "$(dirname "$0")/lib.sh"

if ! command -v openssl >/dev/null && ! command -v certtool >/dev/null; then
  echo "SKIP: neither openssl nor certtool installed (apt-get install openssl)"
  exit 77
fi
if ! make_cert a 127.0.0.1 || ! make_cert b other; then
  echo "# the certificates could not be made:"
  sed 's/^/#   /' "$tmp/cert.log"
  exit 1
fi
crt=$tmp/a.crt key=$tmp/a.key
echo "s3cret:fx" >"$tmp/keys"

# --- HTTPS with curl ------------------------------------------------------
# healthy DESC: /health over HTTPS, trusting the certificate: exactly the
# idle server's answer.
healthy() {
  expect "$1" 200 \
    '{"status":"ok","backend":"pseudo","workers":2,"busy":0,"queued":0}' \
    --cacert "$crt" "$url/health"
}
serve_start tls --mt pseudo -s en -t es --auth-key-file "$tmp/keys" \
  --tls-cert "$crt" --tls-key "$key" || exit 1
check "listening on https://" [ "${url%%:*}" = https ]
expect "APy /translate over HTTPS, byte-exact" 200 \
  '{"responseData": {"translatedText": "[réd Thé çár. ~~~~]"}, "responseDetails": null, "responseStatus": 200}' \
  --cacert "$crt" "$url/translate?langpair=eng|spa&q=The+red+car.&key=s3cret:fx"
expect "DeepL /v2/translate over HTTPS" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"[thé Préss búttóñ. <b>réd</b> ~~~~~~~]"}]}' \
  --cacert "$crt" "$url/v2/translate" \
  -H 'Authorization: DeepL-Auth-Key s3cret:fx' -d target_lang=ES \
  -d tag_handling=xml -d 'text=Press the <b>red</b> button.'
healthy "/health over HTTPS"
# Plain HTTP to the HTTPS port: the TLS layer takes the request for a bad
# handshake and closes the connection: no byte of an answer (curl: 52,
# empty reply).
: >"$tmp/body"
ask "http://127.0.0.1:$port/health"
check "plain HTTP to the HTTPS port: no answer" [ "$status" = 000 ]
check "  not a byte" [ ! -s "$tmp/body" ]
curl -s -o /dev/null "http://127.0.0.1:$port/health"
check "  curl: empty reply (exit 52)" [ $? -eq 52 ]
# A client that does not trust the certificate is refused by curl.
curl -s -o /dev/null "$url/health"
check "curl without --cacert: certificate not trusted (exit 60)" [ $? -eq 60 ]
healthy "the server still answers after them"
serve_stop
check "SIGTERM: exit 0" [ "$rc" -eq 0 ]

# --- Refused before listening ----------------------------------------------
# refused DESC MESSAGE ARGS...: serve ARGS exits 1 with exactly MESSAGE
# (lines) on stderr and never listens.
refused() {
  what=$1 message=$2
  shift 2
  if exits_with 1 "$what" "$XLIFFMT" serve --mt pseudo -s en -t es "$@"; then
    if [ "$(cat "$tmp/err")" = "$message" ] && [ ! -s "$tmp/out" ]; then
      pass "$what (exit 1)"
    else
      fail "$what: its message"
      echo "    expected: $message"
      sed 's/^/    got:      /' "$tmp/err"
    fi
  fi
}
# refused_tls DESC MESSAGE CERT KEY ARGS...: refused, on loopback with
# --tls-cert CERT --tls-key KEY.
refused_tls() {
  r_desc=$1 r_message=$2 r_cert=$3 r_key=$4
  shift 4
  refused "$r_desc" "$r_message" --listen 127.0.0.1:0 --tls-cert "$r_cert" \
    --tls-key "$r_key" "$@"
}
refused_tls "a key that is not the certificate's" \
  "xliffmt: $tmp/b.key: not the key of the certificate in $crt (--tls-key, --tls-cert)" \
  "$crt" "$tmp/b.key"
refused_tls "a missing certificate file" \
  "xliffmt: $tmp/none.crt: cannot open: No such file or directory" \
  "$tmp/none.crt" "$key"
refused_tls "a missing key file" \
  "xliffmt: $tmp/none.key: cannot open: No such file or directory" \
  "$crt" "$tmp/none.key"
refused_tls "a key given as the certificate" \
  "xliffmt: $key: no PEM certificate in it (--tls-cert)" \
  "$key" "$key"
refused_tls "a certificate given as the key" \
  "xliffmt: $crt: no PEM private key in it, or one with a password (--tls-key)" \
  "$crt" "$crt"
printf 'not PEM\n' >"$tmp/text.crt"
refused_tls "a certificate file that is not PEM" \
  "xliffmt: $tmp/text.crt: no PEM certificate in it (--tls-cert)" \
  "$tmp/text.crt" "$key"
refused "--tls-cert without --tls-key" \
  "xliffmt: --tls-cert needs --tls-key: give both for HTTPS
Try 'xliffmt serve --help'." --tls-cert "$crt"
refused "--tls-key without --tls-cert" \
  "xliffmt: --tls-key needs --tls-cert: give both for HTTPS
Try 'xliffmt serve --help'." --tls-key "$key"
refused_tls "--access-log onto the TLS key" \
  "xliffmt: $key: --access-log names the TLS key: it would be overwritten" \
  "$crt" "$key" --access-log "$key"
check "the key file left as it was" grep -q 'PRIVATE KEY-----$' "$key"

# --- Off loopback ----------------------------------------------------------
plain="is not a loopback address, and serve speaks plain HTTP"
refused "plain HTTP off loopback with keys: refused" \
  "xliffmt serve: --listen 0.0.0.0:0 $plain: the keys of --auth-key-file would cross the network in clear text (serve HTTPS with --tls-cert and --tls-key, or give --insecure)" \
  --listen 0.0.0.0:0 --auth-key-file "$tmp/keys"
# started NAME ARGS...: serve ARGS (off loopback) starts; stopped at once,
# its stderr in $tmp/NAME.err.
started() {
  name=$1
  shift
  "$XLIFFMT" serve --mt pseudo -s en -t es "$@" >"$tmp/$name.out" \
    2>"$tmp/$name.err" &
  any=$!
  servers="$servers $any"
  n=0
  until grep -q 'listening on' "$tmp/$name.err" 2>/dev/null ||
    ! kill -0 "$any" 2>/dev/null || [ $n -gt 100 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  kill -TERM "$any" 2>/dev/null
  wait "$any"
}
warning="xliffmt serve: warning: --listen 0.0.0.0:0 $plain: keys and texts cross the network in clear text (serve HTTPS with --tls-cert and --tls-key, or put a TLS proxy in front)"
started insecure --listen 0.0.0.0:0 --auth-key-file "$tmp/keys" --insecure
check "plain HTTP off loopback with keys and --insecure: the warning" \
  [ "$(sed -n 1p "$tmp/insecure.err")" = "$warning" ]
check "  and it listens" grep -q '^xliffmt serve: listening on http://0.0.0.0:' \
  "$tmp/insecure.err"
started nokeys --listen 0.0.0.0:0
check "plain HTTP off loopback without keys: the warning" \
  [ "$(sed -n 1p "$tmp/nokeys.err")" = "$warning" ]
started https --listen 0.0.0.0:0 --auth-key-file "$tmp/keys" \
  --tls-cert "$crt" --tls-key "$key"
# first_line FILE RE: FILE's first line is all RE.
first_line() { sed -n 1p "$1" | grep -qx "$2"; }
check "HTTPS off loopback with keys: no warning, it listens" first_line \
  "$tmp/https.err" \
  'xliffmt serve: listening on https://0\.0\.0\.0:[0-9]* (--mt pseudo, 2 workers)'

# --- deepl-node over HTTPS -------------------------------------------------
# Without node or deepl-node, the checks above stand: a skip only when
# they all passed.
if ! (node_package deepl-node "${XMT_DEEPL_NODE:-}" >"$tmp/node.log" &&
  echo "$lib" >"$tmp/node.lib"); then
  cat "$tmp/node.log"
  [ "$failed" -eq 0 ] || finish
  echo "$passed passed, $failed failed; deepl-node's checks skipped"
  exit 77
fi
lib=$(cat "$tmp/node.lib")
cat >"$tmp/client.js" <<'EOD'
// deepl-node against an HTTPS server; one answer a line.
const deepl = require('deepl-node');
const [url, key] = process.argv.slice(2);
const t = new deepl.Translator(key, { serverUrl: url, maxRetries: 0 });
(async () => {
  let r = await t.translateText('The red car.', 'en', 'es');
  console.log(JSON.stringify([r.text, r.detectedSourceLang]));
  r = await t.translateText('Press the <b>red</b> button.', 'en', 'es',
                            { tagHandling: 'xml' });
  console.log(JSON.stringify(r.text));
})().catch((e) => { console.error(String(e)); process.exit(1); });
EOD
serve_start node --mt pseudo -s en -t es --auth-key-file "$tmp/keys" \
  --tls-cert "$crt" --tls-key "$key" || exit 1
if NODE_PATH=$lib/node_modules NODE_EXTRA_CA_CERTS=$crt node \
  "$tmp/client.js" "$url" "s3cret:fx" >"$tmp/node.out" 2>"$tmp/node.err"; then
  check "deepl-node translateText over HTTPS" [ "$(cat "$tmp/node.out")" = \
    '["[réd Thé çár. ~~~~]","en"]
"[thé Préss búttóñ. <b>réd</b> ~~~~~~~]"' ]
else
  fail "deepl-node over HTTPS failed"
  sed 's/^/    /' "$tmp/node.err"
fi
# Without the certificate Node does not trust the server.
if NODE_PATH=$lib/node_modules node "$tmp/client.js" "$url" "s3cret:fx" \
  >"$tmp/node.out" 2>"$tmp/node.err"; then
  fail "deepl-node trusted a certificate it was not given"
else
  check "deepl-node without NODE_EXTRA_CA_CERTS: self-signed refused" \
    grep -q 'self-signed certificate' "$tmp/node.err"
fi
serve_stop
finish
