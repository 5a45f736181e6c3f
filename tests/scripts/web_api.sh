#!/usr/bin/env bash
# API tests of `menagerie serve`: starts the server on a free loopback port with an
# empty data folder, drives every route with curl (also malformed and hostile
# requests), restarts it to check that games come back, and stops it. Prints one
# "ok ..." or "FAIL ..." line per check. Uses node to read JSON replies.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
DATA=$T/data

play() { # play ID MOVE...
    local id=$1
    shift
    for m in "$@"; do
        req POST "/api/games/$id/move" "{\"move\":\"$m\"}"
        [ "$CODE" = 200 ] || { fail "move $m in $id: $CODE $(head -c 200 "$T/body")"; return 1; }
    done
}

start_server "$DATA"
[ -n "$PORT" ] && ok "server prints its address ($B)" || { fail "server did not start: $(cat "$T/err")"; exit 1; }

# ---- static files ----
req GET /
[ "$CODE" = 200 ] && grep -q Menagerie "$T/body"; check "GET / serves the page" $?
req GET /app.js
check "GET /app.js" "$([ "$CODE" = 200 ]; echo $?)"
req GET /pieces/falcon.svg
[ "$CODE" = 200 ] && grep -q '<svg' "$T/body"; check "GET /pieces/falcon.svg" $?
req GET /no/such/file.js
check "unknown static file is 404" "$([ "$CODE" = 404 ]; echo $?)"
req GET /../../etc/passwd
check "no path escape" "$([ "$CODE" = 404 ] || [ "$CODE" = 400 ]; echo $?)"

# ---- variants ----
req GET /api/variants
expect "variants: all sixteen games" 200 "d.length === 16 && ['chess','diamondback','hannibal','snake-vs-mongoose','team-mate','capablanca','gothic','embassy','janus','knightmate','shatranj','courier','slangenspel','slangenspel-a','slangenspel-b','slangenspel-ab'].every(n => d.some(v => v.name === n))"
expect "variants: shapes, set-ups, gating" 200 "d.find(v => v.name==='hannibal').gating && d.find(v => v.name==='hannibal').files===10 && d.find(v => v.name==='hannibal').ranks===9 && d.find(v => v.name==='diamondback').setups.length===4 && d.find(v => v.name==='diamondback').rotated && d.find(v => v.name==='slangenspel').kind==='mancala'"
expect "variants: piece names" 200 "d.find(v => v.name==='team-mate').pieces.some(p => p.letter==='F' && p.name==='phoenix') && d.find(v => v.name==='hannibal').pieces.some(p => p.letter==='F' && p.name==='falcon')"

# ---- a chess game ----
req POST /api/games '{"variant":"chess","players":["human","human"]}'
expect "new chess game" 201 "/^[0-9a-f]{12}$/.test(d.id) && d.moves.length === 20 && d.board.squares.length === 64 && !d.result.over"
CHESS=$(js d.id)
req GET "/api/games/$CHESS/moves"
expect "legal moves" 200 "d.length === 20 && d.some(m => m.text === 'g1f3' && m.san === 'Nf3' && m.from === 6 && m.to === 21)"
req POST "/api/games/$CHESS/move" '{"move":"e2e4"}'
expect "move in coordinates" 200 "d.history.length === 1 && d.last.text === 'e2e4' && d.last.from === 12 && d.last.to === 28 && d.side === 1"
req POST "/api/games/$CHESS/move" '{"move":"e4"}'
expect "illegal move is 400 with a reason" 400 "typeof d.error === 'string' && d.error.length > 5"
req POST "/api/games/$CHESS/move" '{"move":"e5"}'
expect "move in SAN" 200 "d.history[1].text === 'e7e5' && d.history[1].san === 'e5'"
play "$CHESS" Nf3 Nc6 Bc4 Bc5
req POST "/api/games/$CHESS/move" '{"move":"O-O"}'
expect "castling" 200 "d.last.kind === 'c' && d.last.san === 'O-O' && d.board.squares[6] === 'K' && d.board.squares[5] === 'R'"
req POST "/api/games/$CHESS/undo" '{"count":2}'
expect "undo two plies" 200 "d.history.length === 5 && d.side === 1"
req POST "/api/games/$CHESS/undo" '{"count":"x"}'
expect "undo with a bad count" 400 "d.error"
play "$CHESS" Bc5 O-O
req GET "/api/games/$CHESS/export"
[ "$CODE" = 200 ] && grep -q '\[Variant "chess"\]' "$T/body" && grep -q '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O' "$T/body"
check "export as PGN" $?
curl -s --noproxy '*' --max-time 10 -D - -o /dev/null "$B/api/games/$CHESS/export" | grep -qi 'content-disposition: attachment'
check "export is a download" $?

