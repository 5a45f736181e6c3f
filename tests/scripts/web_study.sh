#!/usr/bin/env bash
# The teaching and study routes of `menagerie serve` (piece diagrams from the move
# tables, the board editor's position check, every position of a game, analyses) and
# the terminal game's `rules` command. Expected piece reaches are counted by hand from
# the rulings, not taken from the program. Prints one "ok ..." or "FAIL ..." line per
# check. Uses node to read JSON replies (tests/web/server.sh).
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/web/server.sh

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
start_server

# diagram VARIANT LETTER SIDE SQUARE EXPECTED: EXPECTED lists "sq:m|c|mc" sorted by square
diagram() {
    local code
    code=$(post /api/diagram "{\"variant\":\"$1\",\"piece\":\"$2\",\"side\":$3,\"square\":$4}")
    got=$(js "console.log(d.targets.map(t=>[t.sq,(t.move?'m':'')+(t.capture?'c':'')]).sort((a,b)=>a[0]-b[0]).map(x=>x.join(':')).join(' '))" 2>/dev/null)
    [ "$code" = 200 ] && [ "$got" = "$5" ]
    check "diagram $1 $2 side $3 on $4" $? "got $code $got"
}
diagram chess N 0 27 "10:mc 12:mc 17:mc 21:mc 33:mc 37:mc 42:mc 44:mc"
diagram chess P 0 12 "19:c 20:m 21:c 28:m"
diagram chess P 1 52 "36:m 43:c 44:m 45:c"
# Diamondback pawn on b2: b3 and c2 move or capture, c3 move only; flank captures a3, c1
diagram diamondback P 0 9 "2:c 10:mc 16:c 17:mc 18:m"
# Acromantula on d4: 4 steps, then 20 squares diagonally outward
code=$(post /api/diagram '{"variant":"team-mate","piece":"A","side":0,"square":27}')
js "const n=d.targets.length, f7=d.targets.find(t=>t.sq===53); process.exit(n===24 && f7 && f7.path.join()==='35,44' ? 0 : 1)"
check "diagram team-mate Acromantula: 24 squares, f7 over d5 and e6" $?
# Falcon on e5 of the 10x9 board: 16 squares
code=$(post /api/diagram '{"variant":"hannibal","piece":"F","side":0,"square":44}')
js "process.exit(d.targets.length===16 && d.targets.every(t=>t.move&&t.capture&&t.path.length===2) ? 0 : 1)"
check "diagram hannibal Falcon: 16 squares, two passed on each path" $?
for bad in '{"variant":"nope","piece":"N","square":1}' '{"variant":"chess","piece":"Z","square":1}' \
    '{"variant":"chess","piece":"N","square":64}' '{"variant":"chess","piece":"N","square":-1}' \
    '{"variant":"chess","piece":"NN","square":1}' '{"variant":"slangenspel","piece":"N","square":1}' \
    '{"variant":"chess","piece":"N","square":1.5}' '{"variant":"chess","piece":"N","square":1e300}' '{"variant":"chess","piece":"N","square":1,"side":2}' \
    '{"variant":"../../etc/x.var","piece":"N","square":1}' '{}'; do
    code=$(post /api/diagram "$bad")
    [ "$code" = 400 ] && js "process.exit(d.error ? 0 : 1)"
    check "diagram rejects $bad" $? "$code"
done

# ---- the board editor's check of a position ----
post /api/position '{"variant":"hannibal","fen":"5k4/10/2p7/10/10/10/10/10/R4K4[MbFh] w - - 0 1"}' > /dev/null
js "process.exit(d.valid && d.moves > 0 && d.over === '' && d.position.includes('[MbFh]') ? 0 : 1)"
check "position check: a Hannibal position with gates" $?
post /api/position '{"variant":"chess","fen":"8/8/8/8/8/8/8/4K3 w - - 0 1"}' > /dev/null
js "process.exit(!d.valid && /king/i.test(d.error) ? 0 : 1)"
check "position check: the engine's message for a board without a Black King" $?
post /api/position '{"variant":"chess","fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}' > /dev/null
js "process.exit(d.valid && /mate/.test(d.over) && d.moves === 0 ? 0 : 1)"
check "position check: a mated position is over" $?
for bad in '{"variant":"chess"}' '{"variant":"nope","fen":"8/8 w"}' '{"fen":"x"}' '{"variant":"chess","fen":5}'; do
    code=$(post /api/position "$bad")
    check "position check rejects $bad" "$([ "$code" = 400 ] && echo 0 || echo 1)"
done

