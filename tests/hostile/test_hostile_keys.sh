#!/bin/sh
# test_hostile_keys.sh: every segment keeps its own id, and merge drops
# nothing in silence. Two unit ids with one 64-bit XXH3 hash
# (u4a2c83b3319cdc1a, u0fe5941e9c2e45fe) are each their own key in
# extract, merge and translate, XLIFF 1.2 and 2; a '#' or '%' in a unit id
# is written %23 or %25 in its segment ids, so unit x#1 and unit x with
# mid 1#0 come and go as two segments. SDLXLIFF: locked="1", "True" and
# "TRUE" lock; a target that lacks one segment's mrk gets it; two
# segments with one mid are an error naming file, line and mid. merge: a
# translation whose id no segment has is an error naming the file, its
# line and the id, with nothing written; a UTF-8 BOM opening a TSV or
# JSON lines file is skipped.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-keys
x=$XLIFFMT
SOURCE_DATE_EPOCH=1795000000
export SOURCE_DATE_EPOCH

# same DESC FILE: FILE holds exactly the text on standard input.
same() {
  cat >"$tmp/expected"
  if cmp -s "$tmp/expected" "$2"; then
    pass "$1"
  else
    fail "$1"
    diff "$tmp/expected" "$2" | sed -n '1,10s/^/    /p'
  fi
}
absent() {
  if [ -e "$2" ]; then fail "$1: $2 written"; else pass "$1"; fi
}

head12='<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
file12() {
  printf '<file original="%s" source-language="en" target-language="es" datatype="plaintext"><body>\n' "$1"
}

# --- Two ids, one hash ------------------------------------------------------
{
  echo "$head12"
  file12 a
  echo '<trans-unit id="u4a2c83b3319cdc1a"><source>One.</source></trans-unit>'
  echo '</body></file>'
  file12 b
  echo '<trans-unit id="u0fe5941e9c2e45fe"><source>Two.</source></trans-unit>'
  echo '</body></file></xliff>'
} >"$tmp/coll.xlf"
within "extract: two ids of one hash" 0 20 400 \
  "$x" extract "$tmp/coll.xlf" --no-segment -o "$tmp/coll.tsv" -q
sed -i 1d "$tmp/coll.tsv" # the header aside
printf 'u4a2c83b3319cdc1a\tOne.\nu0fe5941e9c2e45fe\tTwo.\n' |
  same "each is its own id" "$tmp/coll.tsv"
# The translations keyed by the document's ids, the second file's first.
printf 'u0fe5941e9c2e45fe\tDos.\nu4a2c83b3319cdc1a\tUno.\n' >"$tmp/coll.es.tsv"
within "merge: two ids of one hash" 0 20 400 \
  "$x" merge "$tmp/coll.xlf" --no-segment --translations "$tmp/coll.es.tsv" \
  -o "$tmp/coll.es.xlf" -q
same "each translation on its own unit" "$tmp/coll.es.xlf" <<EOD
$head12
$(file12 a)
<trans-unit id="u4a2c83b3319cdc1a"><source>One.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Uno.</target></trans-unit>
</body></file>
$(file12 b)
<trans-unit id="u0fe5941e9c2e45fe"><source>Two.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Dos.</target></trans-unit>
</body></file></xliff>
EOD
printf '#!/bin/sh\nexit 3\n' >"$tmp/dead.sh"
chmod +x "$tmp/dead.sh"
within "translate: two ids of one hash, a dead engine" 3 20 400 \
  "$x" translate "$tmp/coll.xlf" --no-segment -o "$tmp/coll.out.xlf" -q \
  --mt "cmd:$tmp/dead.sh"
sed -n 's/ not translated:.*//p' "$tmp/err" >"$tmp/got"
same "translate names each by its own id" "$tmp/got" <<EOD
xliffmt: $tmp/coll.xlf:4: segment u4a2c83b3319cdc1a
xliffmt: $tmp/coll.xlf:7: segment u0fe5941e9c2e45fe
EOD

cat >"$tmp/coll2.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
<file id="f1"><unit id="u4a2c83b3319cdc1a"><segment id="s1"><source>One.</source></segment></unit></file>
<file id="f2"><unit id="u0fe5941e9c2e45fe"><segment id="s1"><source>Two.</source></segment></unit></file>
</xliff>
EOD
within "extract XLIFF 2: two ids of one hash" 0 20 400 \
  "$x" extract "$tmp/coll2.xlf" --no-segment -o "$tmp/coll2.tsv" -q