req POST /api/games '{"variant":"chess","fen":"7k/P7/8/8/8/8/8/K7 w - - 0 1","players":["human","human"]}'
PROMO=$(js d.id)
expect "game from a FEN" 201 "d.moves.filter(m => m.from === 48 && m.to === 56).length === 4 && d.moves.some(m => m.promo === 'N')"
req POST "/api/games/$PROMO/move" '{"move":"a7a8q"}'
expect "promotion" 200 "d.board.squares[56] === 'Q' && d.last.san.startsWith('a8=Q') && !d.result.over"

req POST "/api/games/$PROMO/resign" '{"side":"black"}'
expect "resign" 200 "d.result.over && d.result.score === '1-0' && d.result.winner === 0 && /resign/.test(d.result.reason)"
req POST "/api/games/$PROMO/move" '{"move":"h8g8"}'
expect "no move after the end" 409 "d.error"
req POST "/api/games/$PROMO/undo"
expect "take back a resignation" 200 "!d.result.over"
req POST "/api/games/$PROMO/draw"
expect "draw agreed between people" 200 "d.draw_accepted && d.result.over && d.result.score === '1/2-1/2'"

# ---- the variants ----
req POST /api/games '{"variant":"diamondback","setup":"a2h7","players":["human","human"]}'
expect "Diamondback set-up" 201 "d.position.startsWith('3prnbk/4ppbq') && d.rotated"
req POST /api/games '{"variant":"diamondback","setup":"x9"}'
expect "unknown set-up" 400 "/set-up/.test(d.error)"
req POST /api/games '{"variant":"snake-vs-mongoose","players":["human","human"]}'
expect "Snake vs. Mongoose" 201 "d.files === 10 && d.ranks === 10 && d.pieces.some(p => p.name === 'mongoose')"
SVM=$(js d.id)
play "$SVM" e3e4 e8e7 b2c2
req GET "/api/games/$SVM"
expect "Snake vs. Mongoose moves" 200 "d.history.length === 3 && d.history[2].san.startsWith('M')"
req POST /api/games '{"variant":"team-mate","players":["human","human"]}'
TM=$(js d.id)
expect "Team-Mate" 201 "d.files === 8 && d.pieces.some(p => p.name === 'cobra')"
play "$TM" e2e4 e7e5

req POST /api/games '{"variant":"hannibal","players":["human","human"]}'
HAN=$(js d.id)
expect "Hannibal: set-up moves first" 201 "d.moves.length === 72 && d.moves.every(m => m.kind === 's') && d.board.hands[0] === 'MF'"
play "$HAN" MbFh McFg
req GET "/api/games/$HAN"
expect "Hannibal: pieces wait behind the gates" 200 "d.board.gates[0] === '.M.....F..' && d.board.gates[1] === '..m...f...'"
play "$HAN" b1c3
req GET "/api/games/$HAN"
expect "Hannibal: gating" 200 "d.board.squares[1] === 'M' && d.board.gates[0][1] === '.' && d.board.squares[22] === 'N'"
req POST /api/games '{"variant":"hannibal","players":["human","human"],"gates":["MbFh","random"]}'
HAN2=$(js d.id)
expect "Hannibal: gates as options" 201 "d.history.length === 2 && d.history[0].text === 'MbFh'"
play "$HAN2" e2e3 e8e7 d1g4 d9g6
req POST "/api/games/$HAN2/move" '{"move":"f1d1"}'
expect "Hannibal: fast castling" 200 "d.last.kind === 'c' && d.board.squares[3] === 'K' && d.board.squares[5] === 'R'"
req POST /api/games '{"variant":"hannibal","gates":["MfFh",null]}'
expect "Hannibal: gate on the King's file refused" 400 "d.error"
req POST /api/games '{"variant":"hannibal","gates":[null,"MbFh"]}'
expect "Hannibal: Black's gates need White's" 400 "d.error"

