#!/usr/bin/env bash
# Clocks of web games, kept by the server: the side to move's time runs, a move
# adds the increment, a flag fall ends the game (a draw when the other side has no
# mating material), the engine plays on its own clock, and a clock survives a
# restart. Prints one "ok ..." or "FAIL ..." line per check. Uses node for JSON.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
must_start_server "$T/data"

req POST /api/games '{"variant":"chess","players":["human","human"],"clock_ms":20000,"inc_ms":500}'
ID=$(js d.id)
holds "d.clock.base_ms===20000 && d.clock.inc_ms===500 && d.clock.running===0"
check "clock: a new game shows both clocks, White's running" $?
sleep 0.3
req POST "/api/games/$ID/move" '{"move":"e4"}'
holds "(([w, b]) => w>10000 && w<=20200 && b<=20000 && b>10000 && d.clock.running===1)(d.clock.left_ms)"
check "clock: a move charges the time used and adds the increment" $? "$(js 'd.clock.left_ms')"
# Black to move with one second: its flag falls
req POST /api/games '{"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","players":["human","human"],"clock_ms":1000}'
ID=$(js d.id)
sleep 1.3
req GET "/api/games/$ID"
holds "d.result.over && d.result.score==='1-0' && /Black's time ran out/.test(d.result.reason) && d.clock.left_ms[1]===0 && d.clock.running===null"
check "clock: Black's flag falls, White wins" $? "$(js 'JSON.stringify(d.result)')"
req POST "/api/games/$ID/move" '{"move":"e5"}'
check "clock: no move after the flag" "$([ "$CODE" = 409 ] && echo 0 || echo 1)"
if command -v sqlite3 > /dev/null 2>&1; then # the saved row's text
    sqlite3 "$T/data/menagerie.db" "SELECT text FROM games WHERE id = '$ID'" > "$T/saved.pgn"
    grep -q '\[Result "1-0"\]' "$T/saved.pgn" && grep -q "Black's time ran out" "$T/saved.pgn"
    check "clock: the result is saved" $?
else
    ok "clock: the result is saved: not checked (no sqlite3 command)"
fi

# White's flag falls with only Black's King left: a draw
req POST /api/games '{"variant":"chess","fen":"4k3/8/8/8/8/8/8/Q3K3 w - - 0 1","players":["human","human"],"clock_ms":1000}'
ID2=$(js d.id)
sleep 1.3
req GET "/api/games/$ID2"
holds "d.result.score==='1/2-1/2' && /White's time ran out; Black cannot mate/.test(d.result.reason)"
check "clock: a flag against a bare King is a draw" $? "$(js 'JSON.stringify(d.result)')"

# the engine plays on its own clock
req POST /api/games '{"variant":"team-mate","players":["human","engine"],"clock_ms":4000,"inc_ms":100,"level":20}'
ID3=$(js d.id)
req POST "/api/games/$ID3/move" '{"move":"e4"}'
poll "/api/games/$ID3" "d.history.length===2" 60
holds "(b => d.history.length===2 && !d.result.over && b<4100 && b>1500 && d.clock.running===0)(d.clock.left_ms[1])"
check "clock: the engine moves on its own clock" $? "$(js 'd.history.length, JSON.stringify(d.clock)')"

# the engine's flag falls while it thinks: its late move is not played
req POST /api/games '{"variant":"chess","players":["engine","human"],"clock_ms":1}'
ID5=$(js d.id)
sleep 0.5
req GET "/api/games/$ID5"
holds "d.result.score==='0-1' && /White's time ran out/.test(d.result.reason) && d.history.length===0 && !d.thinking"
check "clock: the engine's flag falls, its late move is dropped" $? "$(js 'JSON.stringify([d.result, d.history.length, d.thinking])')"

# a clock survives a restart
req POST /api/games '{"variant":"chess","players":["human","human"],"clock_ms":600000,"inc_ms":5000}'
ID4=$(js d.id)
req POST "/api/games/$ID4/move" '{"move":"d4"}'
stop_server
must_start_server "$T/data"
req GET "/api/games/$ID4"
holds "(([w, b]) => d.clock.base_ms===600000 && w>600000 && w<=605000 && b<=600000 && b>590000 && d.clock.running===1)(d.clock.left_ms)"
check "clock: a saved clock comes back after a restart" $? "$(js 'JSON.stringify(d.clock)')"
for bad in '{"variant":"chess","clock_ms":-1}' '{"variant":"chess","clock_ms":1.5}' '{"variant":"chess","inc_ms":"x"}' '{"variant":"chess","clock_ms":99999999999}'; do
    req POST /api/games "$bad"
    check "clock: refused $bad" "$([ "$CODE" = 400 ] && echo 0 || echo 1)"
done
stop_server
check "server stopped cleanly" "$RC"
