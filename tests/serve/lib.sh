# lib.sh -- shared by the serve tests: sourced after tests/cli/lib.sh and
# cli_setup. Starts servers on free loopback ports, asks them with curl,
# stops them when the test ends.

if ! command -v curl >/dev/null; then
  echo "SKIP: curl not installed (apt-get install curl)"
  exit 77
fi

servers=
scheme=http # of the servers serve_start starts: `over` changes it
trap 'for p in $servers; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# make_cert NAME CN: $tmp/NAME.crt, self-signed for 127.0.0.1 and
# localhost, and its key $tmp/NAME.key (openssl, else GnuTLS's certtool);
# what the tool said in $tmp/cert.log. Fails when neither can.
make_cert() {
  if command -v openssl >/dev/null; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$2" \
      -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
      -keyout "$tmp/$1.key" -out "$tmp/$1.crt" >"$tmp/cert.log" 2>&1
  elif command -v certtool >/dev/null; then
    printf 'cn = %s\nip_address = 127.0.0.1\ndns_name = localhost\n%s\n' \
      "$2" 'expiration_days = 2
ca
tls_www_server
signing_key
encryption_key' >"$tmp/cert.tmpl"
    certtool --generate-privkey --key-type rsa --bits 2048 \
      --outfile "$tmp/$1.key" >"$tmp/cert.log" 2>&1 &&
      certtool --generate-self-signed --load-privkey "$tmp/$1.key" \
        --template "$tmp/cert.tmpl" --outfile "$tmp/$1.crt" \
        >>"$tmp/cert.log" 2>&1
  else
    echo "neither openssl nor certtool installed (apt-get install openssl)" \
      >"$tmp/cert.log"
    return 1
  fi
}

# over SCHEME: from here on serve_start starts servers speaking SCHEME
# (http or https). For https, a certificate made the first time
# ($tmp/tls.crt, its key $tmp/tls.key): curl (ask, xcurl) and Node
# (NODE_EXTRA_CA_CERTS) trust it, and every result's line says https.
# Returns 1 (with the reason shown) when no certificate can be made.
over() {
  if [ "$1" = https ] && [ ! -s "$tmp/tls.crt" ] &&
    ! make_cert tls 127.0.0.1; then
    echo "# no certificate for HTTPS:"
    sed 's/^/#   /' "$tmp/cert.log"
    return 1
  fi
  scheme=$1
  echo "# --- over $scheme"
  if [ "$scheme" = https ]; then
    result_label=https
    NODE_EXTRA_CA_CERTS=$tmp/tls.crt
    export NODE_EXTRA_CA_CERTS
  else
    result_label=
    unset NODE_EXTRA_CA_CERTS
  fi
}

# each_scheme FUNC: FUNC over HTTP, then the same over HTTPS. Without a
# way to make a certificate, the HTTP results stand: a skip (77) when
# they all passed.
each_scheme() {
  over http
  "$1"
  if ! over https; then
    [ "$failed" -eq 0 ] || finish
    echo "$passed passed, $failed failed; the HTTPS pass skipped"
    exit 77
  fi
  "$1"
}

# xcurl ARGS...: curl trusting the certificate over HTTPS.
xcurl() {
  if [ "$scheme" = https ]; then
    curl --cacert "$tmp/tls.crt" "$@"
  else
    curl "$@"
  fi
}

# serve_start NAME ARGS...: `xliffmt serve --listen 127.0.0.1:0 ARGS` in
# the background (with the certificate over HTTPS), its stderr in
# $tmp/NAME.err; sets url (http://127.0.0.1:PORT, https:// with
# --tls-cert), port and pid once it listens. Returns 1 (with its stderr
# shown) when it does not start.
serve_start() {
  name=$1
  shift
  if [ "$scheme" = https ]; then
    set -- "$@" --tls-cert "$tmp/tls.crt" --tls-key "$tmp/tls.key"
  fi
  # Emptied first: the line of an earlier server of that name is not
  # this one's.
  : >"$tmp/$name.err"
  "$XLIFFMT" serve --listen 127.0.0.1:0 "$@" >"$tmp/$name.out" \
    2>"$tmp/$name.err" &
  pid=$!
  servers="$servers $pid"
  n=0
  while [ $n -lt 200 ]; do
    # One read of the line: the scheme and the port of the same one.
    url=$(sed -n 's|.*listening on \(https*://127\.0\.0\.1:[0-9]*\) .*|\1|p' \
      "$tmp/$name.err" 2>/dev/null)
    if [ -n "$url" ]; then
      port=${url##*:}
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
    n=$((n + 1))
  done
  echo "# xliffmt serve $* did not start:"
  sed 's/^/#   /' "$tmp/$name.err"
  return 1
}

# serve_stop: SIGTERM to the last server started; its exit status in rc.
serve_stop() {
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
}

# ask CURL-ARGS...: the answer's status in $status, its body in
# $tmp/body (and in $body, without a final newline), its headers in
# $tmp/headers.
ask() {
  status=$(xcurl -s -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' "$@")
  body=$(cat "$tmp/body")
}

# expect DESC STATUS BODY CURL-ARGS...: the answer is exactly that.
expect() {
  desc=$1 want_status=$2 want_body=$3
  shift 3
  ask "$@"
  if [ "$status" = "$want_status" ] && [ "$body" = "$want_body" ]; then
    pass "$desc"
  else
    fail "$desc"
    echo "    expected: $want_status $want_body"
    echo "    got:      $status $body"
  fi
}

# header NAME: the value of a header of the last answer.
header() {
  sed -n "s/^$1: *//Ip" "$tmp/headers" | tr -d '\r'
}

# need_clients_and_eng_spa: skips the test (77) without python3 or the
# Apertium eng-spa pair; clients ARGS... runs hostile_clients.py.
need_clients_and_eng_spa() {
  if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 not installed"
    exit 77
  fi
  if [ ! -r /usr/share/apertium/modes/eng-spa.mode ]; then
    echo "SKIP: the Apertium eng-spa pair is not installed (apt-get install apertium-eng-spa)"
    exit 77
  fi
}
clients() { python3 "$(dirname "$0")/hostile_clients.py" "$@"; }