# ---- Slangenspel ----
req POST /api/games '{"variant":"slangenspel","players":["human","human"]}'
SL=$(js d.id)
expect "Slangenspel" 201 "d.kind === 'mancala' && d.mancala.holes.length === 16 && d.mancala.holes.every(n => n === 5) && d.mancala.stores[0] === 0 && d.moves.some(m => m.text === '5-x')"
req POST "/api/games/$SL/move" '{"move":"5-x"}'
expect "Slangenspel capture" 200 "d.mancala.stores[0] > 0 && d.mancala.before.holes[4] === 5 && d.mancala.holes[4] === 0 && d.side === 1"
req POST /api/games '{"variant":"slangenspel-a","players":["human","human"]}'
expect "Slangenspel variant A" 201 "d.mancala.stores[0] === 15 && d.mancala.used[0] === 0"
SLA=$(js d.id)
req POST /api/games '{"variant":"slangenspel-ab","players":["human","engine"],"movetime_ms":300}'
SLE=$(js d.id)
play "$SLE" 3+
poll "/api/games/$SLE" 'd.history.length === 2 && !d.thinking'
expect "the engine answers a Slangenspel move" 200 "d.history.length === 2 && d.search && d.search.depth > 0 && d.eval !== null"

# ---- the chess engine ----
req POST /api/games '{"variant":"chess","players":["human","human"]}'
CE=$(js d.id)
req POST "/api/games/$CE/go" '{"level":20,"movetime_ms":5000}'
expect "engine move starts" 202 "d.thinking === true"
req POST "/api/games/$CE/go" '{"level":3}'
expect "a second engine move while thinking is refused" 409 "d.error"
req POST "/api/games/$CE/move" '{"move":"e2e4"}'
expect "no move of a person while the engine thinks" 409 "d.error"
sleep 0.5
req GET "/api/games/$CE"
expect "the search is shown while thinking" 200 "d.thinking && d.search && d.search.depth >= 1 && d.search.pv.length > 0"
req POST "/api/games/$CE/stop"
expect "stop: move now" 200 "true"
poll "/api/games/$CE" '!d.thinking' 50
expect "the engine plays a chess move (stopped within 5 s)" 200 "d.history.length === 1 && !d.engine_error && d.eval !== null"
req POST "/api/games/$CE/go" '{"level":20,"movetime_ms":5000}'
sleep 0.3
req POST "/api/games/$CE/undo"
expect "undo while thinking cancels the engine" 200 "!d.thinking && d.history.length === 0"
req POST "/api/games/$CE/stop"
expect "stop when idle" 409 "d.error"

# ---- list, import, delete ----
req GET /api/games
expect "list of games" 200 "d.length >= 10 && d.some(g => g.id === '$CHESS' && g.plies === 7) && d.some(g => g.id === '$SL' && g.kind === 'mancala')"
req GET "/api/games/$CHESS/export"
PGN=$(node -e "console.log(JSON.stringify(require('fs').readFileSync('$T/body','utf8')))")
req POST /api/import "{\"pgn\":$PGN}"
expect "import a PGN" 201 "d.history.length === 7 && d.history[6].san === 'O-O'"
req GET "/api/games/$SL/export"
grep -q '\[Variant "slangenspel"\]' "$T/body" && grep -q '1. 5-x' "$T/body"
check "Slangenspel export" $?
req POST /api/import '{"pgn":"[Variant \"nonsense\"]\n\n1. e4 *"}'
expect "import of a bad game" 400 "d.error"
for _ in 1 2 3 4 5; do # one more than the server's threads: a hang would block them all
    req POST /api/import '{"pgn":"( }"}'
