#!/usr/bin/env bash
# loadtest_pg.sh - tools/loadtest.mjs across two `menagerie serve` processes on one
# PostgreSQL database: a throw-away cluster (tests/lib/pg.sh, fsync on, as a site
# would run it), two servers on free loopback ports, the load tool spreading players
# and spectators over both (--servers), then everything stopped.
#
#   bash tools/loadtest_pg.sh [LOADTEST-OPTIONS]   e.g. --games 200 --spectators 1000
#
# BIN (default ./menagerie) picks the binary. The tool's summary is printed, and its
# exit status is the script's.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-./menagerie}
. tests/lib/web.sh
. tests/lib/pg.sh
scratch
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
    pg_stop
    scratch_cleanup
}
trap cleanup EXIT
pg_start "$T/pg" || { echo "loadtest_pg: no PostgreSQL cluster ($?)"; exit 2; }
URLS=()
for n in 1 2; do
    "$BIN" serve --port 0 --data "$T/data$n" --db "$PGURL" > "$T/out$n" 2> "$T/err$n" &
    PIDS+=($!)
    port=
    for _ in $(seq 400); do
        port=$(grep -o 'http://[^ ]*:[0-9]*/' "$T/out$n" 2> /dev/null | head -1 | sed 's|.*:\([0-9]*\)/|\1|')
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "loadtest_pg: server $n did not start: $(head -c 500 "$T/err$n")"; exit 2; }
    URLS+=("http://127.0.0.1:$port")
done
echo "loadtest_pg: $("$PGBIN/postgres" --version), servers ${URLS[*]}"
node tools/loadtest.mjs --servers "${URLS[0]},${URLS[1]}" --pid "${PIDS[0]},${PIDS[1]}" "$@"
