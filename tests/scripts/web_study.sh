#!/usr/bin/env bash
# The teaching and study routes of `menagerie serve` (piece diagrams from the move
# tables, the board editor's position check, every position of a game, analyses) and
# the terminal game's `rules` command. Expected piece reaches are counted by hand from
# the rulings, not taken from the program. Prints one "ok ..." or "FAIL ..." line per
# check. Uses node to read JSON replies (tests/lib/web.sh).
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch

# ---- the terminal game's rules command: the same text, for every game ----
for g in chess:Castling snake-vs-mongoose:Mongoose team-mate:64-move diamondback:corner \
    hannibal:Gating slangenspel-ab:"Variant B"; do
    out=$(printf 'rules\nquit\n' | "$BIN" play "${g%%:*}" --white human --black human --ascii 2>&1)
    printf '%s\n' "$out" | grep -q -- "${g#*:}"
    check "play ${g%%:*}: rules shows the rules" $?
done
out=$(printf 'rules\nquit\n' | "$BIN" play chess --white human --black human --ascii 2>&1)
[ -z "$(printf '%s\n' "$out" | awk 'length > 80')" ] && ! printf '%s\n' "$out" | grep -q '^#'
check "play: rules text wrapped, headings without #" $?

# ---- the server ----
must_start_server "$T/data"

# diagram VARIANT LETTER SIDE SQUARE EXPECTED: EXPECTED lists "sq:m|c|mc" sorted by square
diagram() {
    req POST /api/diagram "{\"variant\":\"$1\",\"piece\":\"$2\",\"side\":$3,\"square\":$4}"
    got=$(js "d.targets.map(t=>[t.sq,(t.move?'m':'')+(t.capture?'c':'')]).sort((a,b)=>a[0]-b[0]).map(x=>x.join(':')).join(' ')")
    [ "$CODE" = 200 ] && [ "$got" = "$5" ]
    check "diagram $1 $2 side $3 on $4" $? "got $CODE $got"
}
diagram chess N 0 27 "10:mc 12:mc 17:mc 21:mc 33:mc 37:mc 42:mc 44:mc"
diagram chess P 0 12 "19:c 20:m 21:c 28:m"
diagram chess P 1 52 "36:m 43:c 44:m 45:c"
# Diamondback pawn on b2: b3 and c2 move or capture, c3 move only; flank captures a3, c1
diagram diamondback P 0 9 "2:c 10:mc 16:c 17:mc 18:m"
# Acromantula on d4: 4 steps, then 20 squares diagonally outward
req POST /api/diagram '{"variant":"team-mate","piece":"A","side":0,"square":27}'
holds "d.targets.length===24 && d.targets.find(t=>t.sq===53)?.path.join()==='35,44'"
check "diagram team-mate Acromantula: 24 squares, f7 over d5 and e6" $?
# Falcon on e5 of the 10x9 board: 16 squares
req POST /api/diagram '{"variant":"hannibal","piece":"F","side":0,"square":44}'
holds "d.targets.length===16 && d.targets.every(t=>t.move&&t.capture&&t.path.length===2)"
check "diagram hannibal Falcon: 16 squares, two passed on each path" $?
for bad in '{"variant":"nope","piece":"N","square":1}' '{"variant":"chess","piece":"Z","square":1}' \
    '{"variant":"chess","piece":"N","square":64}' '{"variant":"chess","piece":"N","square":-1}' \
    '{"variant":"chess","piece":"NN","square":1}' '{"variant":"slangenspel","piece":"N","square":1}' \
    '{"variant":"chess","piece":"N","square":1.5}' '{"variant":"chess","piece":"N","square":1e300}' '{"variant":"chess","piece":"N","square":1,"side":2}' \
    '{"variant":"../../etc/x.var","piece":"N","square":1}' '{}'; do
    req POST /api/diagram "$bad"
    [ "$CODE" = 400 ] && holds d.error
    check "diagram rejects $bad" $? "$CODE"
done

# ---- the board editor's check of a position ----
req POST /api/position '{"variant":"hannibal","fen":"5k4/10/2p7/10/10/10/10/10/R4K4[MbFh] w - - 0 1"}'
holds "d.valid && d.moves > 0 && d.over === '' && d.position.includes('[MbFh]')"
check "position check: a Hannibal position with gates" $?
req POST /api/position '{"variant":"chess","fen":"8/8/8/8/8/8/8/4K3 w - - 0 1"}'
holds "!d.valid && /king/i.test(d.error)"
check "position check: the engine's message for a board without a Black King" $?
req POST /api/position '{"variant":"chess","fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}'
holds "d.valid && /mate/.test(d.over) && d.moves === 0"
check "position check: a mated position is over" $?
for bad in '{"variant":"chess"}' '{"variant":"nope","fen":"8/8 w"}' '{"fen":"x"}' '{"variant":"chess","fen":5}'; do
    req POST /api/position "$bad"
    check "position check rejects $bad" "$([ "$CODE" = 400 ] && echo 0 || echo 1)"
done

