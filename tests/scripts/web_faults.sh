#!/usr/bin/env bash
# Faults around `menagerie serve`, the short version (tools/loadfault.sh is the long
# one): a save that fails (a full disk: a small tmpfs filled up; a read-only folder)
# answers 5xx and leaves the game as its database row has it; a delete that fails
# (the database refuses it) says so; start-up refuses a folder it cannot write,
# removes *.tmp files of the old folder's cut saves, imports its game files into the
# database and lists those it could not load; the Host check for any loopback
# --host; the warning for a non-loopback one. Loopback only. Prints one "ok ..." or
# "FAIL ..." line per check. The row checks read the database with sqlite3.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch

# A small tmpfs we can turn read-only (root only; else chmod does it).
CAN_MOUNT=no
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/mnt" && mount -t tmpfs -o size=4m tmpfs "$T/mnt" 2> /dev/null; then
    CAN_MOUNT=yes
    MNT=$T/mnt
fi
read_only() { # read_only DIR on|off
    if [ "$CAN_MOUNT" = yes ]; then
        mount -o "remount,$([ "$2" = on ] && echo ro || echo rw)" "$MNT"
    else
        chmod "$([ "$2" = on ] && echo 555 || echo 755)" "$1"
    fi
}
CAN_RO=yes
[ "$CAN_MOUNT" = no ] && [ "$(id -u)" -eq 0 ] && CAN_RO=no # root writes through chmod

# ---- start-up ----
if [ "$CAN_RO" = yes ]; then
    RO=${MNT:-$T/ro}
    mkdir -p "$RO"
    read_only "$RO" on
    start_server "$RO"
    if [ -n "$PORT" ]; then
        stop_server
        fail "start-up refuses a read-only data folder: it started"
    else
        RC=0
        wait "$PID" || RC=$?
        PID=
        [ "$RC" -eq 1 ] && grep -q "cannot write in the data folder" "$T/err"
        check "start-up refuses a read-only data folder" $?
    fi
    read_only "$RO" off
else
    ok "start-up refuses a read-only data folder: not checked (root without mount)"
fi

DATA=$T/data
mkdir -p "$DATA"
printf '[Event "x"]\n[Variant "chess"]\n[Result "*"]\n\n1. e4 e5 *\n' > "$DATA/aaaaaaaaaaaa.pgn"
printf '[Event "x"]\n[Variant "chess"]\n[Result "*"]\n\n1. e4 e5 2. Nf3' > "$DATA/bbbbbbbbbbbb.pgn"
printf 'not a game at all\001\002 *\n' > "$DATA/cccccccccccc.pgn"
echo partial > "$DATA/dddddddddddd.pgn.tmp"
must_start_server "$DATA"
[ ! -e "$DATA/dddddddddddd.pgn.tmp" ]; check "start-up removes the temporary file of a cut save" $?
req GET /api/games
expect "a complete file loads" 200 "d.some(g => g.id === 'aaaaaaaaaaaa' && g.plies === 2)"
expect "a cut file is listed as skipped, not loaded" 200 \
    "d.some(g => g.skipped && g.file === 'bbbbbbbbbbbb.pgn' && /cut short/.test(g.error)) && !d.some(g => g.id === 'bbbbbbbbbbbb')"
expect "a damaged file is listed as skipped" 200 "d.some(g => g.skipped && g.file === 'cccccccccccc.pgn' && g.error)"
[ -e "$DATA/bbbbbbbbbbbb.pgn" ] && [ -e "$DATA/cccccccccccc.pgn" ]; check "skipped files are left alone" $?
[ -e "$DATA/imported/aaaaaaaaaaaa.pgn" ] && [ ! -e "$DATA/aaaaaaaaaaaa.pgn" ]
check "an imported file is moved into imported/" $?
req GET /api/stats
expect "stats: games, skipped files, engine memory bound" 200 \
    "d.games === 1 && d.skipped.length === 2 && d.engine.max_searching > 0 && d.engine.hash_mb > 0"

HAVE_SQLITE=no
command -v sqlite3 > /dev/null 2>&1 && HAVE_SQLITE=yes
row_text() { sqlite3 "$1/menagerie.db" "SELECT text FROM games WHERE id = '$2'"; }

