#!/usr/bin/env bash
# The teaching and review routes of `menagerie serve` (piece diagrams from the move
# tables, every position of a game) and the terminal game's `rules` command. Expected
# piece reaches are counted by hand from the rulings, not taken from the program.
# Prints one "ok ..." or "FAIL ..." line per check. Uses node to read JSON replies.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
if ! command -v node > /dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs > /dev/null
    fi
    command -v node > /dev/null 2>&1 || { echo "FAIL web study: node is missing (apt-get install nodejs)"; exit 1; }
fi
T=$(mktemp -d)
PID=
trap 'if [ -n "$PID" ]; then kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; fi; rm -rf "$T"' EXIT
check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "FAIL $1${3:+: $3}"; fi; }

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
"$BIN" serve --port 0 --data "$T/data" > "$T/out" 2> "$T/err" &
PID=$!
PORT=
for _ in $(seq 100); do
    PORT=$(grep -o '127\.0\.0\.1:[0-9]*' "$T/out" 2>/dev/null | head -1 | cut -d: -f2)
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || { echo "FAIL web study: the server did not start"; exit 1; }
B=http://127.0.0.1:$PORT
post() { curl -s -o "$T/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$2" "$B$1"; }
js() { node -e "const d=JSON.parse(require('fs').readFileSync('$T/body','utf8')); $1"; }

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

# ---- every position of a game, for the review ----
post /api/games '{"variant":"chess","players":["human","human"]}' > /dev/null
ID=$(js "console.log(d.id)")
post "/api/games/$ID/move" '{"move":"e2e4"}' > /dev/null
post "/api/games/$ID/move" '{"move":"e5"}' > /dev/null
code=$(curl -s -o "$T/body" -w '%{http_code}' "$B/api/games/$ID/positions")
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
code=$(curl -s -o /dev/null -w '%{http_code}' "$B/rules/team-mate.txt")
check "rules texts served to the page" "$([ "$code" = 200 ] && echo 0 || echo 1)"

kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
check "server stopped cleanly" "$rc"