sed -i 1d "$tmp/coll2.tsv" # the header aside
printf 'u4a2c83b3319cdc1a\tOne.\nu0fe5941e9c2e45fe\tTwo.\n' |
  same "XLIFF 2: each is its own id" "$tmp/coll2.tsv"

# --- '#' and '%' in unit ids --------------------------------------------------
{
  echo "$head12"
  file12 a
  echo '<trans-unit id="x#1"><seg-source><mrk mtype="seg" mid="0">Alpha.</mrk></seg-source><source>Alpha.</source></trans-unit>'
  echo '<trans-unit id="x"><seg-source><mrk mtype="seg" mid="1#0">Beta.</mrk></seg-source><source>Beta.</source></trans-unit>'
  echo '<trans-unit id="y#1"><source>Gamma.</source></trans-unit>'
  echo '<trans-unit id="y"><seg-source><mrk mtype="seg" mid="1">Delta.</mrk></seg-source><source>Delta.</source></trans-unit>'
  echo '<trans-unit id="z%23"><seg-source><mrk mtype="seg" mid="0">Eps.</mrk></seg-source><source>Eps.</source></trans-unit>'
  echo '</body></file></xliff>'
} >"$tmp/hash.xlf"
within "extract: '#' in ids and mids" 0 20 400 \
  "$x" extract "$tmp/hash.xlf" --no-segment -o "$tmp/hash.tsv" -q
sed -i 1d "$tmp/hash.tsv" # the header aside
same "no id twice, '#' and '%' of a unit id escaped" "$tmp/hash.tsv" <<'EOD'
x%231#0	Alpha.
x#1#0	Beta.
y%231	Gamma.
y#1	Delta.
z%2523#0	Eps.
EOD
within "extract JSON lines: the same ids" 0 20 400 \
  "$x" extract "$tmp/hash.xlf" --no-segment --format jsonl -o "$tmp/hash.jsonl" -q
sed -i 1d "$tmp/hash.jsonl" # the header aside
cut -d'"' -f4 "$tmp/hash.jsonl" >"$tmp/got"
same "JSON lines ids" "$tmp/got" <<'EOD'
x%231#0
x#1#0
y%231
y#1
z%2523#0
EOD
sed 's/	\(.*\)\.$/	[\1]/' "$tmp/hash.tsv" >"$tmp/hash.es.tsv"
within "merge: '#' in ids and mids" 0 20 400 \
  "$x" merge "$tmp/hash.xlf" --no-segment --translations "$tmp/hash.es.tsv" \
  -o "$tmp/hash.es.xlf" -q
sed -n 's/.*<trans-unit id="\([^"]*\)">.*<target[^>]*>\(.*\)<\/target>.*/\1 \2/p' \
  "$tmp/hash.es.xlf" >"$tmp/got"
same "each translation on its own segment" "$tmp/got" <<'EOD'
x#1 <mrk mtype="seg" mid="0">[Alpha]</mrk>
x <mrk mtype="seg" mid="1#0">[Beta]</mrk>
y#1 [Gamma]
y <mrk mtype="seg" mid="1">[Delta]</mrk>
z%23 <mrk mtype="seg" mid="0">[Eps]</mrk>
EOD

