#!/bin/sh
# test_serve_document.sh: DeepL's document API with curl. An XLIFF 1.2,
# an HTML page, an SDLXLIFF and an XLIFF 2 file are uploaded to
# /v2/document, their status asked until done, and their download is
# byte for byte what `xliffmt translate` writes with the same engine;
# the download deletes the document (a second one is 404). Refusals in
# DeepL's shape: a wrong document_key, another API key, an unknown id, a
# file over --max-document-size (413), no file, a document the filter
# refuses (status error with the filter's message, result 503), more
# documents than --max-documents (429); finished documents expire after
# --document-expiry; files live only in the server's own folder (0700,
# names its own, never the client's), which is gone after the server
# stops.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-document
. "$(dirname "$0")/lib.sh"

fx=$(cd "$(dirname "$0")/../fixtures/serve-document" && pwd)
printf 's3cret:fx\nother:fx\n' >"$tmp/keys"
mkdir "$tmp/docs"
auth='Authorization: DeepL-Auth-Key s3cret:fx'
notfound='{"message":"Document not found."}'

# upload FILE CURL-ARGS...: POST /v2/document with FILE as file, EN to
# ES; its id and key in $id and $key when the answer is 200.
upload() {
  file=$1
  shift
  ask "$url/v2/document" -H "$auth" -F "file=@$file" -F source_lang=EN \
    -F target_lang=ES "$@"
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]\{32\}\)","document_key":"\([0-9A-F]\{64\}\)"}$/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]\{32\}\)","document_key":"\([0-9A-F]\{64\}\)"}$/\2/p')
}
# finished: asks the status of $id until it is no longer queued or
# translating (at most 20 s); the last answer in $status and $body.
finished() {
  n=0
  while [ $n -lt 200 ]; do
    ask "$url/v2/document/$id" -H "$auth" -d "document_key=$key"
    case $body in
    *'"status":"queued"'* | *'"status":"translating"'*) ;;
    *) return 0 ;;
    esac
    sleep 0.1
    n=$((n + 1))
  done
}
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
# folder: the server's own folder of documents.
folder() { ls -d "$tmp"/docs/xliffmt-serve-* 2>/dev/null; }

serve_start docs --mt pseudo -s en-US -t es-ES --auth-key-file "$tmp/keys" \
  --max-document-size 4K --document-dir "$tmp/docs" --drain-timeout 1 || exit 1

# --- Each format, as translate writes it ----------------------------------
for f in guide.xlf page.html report.sdlxliff notes.xlf; do
  "$XLIFFMT" translate "$fx/$f" --mt pseudo -s en-US -t es-ES -q \
    -o "$tmp/want.$f"
  upload "$fx/$f"
  if [ "$status" != 200 ] || [ -z "$id" ]; then
    fail "$f: upload: $status $body"
    continue
  fi
  pass "$f: uploaded, id and key as DeepL's"
  finished
  want="{\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":$(billed "$f")}"
  if [ "$status $body" = "200 $want" ]; then pass "$f: status done"; else
    fail "$f: status"
    echo "    expected: 200 $want"
    echo "    got:      $status $body"
  fi
  # Kept under the server's own name, readable by the server only.
  d=$(folder)
  if [ "$(ls "$d")" = "$id.out" ] &&
    [ "$(stat -c %a "$d" "$d/$id.out" | tr '\n' ' ')" = "700 600 " ]; then
    pass "$f: kept as $id.out in a folder of its own (0700, 0600)"
  else
    fail "$f: the server's folder: $(ls -l "$d")"
  fi
  ask "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"
  case $f in *.html) type=text/html ;; *) type=application/xliff+xml ;; esac
  if [ "$status" = 200 ] && cmp -s "$tmp/body" "$tmp/want.$f" &&
    [ "$(header Content-Type)" = "$type" ] &&
    [ "$(header Content-Disposition)" = "attachment; filename=\"$f\"" ]; then
    pass "$f: result is translate's, $type"
  else
    fail "$f: result $status $(header Content-Type) $(header Content-Disposition)"
    diff "$tmp/body" "$tmp/want.$f" | sed -n '1,10s/^/    /p'
  fi
  [ -z "$(ls "$(folder)")" ] && pass "$f: deleted once downloaded" ||
    fail "$f: left after its download: $(ls "$(folder)")"
  expect "$f: a second download is 404" 404 "$notfound" \
    "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"
done

