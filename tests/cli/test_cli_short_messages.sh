#!/bin/sh
# test_cli_short_messages.sh -- placeholders of short software messages
# (Angular and Weblate style: "You have {count} new messages", "{n} hours
# ago", "Step {a} of {b}", a pair around a word) translated with Apertium
# eng-spa in the default tag mode: the exact targets, in XLIFF 2 (<ph/>,
# <pc>) and XLIFF 1.2 (<x/>, <g>); the same placement as --tags raw, where
# Apertium's own formatter carries the codes, but where a number the
# engine moves places a placeholder better ("{a} hours ago": raw leaves it
# before "Hace horas", the default puts it in "Hace {a} horas"); and every
# output passes `xliffmt check`. These are the reporting half of the
# messages the placement of short messages was tuned on.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no Apertium eng-spa).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup short
x=$XLIFFMT

if [ ! -r /usr/share/apertium/modes/eng-spa.mode ] ||
  ! command -v apertium-wblank-mode >/dev/null; then
  echo "SKIP: apertium with eng-spa not installed (apt-get install apertium-eng-spa)"
  exit 77
fi

# Each message: its source, then its exact target, in a notation of its
# own: {a} and {b} are placeholders, [ ] a pair. The words are Apertium's;
# the codes are where a Spanish speaker puts them but in "Actualizado {a}
# hace" (hace {a}), where the engine's own answer, with a number for the
# placeholder, says so too ("Actualizado 37 hace").
cat >"$tmp/messages" <<'EOF'
You have {a} unread notifications.
Tienes {a} unread notificaciones.
{a} shared a post.
{a} Compartido un poste.
Remove {a} from the list?
Saca {a} de la lista?
Updated {a} ago
Actualizado {a} hace
Step {a} of {b}
Paso {a} de {b}
{a} hours ago
Hace {a} horas
Good morning, {a}!
Buenos días, {a}!
Found {a} matches
Funda {a} partidos
{a} files deleted
{a} Las limas eliminaron
Do you want to save {a}?
Quieres salvar {a}?
Press [Enter] to search.
La prensa [Introduce] para buscar.
Logged in as {a}
Logged En como {a}
{a} likes
{a} Gusta
Created by {a}
Creado por {a}
Goodbye {a}
Adiós {a}
{a} of {b} tasks completed
{a} De {b} las tareas completaron
The file {a} was deleted.
La lima {a} estuvo eliminada.
Accept [the cookies] to continue.
Aceptar [las galletas] para continuar.
Your payment {a} was received.
Vuestro pago {a} estuvo recibido.
No results for {a}
Ningún resultado para {a}
{a} is online
{a} Es on-line
Open {a} in a new window
Abierto {a} en una ventana nueva
EOF
sources() { sed -n 'p;n' "$tmp/messages"; }
wanted() { sed -n 'n;p' "$tmp/messages"; }

# codes2 / codes12: the notation as XLIFF 2 or XLIFF 1.2 inline markup.
codes2() {
  sed -e 's|{a}|<ph id="1"/>|g' -e 's|{b}|<ph id="2"/>|g' \
    -e 's|\[|<pc id="3">|g' -e 's|\]|</pc>|g'
}
codes12() {
  sed -e 's|{a}|<x id="1"/>|g' -e 's|{b}|<x id="2"/>|g' \
    -e 's|\[|<g id="3">|g' -e 's|\]|</g>|g'
}

{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">'
  echo '<file id="f">'
  sources | codes2 | awk '{ printf "<unit id=\"m%d\"><segment><source>%s</source></segment></unit>\n", NR, $0 }'
  echo '</file>'
  echo '</xliff>'
} >"$tmp/msg2.xlf"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo '<file original="f" source-language="en" target-language="es" datatype="plaintext"><body>'
  sources | codes12 | awk '{ printf "<trans-unit id=\"m%d\"><source>%s</source></trans-unit>\n", NR, $0 }'
  echo '</body></file>'
  echo '</xliff>'
} >"$tmp/msg12.xlf"

# targets FILE: the targets of an output, one a line, in the notation.
targets() {
  grep -o '<target[^>]*>.*</target>' "$1" |
    sed -e 's/<target[^>]*>//' -e 's|</target>$||' \
      -e 's|<mrk mtype="seg" mid="[0-9]*">||g' -e 's|</mrk>||g' \
      -e 's|<ph id="1"/>|{a}|g' -e 's|<ph id="2"/>|{b}|g' \
      -e 's|<x id="1"/>|{a}|g' -e 's|<x id="2"/>|{b}|g' \
      -e 's|<pc id="3">|[|g' -e 's|</pc>|]|g' \
      -e 's|<g id="3">|[|g' -e 's|</g>|]|g'
}
# same DESC FILE EXPECTED: the file is exactly EXPECTED (a string).
same() {
  if [ "$(cat "$2")" = "$3" ]; then
    pass "$1"
  else
    fail "$1: got, then expected:"
    sed 's/^/    got:  /' "$2"
    printf '%s\n' "$3" | sed 's/^/    want: /'
  fi
}
checked() {
  expect_exit 0 "check $1" "$x" check "$2"
  grep -q ' 0 errors, 0 warnings' "$tmp/out" || fail "check $1: $(cat "$tmp/out")"
}

expected=$(wanted)
for v in 2 12; do
  in=$tmp/msg$v.xlf
  expect_exit 0 "XLIFF $v: translate" "$x" translate "$in" -o "$tmp/d$v.xlf" \
    --mt apertium:eng-spa -q --report "$tmp/d$v.json"
  targets "$tmp/d$v.xlf" >"$tmp/d$v.txt"
  same "XLIFF $v: the exact targets" "$tmp/d$v.txt" "$expected"
  checked "XLIFF $v output" "$tmp/d$v.xlf"
  expect_exit 0 "XLIFF $v: translate --tags raw" "$x" translate "$in" \
    -o "$tmp/r$v.xlf" --mt apertium:eng-spa --tags raw -q
  targets "$tmp/r$v.xlf" >"$tmp/r$v.txt"
  # raw places every code as the default does, but for "{a} hours ago"
  same "XLIFF $v: --tags raw places the codes as the default" "$tmp/r$v.txt" \
    "$(printf '%s\n' "$expected" | sed 's/^Hace {a} horas$/{a} Hace horas/')"
  # the stand-ins are probes: the 20 messages of placeholders only, each
  # asked once more (18 probes of words beside codes besides); where the
  # answer is the translation with its numbers, they place the codes (14)
  grep -q '"probe_requests":38,"probe_anchored_tags":25,' "$tmp/d$v.json" ||
    fail "XLIFF $v: probe counts: $(grep -o '"probe_[a-z_]*":[0-9]*' "$tmp/d$v.json" | tr '\n' ' ')"
done

finish
