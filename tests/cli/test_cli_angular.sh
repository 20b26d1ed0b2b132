#!/bin/sh
# test_cli_angular.sh: the Angular round trip. A small compiled app's
# $localize messages (a placeholder, start and close tag placeholders, a
# one-word message, ICU plural and select messages, one nested in a
# plural's case, a sentence wrapped over lines: one sentence to the
# engine) are extracted with Angular's localize-extract as XLIFF 2
# and XLIFF 1.2, translated with xliffmt and Apertium eng-spa (exact
# targets: the ICU syntax kept, its case bodies translated), checked with
# `xliffmt check`, and made into the Spanish bundle with
# localize-translate, whose exact lines node runs. npm's @angular/localize,
# @angular/compiler and typescript (which localize-extract needs) are
# installed once into $XLIFFMT_CACHE_DIR/npm-angular (make check sets it).
# Env: XLIFFMT, XLIFFMT_CACHE_DIR; XMT_ANGULAR_NODE, a folder where those
# packages are installed already, to run without the registry.
# Exit 0 pass, 1 fail, 77 skip (no node or npm, no registry, or no
# Apertium eng-spa).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup angular
x=$XLIFFMT

if [ ! -r /usr/share/apertium/modes/eng-spa.mode ]; then
  echo "SKIP: apertium with eng-spa not installed (apt-get install apertium-eng-spa)"
  exit 77
fi
keep=
[ -n "${XLIFFMT_CACHE_DIR:-}" ] && keep=$XLIFFMT_CACHE_DIR/npm-angular
node_package "@angular/localize @angular/compiler typescript" \
  "${XMT_ANGULAR_NODE:-}" "$keep"
bin=$lib/node_modules/.bin

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

# The app as Angular's compiler leaves it: $localize tagged templates, an
# ICU message's variable as VAR_PLURAL / VAR_SELECT text.
mkdir "$tmp/app"
cat >"$tmp/app/main.js" <<'EOD'
const userName = 'Ann', count = 3;
console.log($localize`:@@welcome:Welcome to our online shop, ${userName}:USER_NAME:!`);
console.log($localize`:@@save:Save`);
console.log($localize`:@@bold:Click ${'<b>'}:START_BOLD_TEXT:here${'</b>'}:CLOSE_BOLD_TEXT: to save.`);
console.log($localize`:@@items:{VAR_PLURAL, plural, =0 {no items} =1 {one item} other {${count}:INTERPOLATION: items}}`);
console.log($localize`:@@reply:{VAR_SELECT, select, male {He replied} female {She replied} other {They replied}}`);
console.log($localize`:@@came:{VAR_PLURAL, plural, =0 {Nobody came} other {{VAR_SELECT, select, male {He came} female {She came} other {They came}}}}`);
console.log($localize`:@@long:The quick brown
      fox jumps over the lazy dog.`);
EOD

# The Spanish bundle, the same from either format.
want_js='const userName="Ann",count=3
console.log("Bienvenido a nuestra tienda on-line, "+userName+"!")
console.log("Salva")
console.log("Clic "+"<b>"+"aqu\xED"+"</b>"+" para salvar.")
console.log("{VAR_PLURAL, plural, =0 {Ning\xFAn elemento} =1 {Un elemento} other {{INTERPOLATION} Elementos}}")
console.log("{VAR_SELECT, select, male {Respondi\xF3} female {Respondi\xF3} other {Respondieron}}")
console.log("{VAR_PLURAL, plural, =0 {Nadie vino} other {{VAR_SELECT, select, male {Vino} female {Vino} other {Vinieron}}}}")
console.log("El zorro marr\xF3n r\xE1pido salta el perro perezoso.")'
want_run='Bienvenido a nuestra tienda on-line, Ann!
Salva
Clic <b>aquí</b> para salvar.
{VAR_PLURAL, plural, =0 {Ningún elemento} =1 {Un elemento} other {{INTERPOLATION} Elementos}}
{VAR_SELECT, select, male {Respondió} female {Respondió} other {Respondieron}}
{VAR_PLURAL, plural, =0 {Nadie vino} other {{VAR_SELECT, select, male {Vino} female {Vino} other {Vinieron}}}}
El zorro marrón rápido salta el perro perezoso.'

