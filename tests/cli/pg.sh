# pg.sh -- sourced after lib.sh by the tests that need a PostgreSQL
# server of their own: pg_start makes one in the scratch folder, on a
# socket there only (no TCP), and pg_stop stops it. Sets pgbin, pg (the
# server's folder and socket), conn (libpq's words for it) and psql().

# skip WHY: the whole test is skipped (exit 77).
skip() {
  echo "SKIP: $1"
  exit 77
}

# pg_start "SERVER OPTIONS" DB...: the server started with those -c
# options, and the databases made; skips the test when it cannot be.
pg_start() {
  pg_options=$1
  shift
  # Debian keeps the server's programs out of PATH.
  pgbin=
  for d in /usr/lib/postgresql/*/bin $(pg_config --bindir 2>/dev/null); do
    [ -x "$d/initdb" ] && [ -x "$d/psql" ] && pgbin=$d
  done
  [ -n "$pgbin" ] || skip "no PostgreSQL server (Debian package postgresql)"
  # initdb refuses root: the server then runs as an unprivileged user.
  as_server=
  if [ "$(id -u)" -eq 0 ]; then
    pguser=postgres
    id "$pguser" >/dev/null 2>&1 || pguser=nobody
    command -v runuser >/dev/null 2>&1 || skip "root, and no runuser"
    as_server="runuser -u $pguser --"
  fi
  pg=$tmp/pg
  mkdir "$pg" || exit 99
  if [ -n "$as_server" ]; then
    chmod 711 "$tmp" && chown "$pguser" "$pg" || exit 99
  fi
  pg_server "$pgbin/initdb" -D "$pg/data" -A trust -U xliffmt -E UTF8 \
    --no-locale --no-sync >"$tmp/initdb.log" 2>&1 ||
    skip "initdb failed: $(tail -n 1 "$tmp/initdb.log")"
  pg_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -t 60 \
    -o "-k $pg -c listen_addresses='' -c fsync=off $pg_options" \
    start >/dev/null 2>&1 ||
    skip "the server did not start: $(tail -n 1 "$pg/log" 2>/dev/null)"
  for db in "$@"; do
    "$pgbin/createdb" -h "$pg" -U xliffmt "$db" || exit 99
  done
  conn="host=$pg user=xliffmt"
}

# pg_server CMD...: CMD as the server's user.
pg_server() {
  $as_server "$@"
}

# pg_stop: the server stopped at once, if it runs.
pg_stop() {
  [ -z "${pg:-}" ] || [ ! -f "$pg/data/postmaster.pid" ] ||
    pg_server "$pgbin/pg_ctl" -D "$pg/data" -m immediate -w stop \
      >/dev/null 2>&1
}

psql() { # DB SQL
  "$pgbin/psql" -X -q -A -t -h "$pg" -U xliffmt -d "$1" -c "$2"
}