# --- SDLXLIFF -------------------------------------------------------------------
sdl_head='<?xml version="1.0" encoding="utf-8"?><xliff xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0" xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2" sdl:version="1.0"><file original="a.docx" datatype="x-sdlfilterframework2" source-language="en-US" target-language="es-ES"><body>'
u1_src='<trans-unit id="u1"><source>One. Two. Three. Four. Five.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk> <mrk mtype="seg" mid="3">Three.</mrk> <mrk mtype="seg" mid="4">Four.</mrk> <mrk mtype="seg" mid="5">Five.</mrk></seg-source>'
u2_src='<trans-unit id="u2"><source>Six. Seven. Eight.</source><seg-source><mrk mtype="seg" mid="6">Six.</mrk> <mrk mtype="seg" mid="7">Seven.</mrk> <mrk mtype="seg" mid="8">Eight.</mrk></seg-source>'
u3_src='<trans-unit id="u3"><source>Nine.</source><seg-source><mrk mtype="seg" mid="9">Nine.</mrk></seg-source>'
d='conf="Draft" origin="mt" origin-system="xliffmt"'
cat >"$tmp/t.sdlxliff" <<EOD
$sdl_head
$u1_src<target><mrk mtype="seg" mid="1"/> <mrk mtype="seg" mid="2"/> <mrk mtype="seg" mid="3"/> <mrk mtype="seg" mid="4"/> <mrk mtype="seg" mid="5"/></target><sdl:seg-defs><sdl:seg id="1" locked="1"/><sdl:seg id="2" locked="True"/><sdl:seg id="3" locked=" TRUE "/><sdl:seg id="4" locked="0"/><sdl:seg id="5" locked="False"/></sdl:seg-defs></trans-unit>
$u2_src<target> <mrk mtype="seg" mid="7"/> </target><sdl:seg-defs><sdl:seg id="6"/><sdl:seg id="7"/><sdl:seg id="8"/></sdl:seg-defs></trans-unit>
$u3_src<target><mrk mtype="seg" mid="9">Nueve.</mrk></target><sdl:seg-defs><sdl:seg id="9" conf="Translated"/></sdl:seg-defs></trans-unit>
</body></file></xliff>
EOD
within "SDLXLIFF: locked variants, missing mrks" 0 20 400 \
  "$x" translate "$tmp/t.sdlxliff" --mt pseudo -o "$tmp/t.out.sdlxliff" -q
same "locked segments kept, missing mrks added" "$tmp/t.out.sdlxliff" <<EOD
$sdl_head
$u1_src<target><mrk mtype="seg" mid="1"/> <mrk mtype="seg" mid="2"/> <mrk mtype="seg" mid="3"/> <mrk mtype="seg" mid="4">[Fóúr. ~~]</mrk> <mrk mtype="seg" mid="5">[Fívé. ~~]</mrk></target><sdl:seg-defs><sdl:seg id="1" locked="1"/><sdl:seg id="2" locked="True"/><sdl:seg id="3" locked=" TRUE "/><sdl:seg id="4" locked="0" $d/><sdl:seg id="5" locked="False" $d/></sdl:seg-defs></trans-unit>
$u2_src<target> <mrk mtype="seg" mid="6">[Síx. ~~]</mrk> <mrk mtype="seg" mid="7">[Sévéñ. ~~]</mrk> <mrk mtype="seg" mid="8">[Éíght. ~~]</mrk></target><sdl:seg-defs><sdl:seg id="6" $d/><sdl:seg id="7" $d/><sdl:seg id="8" $d/></sdl:seg-defs></trans-unit>
$u3_src<target><mrk mtype="seg" mid="9">Nueve.</mrk></target><sdl:seg-defs><sdl:seg id="9" conf="Translated"/></sdl:seg-defs></trans-unit>
</body></file></xliff>
EOD
within "extract SDLXLIFF: locked segments left out" 0 20 400 \
  "$x" extract "$tmp/t.sdlxliff" -o "$tmp/t.tsv" -q
sed -i 1d "$tmp/t.tsv" # the header aside
printf 'u1#4\tFour.\nu1#5\tFive.\nu2#6\tSix.\nu2#7\tSeven.\nu2#8\tEight.\n' |
  same "only the open segments" "$tmp/t.tsv"

cat >"$tmp/dup.sdlxliff" <<EOD
$sdl_head
$u3_src<target><mrk mtype="seg" mid="9"/></target><sdl:seg-defs><sdl:seg id="9"/></sdl:seg-defs></trans-unit>
<trans-unit id="u4"><source>Ten. Eleven.</source><seg-source><mrk mtype="seg" mid="10">Ten.</mrk> <mrk mtype="seg" mid="10">Eleven.</mrk></seg-source><target><mrk mtype="seg" mid="10"/> <mrk mtype="seg" mid="10"/></target><sdl:seg-defs><sdl:seg id="10"/></sdl:seg-defs></trans-unit>
</body></file></xliff>
EOD
within "SDLXLIFF: two segments of one mid" 1 20 400 \
  "$x" translate "$tmp/dup.sdlxliff" --mt pseudo -o "$tmp/dup.out.sdlxliff" -q
