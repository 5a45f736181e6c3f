#!/usr/bin/env bash
# tools/loadfault.sh - load and faults against `menagerie serve`, the long version
# of tests/scripts/web_faults.sh. On loopback only, bounded in count and time (about
# three minutes), it stops every server it starts. Prints what was held and what was
# lost:
#   1. connections: 1,000 at once to / (20 rounds) and to /api/games (5 rounds): resets
#   2. slow clients: 1,000 connections sending a byte a second while others are served
#   3. engine games: 50 games of engine against engine, watched for 30 s: peak memory,
#      searches at once, tables kept
#   4. kill -9 while 16 games are played and the engines think; restart: moves lost
#   5. a full disk (as root: a 4 MB tmpfs filled up to its last 256 KB): 507 replies,
#      then a restart: moves lost, moves that came back after a 507
#   6. the database taken by another process (sqlite3 holding its write lock; an
#      open database keeps its folder from being remounted read-only): 5xx replies;
#      restart: moves lost
# Usage: tools/loadfault.sh [BINARY]   (default ./menagerie; needs node and curl)
set -u
cd "$(dirname "$0")/.."
BIN=${1:-./menagerie}
. tests/lib/web.sh
need_node
scratch
LC="node tools/loadclient.mjs"
field() { node -e "const d = JSON.parse(process.argv[1]); console.log($2)" "$1"; }
verify_after_restart() { # verify_after_restart DIR FILE NAME: restart, compare, stop
    stop_server
    start_server "$1"
    R=$($LC verify "$B" "$2")
    echo "   after the restart: $R"
    [ "$(field "$R" 'd.lost_games + d.lost_moves + d.ahead')" = 0 ]
    check "$3: nothing lost, nothing back that was refused" $?
    stop_server
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$PID/status" 2> /dev/null || echo 0; }

echo "== 1. connections"
start_server "$T/d1"
[ -n "$PORT" ] || { fail "server did not start: $(cat "$T/err")"; exit 1; }
for spec in "/ 20" "/api/games 5"; do
    set -- $spec
    R=$($LC conns "$B" "$1" 1000 "$2")
    echo "   GET $1, 1000 at once x $2: $R"
    [ "$(field "$R" d.resets)" = 0 ] && [ "$(field "$R" d.ok)" = "$(field "$R" d.requests)" ]
    check "1000 concurrent GET $1: no reset, all answered" $?
done

echo "== 2. slow clients"
R=$($LC slow "$B" 1000 20)
echo "   1000 slow connections for 20 s: $R"
[ "$(field "$R" d.failed)" = 0 ] && [ "$(field "$R" d.ms_max)" -lt 5000 ]
check "slow clients do not hold up the others" $?
stop_server

echo "== 3. engine games"
start_server "$T/d3"
IDS=()
for i in $(seq 50); do
    req POST /api/games '{"variant":"chess","players":["engine","engine"],"movetime_ms":300,"level":20}'
    IDS+=("$(js d.id)")
done
PEAK=0
END=$((SECONDS + 30))
while [ $SECONDS -lt $END ]; do
    CURLS=()
    for id in "${IDS[@]}"; do
        curl -s --noproxy '*' --max-time 20 -o /dev/null "$B/api/games/$id" &
        CURLS+=($!)
    done
    wait "${CURLS[@]}"
    kill -0 "$PID" 2> /dev/null || { fail "the server died: $(grep -v '^Connection was closed' "$T/err" | tail -5)"; exit 1; }
    R=$(rss_kb)
    [ "$R" -gt "$PEAK" ] && PEAK=$R
    sleep 1
done
req GET /api/stats
STATS=$(cat "$T/body")
req GET /api/games
PLIES=$(js "d.reduce((a, g) => a + (g.plies || 0), 0)")
echo "   50 engine games, 30 s: $PLIES plies played, peak RSS $((PEAK / 1024)) MB"
echo "   engine: $(field "$STATS" 'JSON.stringify(d.engine)')"
[ "$PEAK" -lt $((400 * 1024)) ] && [ "$(field "$STATS" 'd.engine.most_searching <= d.engine.max_searching')" = true ]
check "engine memory stays bounded under 50 thinking games" $?

echo "== 4. kill -9 during play"
$LC play "$B" 16 600 "$T/acked.json" > "$T/play.out" &
CL=$!
sleep 8
kill -9 "$PID"
wait "$PID" 2> /dev/null
PID=
wait "$CL"
echo "   before the kill: $(cat "$T/play.out")"
start_server "$T/d3"
R=$($LC verify "$B" "$T/acked.json")
echo "   after the restart: $R"
[ "$(field "$R" 'd.lost_games + d.lost_moves')" = 0 ]
check "kill -9: no acknowledged move lost" $?
req GET /api/games
echo "   engine games: $(js "d.filter(g => g.players && g.players[0] === 'engine').length") of 50 back"
stop_server

echo "== 5. a full disk"
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/mnt" && mount -t tmpfs -o size=4m tmpfs "$T/mnt" 2> /dev/null; then
    MNT=$T/mnt
    start_server "$MNT/data"
    dd if=/dev/zero of="$MNT/filler" bs=16k > /dev/null 2>&1 # full, then 256 KB free
    truncate -s -256K "$MNT/filler"
    R=$($LC play "$B" 8 20 "$T/full.json")
    echo "   8 games with 256 KB left on the disk for 20 s: $R"
    rm -f "$MNT/filler"
    verify_after_restart "$MNT/data" "$T/full.json" "full disk"
    umount "$MNT"
    MNT=
else
    ok "full disk: not checked (a small tmpfs needs root)"
fi

echo "== 6. the database taken by another process"
RO=$T/d6
mkdir -p "$RO"
start_server "$RO"
$LC play "$B" 8 12 "$T/ro.json" > "$T/ro.out" &
CL=$!
sleep 4
coproc HOLDER { sqlite3 "$RO/menagerie.db"; }
HPID=$HOLDER_PID
echo "BEGIN IMMEDIATE;" >&"${HOLDER[1]}"
wait "$CL"
echo "   8 games, the database's write lock taken after 4 of 12 s: $(cat "$T/ro.out")"
echo "ROLLBACK;" >&"${HOLDER[1]}"
eval "exec ${HOLDER[1]}>&-"
wait "$HPID" 2> /dev/null
verify_after_restart "$RO" "$T/ro.json" "database taken"