# A Word document: translated as translate translates it (the package's
# entries the same but for the zip's times), given back as Word.
if command -v python3 >/dev/null 2>&1; then
  word_py="python3 $(cd "$(dirname "$0")/../cli" && pwd)/word_docx.py"
  $word_py make "$tmp/doc.docx" || exit 99
  "$XLIFFMT" translate "$tmp/doc.docx" --mt pseudo -s en-US -t es-ES -q \
    -o "$tmp/want.docx"
  upload "$tmp/doc.docx"
  finished
  ask "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"
  type=application/vnd.openxmlformats-officedocument.wordprocessingml.document
  cp "$tmp/body" "$tmp/got.docx"
  if [ "$status" = 200 ] && [ "$(header Content-Type)" = "$type" ] &&
    python3 -c 'import sys, zipfile
a, b = (zipfile.ZipFile(f) for f in sys.argv[1:3])
sys.exit(a.namelist() != b.namelist() or
         any(a.read(n) != b.read(n) for n in a.namelist()))' \
      "$tmp/got.docx" "$tmp/want.docx"; then
    pass "doc.docx: result is translate's, $type"
  else
    fail "doc.docx: result $status $(header Content-Type)"
  fi
fi

# An OpenDocument text: the same, given back as OpenDocument.
if command -v python3 >/dev/null 2>&1; then
  odt_py="python3 $(cd "$(dirname "$0")/../cli" && pwd)/odt_odt.py"
  $odt_py make "$tmp/doc.odt" || exit 99
  "$XLIFFMT" translate "$tmp/doc.odt" --mt pseudo -s en-US -t es-ES -q \
    -o "$tmp/want.odt"
  upload "$tmp/doc.odt"
  finished
  ask "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"
  type=application/vnd.oasis.opendocument.text
  cp "$tmp/body" "$tmp/got.odt"
  if [ "$status" = 200 ] && [ "$(header Content-Type)" = "$type" ] &&
    python3 -c 'import sys, zipfile
a, b = (zipfile.ZipFile(f) for f in sys.argv[1:3])
sys.exit(a.namelist() != b.namelist() or "Sóúp".encode() not in a.read("content.xml")
         or any(a.read(n) != b.read(n) for n in a.namelist()))' \
      "$tmp/got.odt" "$tmp/want.odt"; then
    pass "doc.odt: result is translate's, $type"
  else
    fail "doc.odt: result $status $(header Content-Type)"
  fi
fi

# --- Keys and ids ---------------------------------------------------------
upload "$fx/guide.xlf"
finished
expect "wrong document_key: 404" 404 "$notfound" \
  "$url/v2/document/$id" -H "$auth" -d "document_key=0$key"
# The key with its last digit changed (to 1 when it is a 0).
case $key in *0) wrong=${key%?}1 ;; *) wrong=${key%?}0 ;; esac
expect "wrong document_key on result: 404" 404 "$notfound" \
  "$url/v2/document/$id/result" -H "$auth" -d "document_key=$wrong"
expect "another API key: 404" 404 "$notfound" \
  "$url/v2/document/$id" -H 'Authorization: DeepL-Auth-Key other:fx' -d "document_key=$key"
expect "no API key: 403" 403 \
  '{"message":"Authorization failed. Please supply a valid auth_key."}' \
  "$url/v2/document/$id" -d "document_key=$key"
expect "no document_key: 400" 400 \
  "{\"message\":\"Parameter 'document_key' not specified.\"}" \
  "$url/v2/document/$id" -H "$auth" -d "x=1"
expect "unknown id: 404" 404 "$notfound" \
  "$url/v2/document/0123456789ABCDEF0123456789ABCDEF" -H "$auth" \
  -d "document_key=$key"
expect "an id that is not one: 404" 404 "$notfound" \
  "$url/v2/document/NOT-AN-ID" -H "$auth" -d "document_key=$key"
expect "a path in the id: 404" 404 '{"message":"Not found"}' \
  "$url/v2/document/..%2f..%2fetc" -H "$auth" -d "document_key=$key"
expect "the document is still there for its key" 200 \
  "{\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":$(billed guide.xlf)}" \
  "$url/v2/document/$id" -H "$auth" -d "document_key=$key"

# --- Uploads refused ------------------------------------------------------
head -c 5000 /dev/zero | tr '\0' a >"$tmp/big.html"
head -c 200000 /dev/zero | tr '\0' a >"$tmp/huge.html"
too='{"message":"Document too large: at most 4096 bytes."}'
expect "a document over --max-document-size: 413" 413 "$too" \
  "$url/v2/document" -H "$auth" -F "file=@$tmp/big.html" -F target_lang=ES
expect "a body far over it: 413 before it is read" 413 "$too" \
  "$url/v2/document" -H "$auth" -F "file=@$tmp/huge.html" -F target_lang=ES
