#!/usr/bin/env bash
# Two `menagerie serve` processes on one PostgreSQL database (--db postgres://...):
# a game made and played through one is seen through the other with its moves; a
# move through either reaches the other's memory through LISTEN/NOTIFY, and the
# live streams of an online game's spectators on the other; a write
# from a copy that the row has overtaken (changed behind its back) is refused with
# 409 and leaves the row alone; a delete reaches the other too. The database is a
# throw-away cluster under the scratch folder (initdb, pg_ctl; as root it runs as
# nobody), on a unix socket there, stopped on exit. PostgreSQL is installed with
# apt-get when root and missing; without it the script says so and skips. Prints
# one "ok ..." or "FAIL ..." line per check.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch

. tests/lib/pg.sh
PID1= PID2=
cleanup() {
    for p in $PID1 $PID2; do kill -9 "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
    pg_stop
    scratch_cleanup
}
trap cleanup EXIT
PG=$T/pg
pg_start "$PG" "-c fsync=off" > "$T/pg.out"
case $? in
    0) ;;
    2)
        echo "ok web_postgres: skipped: PostgreSQL is not installed (apt-get install postgresql as root)"
        exit 0
        ;;
    *)
        fail "web_postgres: $(cat "$T/pg.out")"
        exit 1
        ;;
esac
check "a PostgreSQL cluster of its own ($("$PGBIN/postgres" --version))" 0
URL=$PGURL
psql_c() { "$PGBIN/psql" -X -q -At -h "$PG" -U menagerie -d menagerie -c "$1"; }

# ---- two servers ----
# serve N: server N on a free port with its own data folder (PIDn, Bn)
serve() {
    local n=$1 port=
    "$BIN" serve --port 0 --data "$T/data$n" --db "$URL" > "$T/out$n" 2> "$T/err$n" &
    local pid=$!
    for _ in $(seq 400); do
        port=$(grep -o 'http://[^ ]*:[0-9]*/' "$T/out$n" 2> /dev/null | head -1 | sed 's|.*:\([0-9]*\)/|\1|')
        [ -n "$port" ] && break
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.1
    done
    eval "PID$n=$pid B$n=http://127.0.0.1:$port"
    [ -n "$port" ] || { fail "web_postgres: server $n did not start: $(head -c 600 "$T/err$n")"; exit 1; }
}
serve 1
serve 2
ok "two servers on one database ($B1, $B2)"
grep -q "games saved in postgres://menagerie@" "$T/out1"; check "the server names its database" $?
# on N: req on server N
on() {
    local n=$1
    shift
    eval "B=\$B$n PID=\$PID$n"
    req "$@"
}
# until_on N PATH CODE JS: polls server N's GET for up to 10 s
until_on() {
    for _ in $(seq 100); do
        on "$1" GET "$2"
        [ "$CODE" = "$3" ] && holds "$4" && return 0
        sleep 0.1
    done
    return 1
}

on 1 POST /api/games '{"variant":"chess","players":["human","human"]}'
ID=$(js d.id)
on 1 POST "/api/games/$ID/move" '{"move":"e4"}'
expect "a move through the first" 200 "d.history.length === 1"
until_on 2 "/api/games/$ID" 200 "d.history.length === 1 && d.history[0].san === 'e4'"
check "the second sees the game with its move" $?
on 2 POST "/api/games/$ID/move" '{"move":"e5"}'
expect "a move through the second" 200 "d.history.length === 2"
until_on 1 "/api/games/$ID" 200 "d.history.length === 2 && d.history[1].san === 'e5'"
check "the move reaches the first's memory (NOTIFY)" $?
[ "$(psql_c "SELECT version FROM games WHERE id = '$ID'")" = 3 ]
check "the row's version counts the saved changes (3)" $? "$(psql_c "SELECT version FROM games WHERE id = '$ID'")"
psql_c "SELECT text FROM games WHERE id = '$ID'" | grep -q '1. e4 e5 \*'
check "the row holds the game's text" $?