# format name expected-targets
round_trip() {
  fmt=$1 name=$2 want_targets=$3
  if ! (cd "$tmp" && "$bin/localize-extract" -r . -s 'app/*.js' -f "$fmt" \
    -o "$name.xlf" -l en) >"$tmp/ng.log" 2>&1; then
    fail "localize-extract -f $fmt"
    sed -n '1,5s/^/    /p' "$tmp/ng.log"
    return
  fi
  pass "localize-extract -f $fmt"
  expect_exit 0 "translate $name" "$x" translate "$tmp/$name.xlf" \
    -o "$tmp/$name.es.xlf" -t es --mt apertium:eng-spa -q || return
  grep -o '<target[^>]*>.*</target>' "$tmp/$name.es.xlf" |
    sed -e 's/<target[^>]*>//' -e 's|</target>$||' >"$tmp/got"
  same "$name targets" "$tmp/got" "$want_targets"
  expect_exit 0 "check $name" "$x" check "$tmp/$name.es.xlf"
  grep -q ' 0 errors, 0 warnings' "$tmp/out" ||
    fail "check $name: $(cat "$tmp/out")"
  if ! "$bin/localize-translate" -r "$tmp/app" -s '*.js' \
    -t "$tmp/$name.es.xlf" -o "$tmp/dist/$name" -m error \
    >"$tmp/ng.log" 2>&1; then
    fail "localize-translate $name"
    sed -n '1,5s/^/    /p' "$tmp/ng.log"
    return
  fi
  pass "localize-translate $name"
  tr ';' '\n' <"$tmp/dist/$name/main.js" | sed '/^$/d' >"$tmp/got"
  same "$name: the Spanish bundle" "$tmp/got" "$want_js"
  if node "$tmp/dist/$name/main.js" >"$tmp/got" 2>"$tmp/node.err"; then
    same "$name: node runs the bundle" "$tmp/got" "$want_run"
  else
    fail "$name: node runs the bundle: $(head -3 "$tmp/node.err")"
  fi
}

round_trip xliff2 messages2 "$(cat <<'EOD'
Bienvenido a nuestra tienda on-line, <ph id="0" equiv="USER_NAME" disp="userName"/>!
Salva
Clic <pc id="0" equivStart="START_BOLD_TEXT" equivEnd="CLOSE_BOLD_TEXT" type="fmt" dispStart="&apos;&lt;b&gt;&apos;" dispEnd="&apos;&lt;/b&gt;&apos;">aquí</pc> para salvar.
{VAR_PLURAL, plural, =0 {Ningún elemento} =1 {Un elemento} other {<ph id="0" equiv="INTERPOLATION" disp="count"/> Elementos}}
{VAR_SELECT, select, male {Respondió} female {Respondió} other {Respondieron}}
{VAR_PLURAL, plural, =0 {Nadie vino} other {{VAR_SELECT, select, male {Vino} female {Vino} other {Vinieron}}}}
El zorro marrón rápido salta el perro perezoso.
EOD
)"

round_trip xlf messages12 "$(cat <<'EOD'
Bienvenido a nuestra tienda on-line, <x id="USER_NAME" equiv-text="userName"/>!
Salva
Clic <x id="START_BOLD_TEXT" ctype="x-b" equiv-text="&apos;&lt;b&gt;&apos;"/>aquí<x id="CLOSE_BOLD_TEXT" ctype="x-b" equiv-text="&apos;&lt;/b&gt;&apos;"/> para salvar.
{VAR_PLURAL, plural, =0 {Ningún elemento} =1 {Un elemento} other {<x id="INTERPOLATION" equiv-text="count"/> Elementos}}
{VAR_SELECT, select, male {Respondió} female {Respondió} other {Respondieron}}
{VAR_PLURAL, plural, =0 {Nadie vino} other {{VAR_SELECT, select, male {Vino} female {Vino} other {Vinieron}}}}
El zorro marrón rápido salta el perro perezoso.
EOD
)"

finish
