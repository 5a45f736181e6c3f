#!/usr/bin/env bash
# The load tool (tools/loadtest.mjs) in its quick mode: 5 online games between two
# sessions each, 20 spectator streams, 5 s of moves, against a server started on a
# scratch folder. Every move must reach every stream once (0 lost, 0 duplicated,
# exit status 0), with the summary's figures sane. Small enough for the sanitizer
# build (MENAGERIE=build/san/menagerie). Prints one "ok ..." or "FAIL ..." line per
# check. tests/web/load_fake.mjs, a stand-in server with a fault, shows that the
# tool catches lost, duplicated and disagreeing moves.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
must_start_server "$T/data"

node tools/loadtest.mjs --games 5 --spectators 20 --duration 5 --warmup 1 --quiet \
    --pid "$PID" --json "$T/load.json" "$B" > "$T/load.out" 2>&1
LRC=$?
check "load tool: exit status 0" "$LRC" "status $LRC: $(tail -25 "$T/load.out")"
# jv EXPR: EXPR with s = the tool's JSON summary
jv() { node -e "const s = JSON.parse(require('fs').readFileSync('$T/load.json', 'utf8')); console.log($1)" 2> /dev/null; }
[ "$(jv 's.lost === 0 && s.duplicated === 0 && s.disagreed === 0')" = true ]
check "load tool: no move lost, duplicated or disagreeing" $? "$(grep -E 'lost|duplicated' "$T/load.out")"
[ "$(jv 's.moves >= 10 && s.latency_ms.n > 0 && s.latency_ms.p50 > 0')" = true ]
check "load tool: moves played and their latency measured" $? "$(grep -E 'moves|latency' "$T/load.out")"
[ "$(jv 'Object.keys(s.failed).length === 0 && s.reconnects === 0 && s.streams === 30')" = true ]
check "load tool: no failed request, no reconnect, 30 streams" $? "$(grep -E 'failed|reconnects' "$T/load.out")"
[ "$(jv 's.rss_kb.before > 0 && s.rss_kb.open > 0 && s.rss_per_stream_kb !== null')" = true ]
check "load tool: the server's memory read" $? "$(grep RSS "$T/load.out")"
grep -q '^loadtest summary' "$T/load.out" && grep -q 'latency to opponent p99/max' "$T/load.out"
check "load tool: the summary table" $? "$(head -c 300 "$T/load.out")"
node tools/loadtest.mjs --games 1 --duration 1 --spectators 0 "http://127.0.0.1:1" > "$T/none.out" 2>&1
[ $? = 2 ] && grep -q 'could not make the games' "$T/none.out"
check "load tool: no server is status 2 and says so" $? "$(cat "$T/none.out")"
node tools/loadtest.mjs --games x "$B" > "$T/bad.out" 2>&1
[ $? = 2 ] && grep -q 'usage' "$T/bad.out"
check "load tool: a bad option is status 2 with the usage" $? "$(cat "$T/bad.out")"
# against_fake MODE: the tool's quick run against tests/web/load_fake.mjs MODE; sets
# FRC (its status), the summary in $T/fake.json
against_fake() {
    node tests/web/load_fake.mjs "$1" > "$T/fake.url" 2>&1 &
    local fake=$!
    for _ in $(seq 100); do [ -s "$T/fake.url" ] && break; sleep 0.1; done
    node tools/loadtest.mjs --games 3 --spectators 6 --duration 3 --warmup 0 --interval 200 \
        --lost-after 2 --quiet --json "$T/fake.json" "$(head -1 "$T/fake.url")" > "$T/fake.out" 2>&1
    FRC=$?
    kill "$fake" 2> /dev/null
    wait "$fake" 2> /dev/null
}
fj() { node -e "const s = JSON.parse(require('fs').readFileSync('$T/fake.json', 'utf8')); console.log($1)" 2> /dev/null; }

# The checks catch what they look for: a stand-in server with a fault
for f in lose:lost dup:duplicated wrong:disagreed; do
    against_fake "${f%%:*}"
    [ "$FRC" = 1 ] && [ "$(fj "s.${f#*:} > 0")" = true ]
    check "load tool: a server that fails (${f%%:*}) is caught, status 1" $? "status $FRC: $(tail -12 "$T/fake.out")"
done
against_fake cut
[ "$FRC" = 0 ] && [ "$(fj 's.reconnects >= 12 && s.lost === 0 && s.duplicated === 0')" = true ]
check "load tool: streams cut by the server resume at their last event id" $? "status $FRC: $(tail -12 "$T/fake.out")"
kill -0 "$PID" 2> /dev/null
check "server still up after the load" $? "$(tail -5 "$T/err")"
stop_server
check "server stops cleanly after the load" "$RC" "$(tail -5 "$T/err")"