# ---- a save that fails: the disk is full ----
if [ "$CAN_MOUNT" = yes ]; then
    FULL=$MNT/full
    stop_server
    start_server "$FULL"
    req POST /api/games '{"variant":"chess","players":["human","human"]}'
    ID=$(js d.id)
    req POST "/api/games/$ID/move" '{"move":"e4"}'
    dd if=/dev/zero of="$MNT/filler" bs=64k > /dev/null 2>&1 # until the disk is full
    req POST "/api/games/$ID/move" '{"move":"e5"}'
    expect "full disk: a move is answered 507 with the reason" 507 "/space/i.test(d.error)"
    req GET "/api/games/$ID"
    expect "full disk: the game stays as saved" 200 "d.history.length === 1"
    if [ "$HAVE_SQLITE" = yes ]; then
        row_text "$FULL" "$ID" | grep -q '1. e4 \*'; check "full disk: the row keeps the last saved game" $?
    fi
    req POST "/api/games/$ID/undo" '{}'
    expect "full disk: undo is answered 507" 507 "d.error"
    req POST "/api/games/$ID/resign" '{"side":"white"}'
    expect "full disk: resignation is answered 507" 507 "d.error"
    req GET "/api/games/$ID"
    expect "full disk: nothing changed" 200 "d.history.length === 1 && !d.result.over"
    rm -f "$MNT/filler"
    req POST "/api/games/$ID/move" '{"move":"e5"}'
    expect "room again: the move is saved" 200 "d.history.length === 2"
    if [ "$HAVE_SQLITE" = yes ]; then
        row_text "$FULL" "$ID" | grep -q '1. e4 e5 \*'; check "room again: the row has it" $?
    fi
    stop_server
    rm -rf "$FULL"
    must_start_server "$DATA"
else
    ok "full disk: not checked (a small tmpfs needs root)"
fi

# ---- a delete that fails: the database refuses it ----
req POST /api/games '{"variant":"chess","players":["human","human"]}'
ID=$(js d.id)
req POST "/api/games/$ID/move" '{"move":"e4"}'
req POST "/api/games/$ID/move" '{"move":"e5"}'
if [ "$HAVE_SQLITE" = yes ]; then
    sqlite3 "$DATA/menagerie.db" "CREATE TRIGGER keep BEFORE DELETE ON games BEGIN SELECT RAISE(ABORT, 'kept by a trigger'); END;"
    req DELETE "/api/games/$ID"
    expect "a delete that fails is 5xx" 500 "/delete/.test(d.error)"
    req GET "/api/games/$ID"
    expect "the game stays after a failed delete" 200 "d.history.length === 2"
    sqlite3 "$DATA/menagerie.db" "DROP TRIGGER keep"
else
    ok "a delete that fails: not checked (no sqlite3 command)"
fi
req DELETE "/api/games/$ID"
expect "delete" 200 "d.deleted"
if [ "$HAVE_SQLITE" = yes ]; then
    [ -z "$(row_text "$DATA" "$ID")" ]; check "delete removes the row" $?
fi
stop_server

# ---- the database taken by another process while serving (an open database keeps
# its folder from turning read-only: the write that cannot be made is this one) ----
if [ "$HAVE_SQLITE" = yes ]; then
    LK=$T/locked
    start_server "$LK"
    req POST /api/games '{"variant":"chess","players":["human","human"]}'
    ID=$(js d.id)
    req POST "/api/games/$ID/move" '{"move":"d4"}'
    coproc HOLDER { sqlite3 "$LK/menagerie.db"; } # another process's write, left open
    echo "BEGIN IMMEDIATE; SELECT 'held';" >&"${HOLDER[1]}"
    read -r -t 10 HELD <&"${HOLDER[0]}"
    [ "$HELD" = held ]; check "database locked: another process holds the write lock" $?
    req POST "/api/games/$ID/move" '{"move":"d5"}'
    expect "database locked: a move is 5xx" 500 "/could not save/.test(d.error)"
    req POST /api/games '{"variant":"team-mate"}'
    expect "database locked: a new game is 5xx" 500 "d.error"
    req GET /api/games
    expect "database locked: the failed new game is not listed" 200 "d.filter(g => !g.skipped).length === 1"
    req DELETE "/api/games/$ID"
    expect "database locked: a delete is 5xx" 500 "d.error"
    HPID=$HOLDER_PID
    echo "ROLLBACK;" >&"${HOLDER[1]}"
    eval "exec ${HOLDER[1]}>&-" # its input ends: it quits
    wait "$HPID" 2> /dev/null
    stop_server
    start_server "$LK"
    req GET /api/games
    expect "database locked: after a restart, the saved game and only it" 200 \
        "d.length === 1 && d[0].id === '$ID' && d[0].plies === 1"
    stop_server
else
    ok "database locked while serving: not checked (no sqlite3 command)"
fi

# ---- the Host check on another loopback address; the warning off loopback ----
HOSTADDR=127.0.0.2 start_server "$T/data2" --host 127.0.0.2
B=http://127.0.0.2:$PORT
req GET /api/games
expect "--host 127.0.0.2 answers its own address" 200 "Array.isArray(d)"
CODE=$(curl -s --noproxy '*' --max-time 10 -o "$T/body" -w '%{http_code}' -H 'Host: evil.example' "$B/api/games")
expect "--host 127.0.0.2 refuses a foreign Host" 403 "d.error"
CODE=$(curl -s --noproxy '*' --max-time 10 -o "$T/body" -w '%{http_code}' -H "Host: localhost:$PORT" "$B/api/games")
expect "--host 127.0.0.2 takes localhost" 200 "Array.isArray(d)"
stop_server
start_server "$T/data2" --host 0.0.0.0
grep -q "WARNING: listening on 0.0.0.0" "$T/err"; check "--host 0.0.0.0 warns that the local games are open" $?
stop_server
[ "$RC" -eq 0 ]; check "server stops cleanly" $?
