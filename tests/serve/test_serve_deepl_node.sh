#!/bin/sh
# test_serve_deepl_node.sh: DeepL's own client library for Node.js,
# deepl-node (installed from the npm registry into the scratch folder),
# pointed at xliffmt serve with its serverUrl option: translateText of
# plain text, of XML with tagHandling 'xml' and ignoreTags, of an HTML
# fragment with tagHandling 'html', of several texts at once; the
# languages, the usage, and a wrong key (AuthorizationError). With the
# pseudo backend (exact answers), and with Apertium when installed. Over
# HTTP, then over HTTPS (a certificate made here, given to Node by
# NODE_EXTRA_CA_CERTS).
# Env: XLIFFMT; XMT_DEEPL_NODE, a folder where deepl-node is installed
# already (node_modules/deepl-node), to run without the registry.
# Exit 0 pass, 1 fail, 77 skip (no node or npm, deepl-node cannot be
# installed: no network; no openssl nor certtool, once the HTTP pass has
# passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-deepl-node
. "$(dirname "$0")/lib.sh"

node_package deepl-node "${XMT_DEEPL_NODE:-}"

cat >"$tmp/client.js" <<'EOD'
// The calls a DeepL user makes, each answer on a line of its own.
const deepl = require('deepl-node');
const [url, key] = process.argv.slice(2);
// minTimeout: deepl-node's 5 s is short for an engine's first answer on a
// loaded machine (or under sanitizers).
const opts = { serverUrl: url, maxRetries: 0, minTimeout: 120000 };
const t = new deepl.Translator(key, opts);
const say = (r) => console.log(JSON.stringify(r));
(async () => {
  let r = await t.translateText('The red car.', 'en', 'es');
  say([r.text, r.detectedSourceLang, r.billedCharacters]);
  r = await t.translateText('Press the <b>red</b> button<br/> now.', 'en',
                            'es', { tagHandling: 'xml' });
  say(r.text);
  r = await t.translateText('Run <code>make <b>all</b></code> and wait.', 'en',
                            'es', { tagHandling: 'xml', ignoreTags: ['code'] });
  say(r.text);
  r = await t.translateText('<p>The <a href="/x">new</a> house.</p>', 'en',
                            'es', { tagHandling: 'html' });
  say(r.text);
  r = await t.translateText(['The dog.', 'The cat.'], null, 'es');
  say(r.map((x) => x.text));
  say((await t.getSourceLanguages()).map((l) => l.code + ' ' + l.name));
  say((await t.getTargetLanguages()).map((l) => l.code + ' ' + l.name));
  const u = await t.getUsage();
  say([u.character.limit, u.anyLimitReached()]);
  try {
    await new deepl.Translator('wrong', opts)
        .translateText('x', 'en', 'es');
    say('no error');
  } catch (e) {
    say(e.constructor.name);
  }
})().catch((e) => { console.error(String(e)); process.exit(1); });
EOD

echo "s3cret:fx" >"$tmp/keys"
# client NAME: runs the calls against the server at $url, answers in
# $tmp/NAME.out.
client() {
  if NODE_PATH=$lib/node_modules node "$tmp/client.js" "$url" "s3cret:fx" \
    >"$tmp/$1.out" 2>"$tmp/$1.err"; then
    return 0
  fi
  fail "$1: deepl-node failed"
  sed 's/^/    /' "$tmp/$1.err"
  return 1
}
# line NAME N WANT: the N-th answer is WANT.
line() {
  got=$(sed -n "$2p" "$tmp/$1.out")
  if [ "$got" = "$3" ]; then pass "$1: $3"; else
    fail "$1, answer $2"
    echo "    expected: $3"
    echo "    got:      $got"
  fi
}

# sequence: the calls against the pseudo backend, then Apertium.
sequence() {
  serve_start pseudo --mt pseudo -s en -t es --auth-key-file "$tmp/keys" ||
    exit 1
  if client pseudo; then
    line pseudo 1 '["[réd Thé çár. ~~~~]","en",12]'
    line pseudo 2 '"[thé Préss búttóñ<br/> <b>réd</b> ñów. ~~~~~~~~]"'
    line pseudo 3 '"[<code>make <b>all</b></code>áñd Rúñ wáít. ~~~~~]"'
    line pseudo 4 '"<p>[<a href=\"/x\">ñéw</a> Thé hóúsé. ~~~~~]</p>"'
    line pseudo 5 '["[dóg. Thé ~~~]","[çát. Thé ~~~]"]'
    line pseudo 6 '["en English"]'
    line pseudo 7 '["es Spanish"]'
    line pseudo 8 '[1000000000000,false]'
    line pseudo 9 '"AuthorizationError"'
  fi
  serve_stop

  if [ -r /usr/share/apertium/modes/eng-spa.mode ] &&
    command -v apertium-wblank-mode >/dev/null; then
    serve_start apertium --mt apertium:eng-spa --auth-key-file "$tmp/keys" ||
      exit 1
    if client apertium; then
      line apertium 1 '["El coche rojo.","en",12]'
      line apertium 2 '"Prensa el botón<br/> <b>rojo</b> ahora."'
      line apertium 3 '"Carrera <code>make <b>all</b></code> y espera."'
      line apertium 4 '"<p>La casa <a href=\"/x\">nueva</a>.</p>"'
      line apertium 5 '["El perro.","El gato."]'
      line apertium 9 '"AuthorizationError"'
    fi
    serve_stop
  else
    echo "# Apertium eng-spa not installed: the pseudo backend only"
  fi
}
each_scheme sequence
finish
