# lib.sh -- shared by the serve tests: sourced after tests/cli/lib.sh and
# cli_setup. Starts servers on free loopback ports, asks them with curl,
# stops them when the test ends.

if ! command -v curl >/dev/null; then
  echo "SKIP: curl not installed (apt-get install curl)"
  exit 77
fi

servers=
trap 'for p in $servers; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# serve_start NAME ARGS...: `xliffmt serve --listen 127.0.0.1:0 ARGS` in
# the background, its stderr in $tmp/NAME.err; sets url
# (http://127.0.0.1:PORT, https:// with --tls-cert), port and pid once it
# listens. Returns 1 (with its stderr shown) when it does not start.
serve_start() {
  name=$1
  shift
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
  status=$(curl -s -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' "$@")
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