done
expect "import of a stray brace in a variation is refused" 400 "/without its/.test(d.error)"
req POST /api/games '{"variant":"chess"}'
DEL=$(js d.id)
req DELETE "/api/games/$DEL"
expect "delete" 200 "d.deleted"
req GET "/api/games/$DEL"
expect "deleted game is gone" 404 "d.error"
if command -v sqlite3 > /dev/null 2>&1; then # the games are rows of DATA/menagerie.db
    rows() { sqlite3 "$DATA/menagerie.db" "$1"; }
    [ "$(rows "SELECT COUNT(*) FROM games WHERE id = '$DEL'")" = 0 ]; check "deleted game's row is gone" $?
    [ "$(rows "SELECT kind FROM games WHERE id IN ('$CHESS', '$SL') ORDER BY kind")" = "$(printf 'chess\nmancala')" ]
    check "games saved as rows (chess, mancala)" $?
    rows "SELECT text FROM games WHERE id = '$CHESS'" > "$T/row.pgn"
    curl -s --noproxy '*' --max-time 30 "$B/api/games/$CHESS/export" > "$T/export.pgn"
    cmp -s "$T/row.pgn" <(cat "$T/export.pgn"; echo); check "the row's text is the export" $?
else
    ok "games saved as rows: not checked (no sqlite3 command)"
fi

# ---- bad requests ----
req GET /api/nothing
expect "unknown route is 404" 404 "d.error"
# a game id is exactly 12 digits 0-9a-f, on every route that takes one
for bad in "$CHESS%20" "${CHESS}0" "${CHESS:0:11}" "${CHESS^^}" "${CHESS:0:11}g" \
    "${CHESS:0:11}%2e" ".%2e"; do
    req GET "/api/games/$bad"
    expect "game id '$bad' is refused (400)" 400 "/game id/.test(d.error)"
done
# an encoded NUL would cut the id short: refused as such, on every route
for bad in "$CHESS%00" "$CHESS%00x" "${CHESS:0:11}%00" "%00"; do
    req GET "/api/games/$bad"
    expect "game id '$bad' is refused (400)" 400 "/NUL/.test(d.error)"
done
for r in "GET moves" "POST move" "POST go" "POST stop" "POST undo" "POST resign" "POST draw" \
    "POST options" "GET export" "GET positions" "POST analysis" "GET analysis"; do
    set -- $r
    if [ "$1" = GET ]; then req GET "/api/games/$CHESS%00/$2"; else req POST "/api/games/$CHESS%00/$2" '{}'; fi
    expect "$1 /api/games/ID%00/$2 is refused (400)" 400 "/NUL/.test(d.error)"