# ---- a stale write: the row moves on behind the servers' backs (no notification) ----
psql_c "UPDATE games SET version = version + 1 WHERE id = '$ID'"
on 1 POST "/api/games/$ID/move" '{"move":"Nf3"}'
expect "a write from a stale copy is refused" 409 "/another server/.test(d.error)"
on 1 GET "/api/games/$ID"
expect "the refused move is not kept in memory" 200 "d.history.length === 2"
psql_c "SELECT text FROM games WHERE id = '$ID'" | grep -q '1. e4 e5 \*'
check "the refused move is not in the row" $?
V=$(psql_c "SELECT version FROM games WHERE id = '$ID'")
psql_c "SELECT pg_notify('menagerie_games', '$ID $V')" > /dev/null
sleep 0.5
on 1 POST "/api/games/$ID/move" '{"move":"Nf3"}'
expect "after the notification, the first plays on" 200 "d.history.length === 3"
until_on 2 "/api/games/$ID" 200 "d.history.length === 3"
check "and the second follows" $?

# ---- a game made on the second, deleted on the first ----
on 2 POST /api/games '{"variant":"slangenspel","players":["human","human"]}'
ID2=$(js d.id)
until_on 1 /api/games 200 "d.some(g => g.id === '$ID2')"
check "a game made on the second is listed on the first" $?
on 1 DELETE "/api/games/$ID2"
expect "delete on the first" 200 "d.deleted"
until_on 2 "/api/games/$ID2" 404 "d.error"
check "the delete reaches the second" $?
[ "$(psql_c "SELECT COUNT(*) FROM games WHERE id = '$ID2'")" = 0 ]; check "the row is gone" $?

# ---- an online game across the two: seats, and the live stream of the other ----
# on_as N JAR METHOD PATH [BODY]: as (tests/lib/web.sh), on server N
on_as() {
    eval "B=\$B$1"
    shift
    as "$@"
}
on_as 1 alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Alice","invite":false}'
expect "an online game made on the first" 201 "d.you === 0"
OG=$(js d.id)
for _ in $(seq 100); do on_as 2 bob POST "/api/games/$OG/join" '{"name":"Bob"}'; [ "$CODE" = 404 ] || break; sleep 0.1; done
expect "its seat taken on the second" 200 "d.you === 1"
curl -sN --noproxy '*' --max-time 4 "$B2/api/games/$OG/events" > "$T/sse" &
SP=$!
sleep 1
on_as 1 alice POST "/api/games/$OG/move" '{"move":"e2e4"}'
expect "White moves on the first" 200 "d.history.length === 1"
on_as 1 bob POST "/api/games/$OG/move" '{"move":"e7e5"}'
expect "Black's session is his seat on the first too" 200 "d.history.length === 2"
on_as 2 bob POST "/api/games/$OG/move" '{"move":"g1f3"}'
expect "the second refuses Black's player a move for White" 403
wait $SP
grep '^data: ' "$T/sse" | tail -1 | grep -q '"san":"e5"' && [ "$(grep -c '^event: state' "$T/sse")" -ge 3 ]
check "a spectator on the second sees the moves made through the first, live" $? "$(grep -v '^data' "$T/sse" | head -c 300)"
# each player on a server of their own, moving the moment the other's move is answered:
# the second must not judge by its copy before the notification comes
on_as 1 alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Alice","invite":false}'
RG=$(js d.id)
on_as 2 bob POST "/api/games/$RG/join" '{"name":"Bob"}'
BAD=0
for m in e2e4:e7e5 g1f3:b8c6 f1c4:f8c5 e1g1:g8f6 d2d3:e8g8 c2c3:d7d6; do
    on_as 1 alice POST "/api/games/$RG/move" "{\"move\":\"${m%%:*}\"}"
    [ "$CODE" = 200 ] || BAD=$((BAD + 1))
    on_as 2 bob POST "/api/games/$RG/move" "{\"move\":\"${m##*:}\"}"
    [ "$CODE" = 200 ] || BAD=$((BAD + 1))
done
[ $BAD = 0 ]; check "moves in turn through two servers, each at once after the other's: none refused" $? "$BAD refused ($(head -c 200 "$T/body"))"

# ---- the listener survives a lost connection ----
psql_c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'menagerie' AND pid <> pg_backend_pid()" > /dev/null
sleep 1
on 2 POST "/api/games/$ID/move" '{"move":"Nc6"}'
expect "after the database dropped every connection, a move goes through" 200 "d.history.length === 4"
until_on 1 "/api/games/$ID" 200 "d.history.length === 4"
check "and reaches the other server" $?

# ---- stop ----
for n in 1 2; do
    eval "PID=\$PID$n"
    stop_server
    eval "PID$n="
    [ "$RC" = 0 ]; check "server $n stops cleanly (exit $RC)" $?
done
grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err1" "$T/err2"
[ $? -ne 0 ]; check "no sanitizer report" $?
