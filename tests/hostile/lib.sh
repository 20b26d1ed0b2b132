# lib.sh -- shared by the hostile tests: sourced, not run. The checks of
# tests/cli/lib.sh, and bounded(): every command a hostile input drives
# runs under a time limit and, where the build allows, a memory limit, so
# that a regression fails the test instead of hanging CI or the machine.
# doc() writes a small XLIFF document of given sentences.

. "$(dirname "$0")/../cli/lib.sh"

# Sanitizer builds reserve terabytes of address space (a memory limit
# cannot hold them) and run several times slower.
if [ -n "${XMT_SANITIZED:-}" ]; then
  time_factor=5
else
  time_factor=1
fi

# A machine busier than its cores (make -j check beside other work) runs
# each command that many times slower: the limits guard against hangs and
# quadratic work, not against a neighbour's load.
load_factor() {
  awk -v cores="$(nproc 2>/dev/null || echo 1)" '{
    f = int($1 / cores + 0.999); print (f < 1 ? 1 : f) }' /proc/loadavg \
    2>/dev/null || echo 1
}

# bounded SECONDS MEGABYTES CMD...: runs CMD with stdout in $tmp/out and
# stderr in $tmp/err, killed after SECONDS (times the sanitizer factor
# and the load factor at the start)
# and limited to MEGABYTES of address space. Sets $status (124 when the
# time ran out) and $elapsed_ms.
bounded() {
  limit_s=$(($1 * time_factor * $(load_factor)))
  limit_kb=$(($2 * 1024))
  shift 2
  t0=$(date +%s%N)
  if [ -n "${XMT_SANITIZED:-}" ]; then
    timeout -s KILL "$limit_s" "$@" >"$tmp/out" 2>"$tmp/err"
  else
    (ulimit -v "$limit_kb" && exec timeout -s KILL "$limit_s" "$@") \
      >"$tmp/out" 2>"$tmp/err"
  fi
  status=$?
  [ "$status" -ne 137 ] || status=124
  elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
}

# within DESC STATUS SECONDS MEGABYTES CMD...: bounded, and a pass when
# CMD ended with STATUS in time.
within() {
  desc=$1 want=$2
  shift 2
  bounded "$@"
  if [ "$status" -eq 124 ]; then
    fail "$desc: still running after ${1}s (limit ${limit_s}s)"
  elif [ "$status" -ne "$want" ]; then
    fail "$desc: exit $status, expected $want (${elapsed_ms} ms)"
    sed -n '1,5s/^/    stderr: /p' "$tmp/err"
  else
    pass "$desc (exit $status, ${elapsed_ms} ms)"
  fi
}

# said DESC MESSAGE: a pass when $tmp/err is exactly MESSAGE.
said() {
  got=$(cat "$tmp/err")
  if [ "$got" = "$2" ]; then
    pass "$1: says so"
  else
    fail "$1: stderr '$got', expected '$2'"
  fi
}

# unchanged DESC FILE COPY: a pass when FILE's bytes are COPY's.
unchanged() {
  check "$1: unchanged" cmp -s "$2" "$3"
}

# doc FILE TEXT...: a document with one unit per TEXT, ids u1, u2...
doc() {
  f=$1
  shift
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n'
    i=1
    for t in "$@"; do
      printf '<trans-unit id="u%s"><source>%s</source></trans-unit>\n' "$i" "$t"
      i=$((i + 1))
    done
    printf '</body></file></xliff>\n'
  } >"$f"
}

# small_disks_setup: tests that mount small disks call it once after
# cli_setup; at exit every disk small_disk mounted is unmounted before
# $tmp goes (made writable first: a test may leave a folder 0555).
small_disks=
small_disks_setup() {
  trap small_disks_cleanup EXIT
}
small_disks_cleanup() {
  for m in $small_disks; do
    mountpoint -q "$m" 2>/dev/null && umount "$m"
  done
  chmod -R u+w "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
# small_disk DIR: a 64 KB tmpfs mounted on DIR (made); 1 when it cannot
# be mounted (not root).
small_disk() {
  mkdir -p "$1" && mount -t tmpfs -o size=64k tmpfs "$1" 2>/dev/null &&
    small_disks="$small_disks $1"
}

# upper_engine: $tmp/up.sh, an engine that writes each line in upper case.
upper_engine() {
  cat >"$tmp/up.sh" <<'EOD'
#!/bin/sh
exec awk '{ print toupper($0); fflush() }'
EOD
  chmod +x "$tmp/up.sh"
}

# x12 FILE UNITS: an XLIFF 1.2 document, English to Spanish, datatype
# html, of UNITS (one line).
x12() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="html"><body>\n%s\n' "$2"
    printf '</body></file></xliff>\n'
  } >"$1"
}