done
req DELETE "/api/games/$CHESS%00"
expect "DELETE of ID%00 is refused (400)" 400 "d.error"
req GET "/api/games/$CHESS"
expect "the game is still there after the refusals" 200 "d.id === '$CHESS'"
req GET /index.html%00
expect "a static address with %00 is refused (400)" 400 "/NUL/.test(d.error)"
req PUT /api/games '{}'
expect "wrong method is 405" 405 "d.error"
req POST /api/games '{"variant":"chess"}' text/plain
expect "form posts are refused (415)" 415 "d.error"
req POST /api/games '{'
expect "malformed JSON" 400 "d.error"
req POST /api/games '[1,2]'
expect "JSON that is not an object" 400 "d.error"
req POST /api/games '{"variant":5}'
expect "wrong field type" 400 "d.error"
req POST /api/games '{"variant":"nonsense"}'
expect "unknown game" 404 "d.error"
req POST /api/games '{"variant":"chess","level":99}'
expect "level out of range" 400 "d.error"
req POST /api/games '{"variant":"chess","level":2.5}'
expect "level not whole" 400 "d.error"
req POST /api/games '{"variant":"chess","players":["human"]}'
expect "bad players" 400 "d.error"
req POST /api/games '{"variant":"hannibal","fen":"8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60","players":["human","human"]}'
expect "hannibal: a Manticore at a gate is mating material" 201 "!d.result.over"
req POST /api/games '{"variant":"snake-vs-mongoose","fen":"8k1/10/10/10/5n4/10/3N6/10/10/K9 w - - 0 60","players":["human","human"]}'
expect "snake-vs-mongoose: K+N v K+N plays on" 201 "!d.result.over"
req POST /api/games '{"variant":"chess","fen":"not a fen at all"}'
expect "bad FEN" 400 "d.error"
req POST /api/games '{"variant":"chess","fen":"4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647"}'
expect "FEN move number too large" 400 "/move counters/.test(d.error)"
req POST /api/games '{"variant":"chess","fen":"4294967304/8/8/8/8/8/8/K6k w - - 0 1"}'
expect "FEN empty run too large" 400 "/too long/.test(d.error)"
req POST /api/games '{"variant":"slangenspel","fen":"99/99 x"}'
expect "bad mancala position" 400 "d.error"
req GET /api/games/nosuchgame
expect "bad id" 400 "/game id/.test(d.error)"
req GET /api/games/000000000000
expect "unknown id" 404 "d.error"
req POST /api/games/000000000000/move '{"move":"e2e4"}'
expect "unknown id" 404 "d.error"
req POST "/api/games/$CHESS/move" '{}'
expect "move missing" 400 "d.error"
req POST "/api/games/$CHESS/move" "{\"move\":\"$(printf 'x%.0s' $(seq 300))\"}"
expect "move too long" 400 "d.error"
req POST "/api/games/$CHESS/move" '{"move":"\u00e9\u0000\u2603"}'
expect "move of odd characters" 400 "d.error"
req POST "/api/games/$CHESS/move" '{"move":"a1a1"}'
expect "null move" 400 "d.error"
head -c 2200000 /dev/zero | tr '\0' 'a' > "$T/huge"
req POST /api/games "@$T/huge" # curl reads the body from the file
expect "huge body is 413" 413 "d.error"
node -e "process.stdout.write('['.repeat(20000) + ']'.repeat(20000))" > "$T/deep"
req POST /api/games "@$T/deep"
expect "deeply nested JSON" 400 "d.error"
head -c 4000 /dev/urandom > "$T/junk"
req POST /api/games "@$T/junk"
expect "random bytes" 400 "d.error"
CODE=$(curl -s --noproxy '*' --max-time 20 -o "$T/body" -w '%{http_code}' -H 'Host: evil.example' "$B/api/games")
expect "foreign Host header refused" 403 "d.error"
req GET "/api/games/$(printf 'a%.0s' $(seq 3000))"
[ "$CODE" -ge 400 ] && [ "$CODE" -lt 500 ]; check "very long address" $?
pids=()
for i in $(seq 40); do
    curl -s --noproxy '*' --max-time 20 -o /dev/null -H 'Content-Type: application/json' \
        -X POST --data-binary "{\"move\":\"g1f$((i % 9))\"}" "$B/api/games/$TM/move" &
    pids+=($!)
    curl -s --noproxy '*' --max-time 20 -o /dev/null "$B/api/games/$TM" &
    pids+=($!)
done
wait "${pids[@]}"
req GET "/api/games/$TM"
expect "40 parallel moves leave a sane game" 200 "d.history.length >= 2 && d.history.length <= 3"
node tests/web/fuzz.mjs "$PORT" 400 1
req GET /api/variants
expect "the server survived all of it" 200 "d.length === 16"

# ---- stop and resume ----
stop_server
[ "$RC" = 0 ]; check "SIGTERM stops the server cleanly (exit $RC)" $?
grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"
[ $? -ne 0 ]; check "no sanitizer report" $?
start_server "$DATA"
[ -n "$PORT" ]; check "server restarts on the same data" $?
req GET "/api/games/$CHESS"
expect "chess game resumed" 200 "d.history.length === 7 && d.history[6].san === 'O-O' && d.players[0] === 'human'"
req GET "/api/games/$PROMO"
expect "agreed draw kept" 200 "d.result.over && d.result.score === '1/2-1/2' && d.result.reason === 'draw agreed'"
req GET "/api/games/$HAN"
expect "Hannibal resumed with its gates" 200 "d.board.squares[1] === 'M' && d.board.gates[0][7] === 'F' && d.history[0].text === 'MbFh'"
req GET "/api/games/$SLE"
expect "Slangenspel resumed with its players" 200 "d.history.length === 2 && d.players[1] === 'engine' && d.movetime_ms === 300"
req GET "/api/games/$SLA"
expect "Slangenspel variant A resumed" 200 "d.variant === 'slangenspel-a' && d.mancala.stores[0] === 15"
play "$CHESS" d7d6
check "play on after a restart" $?
echo "not a game" > "$DATA/0123456789ab.pgn"
stop_server
start_server "$DATA"
req GET /api/games
expect "a broken file does not stop the server" 200 "d.length >= 10 && !d.some(g => g.id === '0123456789ab')"
stop_server
[ "$RC" = 0 ]; check "second stop clean" $?
grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"
[ $? -ne 0 ]; check "no sanitizer report after the restart" $?