# ---- every position of a game, for the review ----
req POST /api/games '{"variant":"chess","players":["human","human"]}'
ID=$(js d.id)
req POST "/api/games/$ID/move" '{"move":"e2e4"}'
req POST "/api/games/$ID/move" '{"move":"e5"}'
req GET "/api/games/$ID/positions"
holds "d.length===3 && d[0].last===null && /^rnbqkbnr\/pppppppp\/8/.test(d[0].position) && d[1].last.from===12 && d[1].last.to===28 && d[1].board.squares[28]==='P' && d[2].side===0"
check "positions: start and every move of a chess game" $? "$CODE"
req POST /api/games '{"variant":"hannibal","players":["human","human"]}'
HID=$(js d.id)
for m in MbFh McFg b1c3; do req POST "/api/games/$HID/move" "{\"move\":\"$m\"}"; done
req GET "/api/games/$HID/positions"
holds "d.length===4 && d[0].board.hands[0]==='MF' && d[2].board.gates[0]==='.M.....F..' && d[3].board.squares[1]==='M'"
check "positions: Hannibal hands, gates and a gating move" $?
req POST /api/games '{"variant":"slangenspel-a","players":["human","human"]}'
MID=$(js d.id)
req POST "/api/games/$MID/move" '{"move":"3+"}'
req POST "/api/games/$MID/resign" '{"side":1}'
req GET "/api/games/$MID/positions"
holds "d.length===2 && d[0].position.startsWith('5/5/5') && d[1].position.startsWith('5/5/0/6/6/6/6/6') && d[1].last.text==='3+' && !d[1].board"
check "positions: a finished Slangenspel game" $?
req GET /api/games/000000000000/positions
check "positions: an unknown game is 404" "$([ "$CODE" = 404 ] && echo 0 || echo 1)"
# ---- analysis on demand ----
req POST "/api/games/$ID/analysis" '{"ply":0,"movetime_ms":600}'
holds "d.ply===0 && d.running===true && /^rnbqkbnr\/pppppppp\/8/.test(d.position)"
check "analysis: started for the start position of a game under way" $? "$CODE"
poll "/api/games/$ID/analysis" '!d.running'
holds "((L, w) => !d.running && L.length===3 && d.ply===0 && w[0]>=w[1] && w[1]>=w[2] && L.every(l=>l.pv_san.startsWith(l.san) && l.depth>0) && new Set(L.map(l=>l.move)).size===3)(d.lines, d.lines.map(l=>l.mate?1e6*Math.sign(l.mate):l.score))"
check "analysis: three different lines in SAN, best first for White" $? "$(js 'JSON.stringify(d.lines.map(l=>[l.san,l.score]))')"
req POST "/api/games/$ID/analysis" '{"movetime_ms":300}'
holds "d.ply===2 && d.position.split(' ')[1]==='w'"
check "analysis: the live position by default" $? "$CODE"
for bad in '{"ply":3}' '{"ply":-1}' '{"ply":1.5}' '{"movetime_ms":5}' '{"movetime_ms":"x"}'; do
    req POST "/api/games/$ID/analysis" "$bad"
    check "analysis rejects $bad" "$([ "$CODE" = 400 ] && echo 0 || echo 1)" "$CODE"
done
req POST /api/games/000000000000/analysis '{}'
code=$CODE
req GET "/api/games/$HID/analysis"
check "analysis: unknown game 404, no analysis yet 404" "$([ "$code" = 404 ] && [ "$CODE" = 404 ] && echo 0 || echo 1)" "$code $CODE"
req POST "/api/games/$MID/analysis" '{"ply":0,"movetime_ms":300}'
poll "/api/games/$MID/analysis" '!d.running'
holds "d.lines.length===3 && /^[0-9]+[+-]x?$/.test(d.lines[0].san)"
check "analysis: Slangenspel lines" $? "$(js 'JSON.stringify(d)')"
# against the engine: while the game goes on, no analysis and the engine's planned
# line shown to nobody; once it is over, both open
req POST /api/games '{"variant":"chess","players":["human","engine"],"movetime_ms":1500}'
EID=$(js d.id)
req POST "/api/games/$EID/move" '{"move":"e2e4"}'
sleep 0.6
req GET "/api/games/$EID"
expect "against the engine: its search is shown while it thinks, its line is not" 200 \
    "d.thinking && d.search && d.search.depth >= 1 && d.search.pv === '' && d.search.pv_san === ''"
req POST "/api/games/$EID/analysis" '{"movetime_ms":300}'
expect "against the engine: no analysis while the game goes on" 409 "/game is over/.test(d.error)"
req GET "/api/games/$EID/analysis"
expect "against the engine: nor a reading of one" 409 "d.error"
poll "/api/games/$EID" '!d.thinking' 100
req POST "/api/games/$EID/resign" '{"side":0}'
expect "against the engine: after the game its last line is shown" 200 \
    "d.result.over && d.search && d.search.pv.length > 0 && d.search.pv_san.length > 0"
req POST "/api/games/$EID/analysis" '{"movetime_ms":300}'
expect "against the engine: analysis after the game" 202 "d.ply === 2"
# several at once, then the server stops while they run
for g in $ID $HID $MID; do req POST "/api/games/$g/analysis" '{"movetime_ms":20000}'; done

req GET /rules/team-mate.txt
check "rules texts served to the page" "$([ "$CODE" = 200 ] && echo 0 || echo 1)"

stop_server
check "server stopped cleanly" "$RC"