# ---- every position of a game, for the review ----
post /api/games '{"variant":"chess","players":["human","human"]}' > /dev/null
ID=$(js "console.log(d.id)")
post "/api/games/$ID/move" '{"move":"e2e4"}' > /dev/null
post "/api/games/$ID/move" '{"move":"e5"}' > /dev/null
code=$(get "/api/games/$ID/positions")
js "process.exit(d.length===3 && d[0].last===null && /^rnbqkbnr\/pppppppp\/8/.test(d[0].position) && d[1].last.from===12 && d[1].last.to===28 && d[1].board.squares[28]==='P' && d[2].side===0 ? 0 : 1)"
check "positions: start and every move of a chess game" $? "$code"
post /api/games '{"variant":"hannibal","players":["human","human"]}' > /dev/null
HID=$(js "console.log(d.id)")
for m in MbFh McFg b1c3; do post "/api/games/$HID/move" "{\"move\":\"$m\"}" > /dev/null; done
curl -s -o "$T/body" "$B/api/games/$HID/positions"
js "process.exit(d.length===4 && d[0].board.hands[0]==='MF' && d[2].board.gates[0]==='.M.....F..' && d[3].board.squares[1]==='M' ? 0 : 1)"
check "positions: Hannibal hands, gates and a gating move" $?
post /api/games '{"variant":"slangenspel-a","players":["human","human"]}' > /dev/null
MID=$(js "console.log(d.id)")
post "/api/games/$MID/move" '{"move":"3+"}' > /dev/null
post "/api/games/$MID/resign" '{"side":1}' > /dev/null
curl -s -o "$T/body" "$B/api/games/$MID/positions"
js "process.exit(d.length===2 && d[0].position.startsWith('5/5/5') && d[1].position.startsWith('5/5/0/6/6/6/6/6') && d[1].last.text==='3+' && !d[1].board ? 0 : 1)"
check "positions: a finished Slangenspel game" $?
code=$(curl -s -o "$T/body" -w '%{http_code}' "$B/api/games/000000000000/positions")
check "positions: an unknown game is 404" "$([ "$code" = 404 ] && echo 0 || echo 1)"
# ---- analysis on demand ----
code=$(post "/api/games/$ID/analysis" '{"ply":0,"movetime_ms":600}')
js "process.exit(d.ply===0 && d.running===true && /^rnbqkbnr\/pppppppp\/8/.test(d.position) ? 0 : 1)"
check "analysis: started for the start position of a game under way" $? "$code"
for _ in $(seq 100); do
    curl -s -o "$T/body" "$B/api/games/$ID/analysis"
    js "process.exit(d.running ? 1 : 0)" && break
    sleep 0.1
done
js "const L=d.lines, w=L.map(l=>l.mate?1e6*Math.sign(l.mate):l.score); process.exit(!d.running && L.length===3 && d.ply===0 && w[0]>=w[1] && w[1]>=w[2] && L.every(l=>l.pv_san.startsWith(l.san) && l.depth>0) && new Set(L.map(l=>l.move)).size===3 ? 0 : 1)"
check "analysis: three different lines in SAN, best first for White" $? "$(js 'console.log(JSON.stringify(d.lines.map(l=>[l.san,l.score])))')"
code=$(post "/api/games/$ID/analysis" '{"movetime_ms":300}')
js "process.exit(d.ply===2 && d.position.split(' ')[1]==='w' ? 0 : 1)"
check "analysis: the live position by default" $? "$code"
for bad in '{"ply":3}' '{"ply":-1}' '{"ply":1.5}' '{"movetime_ms":5}' '{"movetime_ms":"x"}'; do
    code=$(post "/api/games/$ID/analysis" "$bad")
    check "analysis rejects $bad" "$([ "$code" = 400 ] && echo 0 || echo 1)" "$code"
done
code=$(post "/api/games/000000000000/analysis" '{}')
code2=$(curl -s -o /dev/null -w '%{http_code}' "$B/api/games/$HID/analysis")
check "analysis: unknown game 404, no analysis yet 404" "$([ "$code" = 404 ] && [ "$code2" = 404 ] && echo 0 || echo 1)" "$code $code2"
post "/api/games/$MID/analysis" '{"ply":0,"movetime_ms":300}' > /dev/null
for _ in $(seq 100); do
    curl -s -o "$T/body" "$B/api/games/$MID/analysis"
    js "process.exit(d.running ? 1 : 0)" && break
    sleep 0.1
done
js "process.exit(d.lines.length===3 && /^[0-9]+[+-]x?$/.test(d.lines[0].san) ? 0 : 1)"
check "analysis: Slangenspel lines" $? "$(js 'console.log(JSON.stringify(d))')"
# several at once, then the server stops while they run
for g in $ID $HID $MID; do post "/api/games/$g/analysis" '{"movetime_ms":20000}' > /dev/null; done

code=$(curl -s -o /dev/null -w '%{http_code}' "$B/rules/team-mate.txt")
check "rules texts served to the page" "$([ "$code" = 200 ] && echo 0 || echo 1)"

stop_server
check "server stopped cleanly" "$RC"
