#!/bin/sh
# test_hostile_round11.sh: exit 0 means the output is right, for XLIFF
# as the tools that make it write it.
#   - XLIFF 1.2 <mrk mtype="protected"> (Trados's and memoQ's locked
#     text, Okapi's translate="no"), in a <source> and inside a
#     seg-source's segment: its text is kept as it is in the target,
#     the element one code (its text went to the engine and came back
#     translated, and the pseudo engine moved other words into it,
#     exit 0).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round11
x=$XLIFFMT

# An engine that writes each line in upper case.
cat >"$tmp/up.sh" <<'EOF'
#!/bin/sh
exec awk '{ print toupper($0); fflush() }'
EOF
chmod +x "$tmp/up.sh"

# x12 FILE UNITS: an XLIFF 1.2 document of UNITS (one line).
x12() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n%s\n' "$2"
    printf '</body></file></xliff>\n'
  } >"$1"
}
# target_is DESC FILE WANT: the first <target> of FILE, start tag aside,
# is WANT.
target_is() {
  got=$(LC_ALL=C sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p' "$2" |
    head -n 1)
  if [ "$got" = "$3" ]; then
    pass "$1"
  else
    fail "$1: target '$got', expected '$3'"
  fi
}

# --- <mrk mtype="protected">: text not to be translated.
x12 "$tmp/prot.xlf" '<trans-unit id="u1"><source>An <mrk mtype="protected">Acme Widget</mrk> for you.</source></trans-unit>'
within "protected mrk, upper case" 0 20 300 "$x" translate "$tmp/prot.xlf" \
  -o "$tmp/prot.up.xlf" -q --mt "cmd:$tmp/up.sh"
target_is "protected mrk, upper case: its text kept" "$tmp/prot.up.xlf" \
  'AN <mrk mtype="protected">Acme Widget</mrk> FOR YOU.'
within "protected mrk, pseudo" 0 20 300 "$x" translate "$tmp/prot.xlf" \
  -o "$tmp/prot.ps.xlf" -q --mt pseudo
check "protected mrk, pseudo: its text alone in it" sh -c \
  "grep -o '<target.*</target>' '$tmp/prot.ps.xlf' |
    grep -q -F '<mrk mtype=\"protected\">Acme Widget</mrk>'"
x12 "$tmp/seg.xlf" '<trans-unit id="u1"><source>Press the Start Button now.</source><seg-source><mrk mtype="seg" mid="1">Press the <mrk mtype="protected" mid="p1">Start Button</mrk> now.</mrk></seg-source><target><mrk mtype="seg" mid="1"/></target></trans-unit>'
within "protected mrk in a segment" 0 20 300 "$x" translate "$tmp/seg.xlf" \
  -o "$tmp/seg.up.xlf" -q --mt "cmd:$tmp/up.sh"
target_is "protected mrk in a segment: its text kept" "$tmp/seg.up.xlf" \
  '<mrk mtype="seg" mid="1">PRESS THE <mrk mtype="protected" mid="p1">Start Button</mrk> NOW.</mrk>'
within "protected mrk: check" 0 20 300 "$x" check "$tmp/prot.up.xlf"

finish