same "says which unit, line and mid" "$tmp/err" <<EOD
xliffmt: $tmp/dup.sdlxliff:3:1: unit "u4": two segments of <seg-source> have mid "10"
EOD
absent "nothing written" "$tmp/dup.out.sdlxliff"
within "extract: two segments of one mid" 1 20 400 \
  "$x" extract "$tmp/dup.sdlxliff" -o "$tmp/dup.tsv" -q
sed -i 1d "$tmp/dup.tsv" # the header aside
absent "no segments written" "$tmp/dup.tsv"

# --- merge: ids of no segment, a byte order mark -------------------------------
{
  echo "$head12"
  file12 a
  echo '<trans-unit id="a"><source>One.</source></trans-unit>'
  echo '<trans-unit id="b"><source>Two.</source></trans-unit>'
  echo '</body></file></xliff>'
} >"$tmp/ab.xlf"
same_ab() {
  same "$1" "$2" <<EOD
$head12
$(file12 a)
<trans-unit id="a"><source>One.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Uno.</target></trans-unit>
<trans-unit id="b"><source>Two.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Dos.</target></trans-unit>
</body></file></xliff>
EOD
}
printf '\357\273\277a\tUno.\nb\tDos.\n' >"$tmp/bom.tsv"
within "merge: a TSV with a BOM" 0 20 400 \
  "$x" merge "$tmp/ab.xlf" --no-segment --translations "$tmp/bom.tsv" \
  -o "$tmp/bom.xlf" -q
same_ab "the first translation kept" "$tmp/bom.xlf"
printf '\357\273\277{"id":"a","text":"Uno."}\n{"id":"b","text":"Dos."}\n' \
  >"$tmp/bom.jsonl"
within "merge: JSON lines with a BOM" 0 20 400 \
  "$x" merge "$tmp/ab.xlf" --no-segment --translations "$tmp/bom.jsonl" \
  -o "$tmp/bom2.xlf" -q
same_ab "the first translation kept (JSON lines)" "$tmp/bom2.xlf"

printf 'a\tUno.\nb#0\tDos.\nb\tDos.\nzz\tZ.\n' >"$tmp/unknown.tsv"
within "merge: ids no segment has" 1 20 400 \
  "$x" merge "$tmp/ab.xlf" --no-segment --translations "$tmp/unknown.tsv" \
  -o "$tmp/unknown.xlf" -q
same "the translations file, line and ids named" "$tmp/err" <<EOD
xliffmt: $tmp/unknown.tsv:2: no segment of $tmp/ab.xlf to translate has id 'b#0', nor 'zz' (line 4)
EOD
absent "nothing written" "$tmp/unknown.xlf"
{
  printf 'a\tUno.\nb\tDos.\n'
  for i in $(seq 1 13); do printf 'n%d\tN.\n' "$i"; done
} >"$tmp/many.tsv"
within "merge: 13 ids no segment has" 1 20 400 \
  "$x" merge "$tmp/ab.xlf" --no-segment --translations "$tmp/many.tsv" \
  -o "$tmp/many.xlf" -q
same "ten named, the rest counted" "$tmp/err" <<EOD
xliffmt: $tmp/many.tsv:3: no segment of $tmp/ab.xlf to translate has id 'n1', nor 'n2' (line 4), 'n3' (line 5), 'n4' (line 6), 'n5' (line 7), 'n6' (line 8), 'n7' (line 9), 'n8' (line 10), 'n9' (line 11), 'n10' (line 12) and 3 more
EOD
absent "nothing written" "$tmp/many.xlf"
# The same segments as extract wrote them, all of them: no error.
within "extract then merge: every id asked" 0 20 400 \
  "$x" extract "$tmp/ab.xlf" -o "$tmp/ab.tsv" -q
sed -i 1d "$tmp/ab.tsv" # the header aside
sed 's/One/Uno/; s/Two/Dos/' "$tmp/ab.tsv" >"$tmp/ab.es.tsv"
within "merge of extract's ids" 0 20 400 \
  "$x" merge "$tmp/ab.xlf" --translations "$tmp/ab.es.tsv" -o "$tmp/ab.es.xlf" -q

finish