expect "no file: 400" 400 '{"message":"Invalid file data."}' \
  "$url/v2/document" -H "$auth" -F target_lang=ES
expect "a form, not multipart: 400" 400 '{"message":"Invalid file data."}' \
  "$url/v2/document" -H "$auth" -d target_lang=ES -d file=abc
expect "no target_lang: 400" 400 \
  "{\"message\":\"Parameter 'target_lang' not specified.\"}" \
  "$url/v2/document" -H "$auth" -F "file=@$fx/guide.xlf"
expect "a pair not served: 400" 400 \
  "{\"message\":\"Value for 'target_lang' not supported; this server translates EN-US to ES-ES.\"}" \
  "$url/v2/document" -H "$auth" -F "file=@$fx/guide.xlf" -F target_lang=DE
expect "output_format of another format: 400" 400 \
  "{\"message\":\"Value for 'output_format' not supported: a document is translated into its own format.\"}" \
  "$url/v2/document" -H "$auth" -F "file=@$fx/guide.xlf" -F target_lang=ES \
  -F output_format=docx
expect "no API key: 403" 403 \
  '{"message":"Authorization failed. Please supply a valid auth_key."}' \
  "$url/v2/document" -F "file=@$fx/guide.xlf" -F target_lang=ES

# --- A document the filter refuses ----------------------------------------
"$XLIFFMT" translate "$fx/broken.xlf" --mt pseudo -s en-US -t es-ES -q \
  -o "$tmp/broken.out" 2>"$tmp/broken.err"
why=$(sed "s|^xliffmt: $fx/||" "$tmp/broken.err")
[ "$why" = "broken.xlf:6:38: mismatched tag (unit 1)" ] &&
  pass "translate's message for broken.xlf" || fail "translate says: $why"
upload "$fx/broken.xlf"
finished
want="{\"document_id\":\"$id\",\"status\":\"error\",\"error_message\":\"$why\",\"message\":\"$why\"}"
if [ "$status $body" = "200 $want" ]; then
  pass "refused document: status error, the filter's message"
else
  fail "refused document: status"
  echo "    expected: 200 $want"
  echo "    got:      $status $body"
fi
expect "refused document: result 503" 503 \
  "{\"message\":\"Document translation failed: $why\"}" \
  "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"

# --- The client's file name names nothing of the server's ------------------
upload "$fx/guide.xlf" -F "filename=../../$(printf 'r\303\251sum\303\251').xlf"
finished
if [ -z "$(find "$tmp" -name '*sum*')" ] &&
  [ -e "$(folder)/$id.out" ]; then
  pass "a file name with ../ is not a path of the server's"
else
  fail "files named after the client's name: $(find "$tmp" -name '*sum*')"
fi
ask "$url/v2/document/$id/result" -H "$auth" -d "document_key=$key"
want="attachment; filename=\"r__sum__.xlf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.xlf"
[ "$status $(header Content-Disposition)" = "200 $want" ] &&
  pass "its download's name: the last part, escaped" ||
  fail "Content-Disposition: $status $(header Content-Disposition)"

# Documents left not downloaded: the drain cut at --drain-timeout (3).
serve_stop
[ "$rc" -eq 3 ] && [ -z "$(ls "$tmp/docs")" ] &&
  pass "stopped: the server's folder and the documents left are gone" ||
  fail "stopped with $rc, left: $(ls -R "$tmp/docs")"

# --- At most --max-documents, kept --document-expiry ----------------------
serve_start few --mt pseudo -s en -t es --max-documents 2 \
  --document-expiry 4 --document-dir "$tmp/docs" --drain-timeout 1 || exit 1
auth='Authorization: DeepL-Auth-Key any'
upload "$fx/page.html"
first=$id first_key=$key
upload "$fx/page.html"
expect "a third document while two are kept: 429" 429 \
  '{"message":"Too many documents on the server (at most 2): download the translated ones or wait for them to expire."}' \
  "$url/v2/document" -H "$auth" -F "file=@$fx/page.html" -F target_lang=ES
finished
sleep 6
expect "a finished document expires: 404" 404 "$notfound" \
  "$url/v2/document/$first" -H "$auth" -d "document_key=$first_key"
[ -z "$(ls "$(folder)")" ] && pass "expired documents are deleted" ||
  fail "left after expiry: $(ls "$(folder)")"
upload "$fx/page.html"
[ "$status" = 200 ] && [ -n "$id" ] && pass "room again after expiry" ||
  fail "after expiry: $status $body"
serve_stop

finish
