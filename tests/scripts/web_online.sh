#!/usr/bin/env bash
# Online games of `menagerie serve`: an invitation, seats bound to session cookies,
# every action tried from a spectator and from the other seat (each refused, the game
# unchanged), offers of draws and take-backs answered by the other player, the
# cross-site checks, and the live stream (Server-Sent Events, resumed by event id).
# Then, where Chromium can run, tests/web/online.mjs plays a whole game between two
# browsers while a third watches. Prints one "ok ..." or "FAIL ..." line per check.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
must_start_server "$T/data"

version() { as "$1" GET "/api/games/$2" && js d.version; }

# ---- an invitation ----
as alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Alice","clock_ms":600000,"inc_ms":0}'
expect "online game: made with an invitation" 201 \
    "d.online && d.you === 0 && /^[0-9a-f]{64}$/.test(d.invite) && d.seats[0].name === 'Alice' && !d.seats[1].held && d.invitation"
G=$(js d.id)
TOKEN=$(js d.invite)
grep -qi '^set-cookie: menagerie_session=[0-9a-f]\{64\}; Path=/; Max-Age=[0-9]*; HttpOnly; SameSite=Strict' "$T/head"
check "session cookie: HttpOnly, SameSite=Strict" $? "$(grep -i set-cookie "$T/head")"
as alice GET "/api/games/$G"
expect "the invitation is told once, to its maker" 200 "d.invite === undefined && d.you === 0"
as alice POST "/api/games/$G/move" '{"move":"e2e4"}'
expect "no move before the second player comes" 409 "/second player/.test(d.error)"
as bob POST "/api/games/$G/join" '{"name":"Bob"}'
expect "join without the token refused" 403 "/invitation/.test(d.error)"
as bob POST "/api/games/$G/join" "{\"name\":\"Bob\",\"token\":\"${TOKEN//a/b}x\"}"
expect "join with a malformed token refused" 403
as bob POST "/api/games/$G/join" "{\"name\":\"Bob\",\"token\":\"$(printf '%064d' 0)\"}"
expect "join with a wrong token refused" 403
as bob POST "/api/games/$G/join" "{\"name\":\"<b>Bob\",\"token\":\"$TOKEN\"}"
expect "a name with markup refused" 400
as alice POST "/api/games/$G/join" "{\"name\":\"Alice\",\"token\":\"$TOKEN\"}"
expect "the maker cannot take the other seat too" 409
as bob POST "/api/games/$G/join" "{\"name\":\"Bob\",\"token\":\"$TOKEN\"}"
expect "join with the token" 200 "d.you === 1 && d.seats[1].name === 'Bob' && d.seats[0].name === 'Alice'"
as eve POST "/api/games/$G/join" "{\"name\":\"Eve\",\"token\":\"$TOKEN\"}"
expect "a third player finds both seats taken" 409
as eve GET "/api/games/$G"
expect "a spectator sees the game, and no seat" 200 "d.you === null && d.seats[1].held"

# a game Black leaves on his move (claimed against at the end, once he is gone 30 s;
# both have moved, so the game is not aborted however long the tests between take)
as alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Alice","invite":false}'
C=$(js d.id)
as bob POST "/api/games/$C/join" '{"name":"Bob"}'
as alice POST "/api/games/$C/move" '{"move":"d2d4"}'
as bob POST "/api/games/$C/move" '{"move":"d7d5"}'
as alice POST "/api/games/$C/move" '{"move":"c2c4"}'
expect "a game Black will leave" 200 "d.side === 1"
CLAIM_AT=$((SECONDS + 32))
as alice POST "/api/games/$C/claim" '{}'
expect "no claim against a player who has just moved or is here" 409 "/still here/.test(d.error)"
as bob POST "/api/games/$C/claim" '{}'
expect "no claim on your own move" 409 "/your move/.test(d.error)"

# ---- every action from a spectator, and from the wrong seat ----
V=$(version alice "$G")
for a in "move|{\"move\":\"e2e4\"}" "undo|{}" "resign|{}" "draw|{}" "go|{}" "stop|{}" \
    "options|{\"level\":5}"; do
    as eve POST "/api/games/$G/${a%%|*}" "${a#*|}"
    expect "spectator: ${a%%|*} refused" 403
done
as eve DELETE "/api/games/$G"
expect "spectator: delete refused" 403
as bob POST "/api/games/$G/move" '{"move":"e2e4"}'
expect "Black cannot move for White" 403 "/opponent/.test(d.error)"
as bob POST "/api/games/$G/resign" '{"side":"white"}'
expect "Black cannot resign for White" 403
as alice POST "/api/games/$G/analysis" '{}'
expect "no analysis for a player during the game" 409
as eve GET "/api/games/$G"
[ "$(js d.version)" = "$V" ] && [ "$(js d.history.length)" = 0 ] && [ "$(js d.result.over)" = false ]
check "the refusals left the game as it was" $? "$(head -c 300 "$T/body")"
as forger POST "/api/games/$G/move" '{"move":"e2e4"}' "Cookie: menagerie_session=$(printf 'f%.0s' $(seq 64))"
expect "a forged session cookie is a spectator" 403

# ---- cross-site requests ----
as alice POST "/api/games/$G/move" '{"move":"e2e4"}' "Origin: http://evil.example"
expect "Origin of another site refused" 403 "/another site/.test(d.error)"
as alice POST "/api/games/$G/move" '{"move":"e2e4"}' "Sec-Fetch-Site: cross-site"
expect "Sec-Fetch-Site: cross-site refused" 403
as alice POST "/api/games/$G/move" '{"move":"e2e4"}' "Origin: http://127.0.0.1:$PORT"
expect "the page's own origin: White moves" 200 "d.history.length === 1 && d.clock.running === null"

# ---- the live stream ----
curl -sN --noproxy '*' --max-time 6 "$B/api/games/$G/events" > "$T/sse1" &
S1=$!
LAST=$(version eve "$G")
curl -sN --noproxy '*' --max-time 6 -H "Last-Event-ID: $LAST" "$B/api/games/$G/events" > "$T/sse2" &
S2=$!
sleep 1
as bob POST "/api/games/$G/move" '{"move":"e7e5"}'
expect "Black moves" 200 "d.history.length === 2 && d.clock.running === 0"
wait $S1 $S2
grep -q '^event: state' "$T/sse1" && [ "$(grep -c '^id: ' "$T/sse1")" -ge 2 ] &&
    grep '^data: ' "$T/sse1" | tail -1 | grep -q '"san":"e5"'
check "a stream gets the state at once and each change" $? "$(head -c 300 "$T/sse1")"
[ "$(grep -c '^id: ' "$T/sse2")" = 1 ] && grep -q "^id: $((LAST + 1))\$" "$T/sse2"
check "a stream resumed at the last event id gets only what came after" $? "$(cat "$T/sse2" | head -c 300)"
! grep -q '"you"\|holder\|invite"' "$T/sse1"
check "the stream says nothing of seats' secrets or sides" $?

curl -sN --noproxy '*' --max-time 3 "$B/api/games/$G/events" > "$T/sse3" &
S3=$!
sleep 0.5
curl -sN --noproxy '*' --max-time 1 -b "$T/bob" "$B/api/games/$G/events" > /dev/null
wait $S3
grep -A1 '^event: presence' "$T/sse3" | grep -q '"present": \[false, true\]' &&
    [ "$(grep -c '^id: ' "$T/sse3")" = 1 ]
check "a player's page coming is told as presence, not as a new state" $? "$(grep -v '^data' "$T/sse3" | head -c 400)"

# ---- offers ----
as alice POST "/api/games/$G/draw"
expect "White offers a draw" 200 "d.draw_offer === 0 && !d.result.over"
as alice POST "/api/games/$G/move" '{"move":"g1f3"}'
as bob POST "/api/games/$G/move" '{"move":"b8c6"}'
expect "a move of the other side declines the offer" 200 "d.draw_offer === null"
as alice POST "/api/games/$G/undo"
expect "White asks to take back" 200 "d.takeback_offer === 0 && d.history.length === 4"
as alice POST "/api/games/$G/undo"
expect "asking again changes nothing" 200 "d.takeback_offer === 0 && d.history.length === 4"
as bob POST "/api/games/$G/undo"
expect "Black grants it: White's last move goes back" 200 "d.history.length === 2 && d.side === 0 && d.takeback_offer === null"
as bob POST "/api/games/$G/draw"
as alice POST "/api/games/$G/draw"
expect "a draw offered and accepted" 200 "d.result.over && d.result.score === '1/2-1/2'"
as alice DELETE "/api/games/$G"
expect "a game between people cannot be deleted" 403
as eve GET "/api/games/$G/export"
grep -q '\[White "Alice"\]' "$T/body" && grep -q '\[Black "Bob"\]' "$T/body" && ! grep -q "$TOKEN" "$T/body"
check "the export names the players and holds no secret" $? "$(head -c 300 "$T/body")"
as eve GET /api/games
expect "the list names an online game's players" 200 "d.some(g => g.id === '$G' && g.online && g.names[0] === 'Alice' && g.names[1] === 'Bob')"

# ---- an open seat (no invitation), random sides ----
as alice POST /api/games '{"variant":"slangenspel","online":true,"invite":false,"name":"Alice"}'
expect "an open game" 201 "d.online && !d.invitation && d.invite === undefined"
O=$(js d.id)
as bob POST "/api/games/$O/join" '{"name":"Bob"}'
expect "anyone may take its seat" 200 "d.you === 0 || d.you === 1"

# ---- abort ----
as alice POST /api/games '{"variant":"chess","online":true,"side":"black","name":"Alice","invite":false}'
A=$(js d.id)
as eve POST "/api/games/$A/abort"
expect "a spectator cannot abort" 403
as bob POST "/api/games/$A/join" '{"name":"Bob"}'
as bob POST "/api/games/$A/move" '{"move":"e2e4"}'
as alice POST "/api/games/$A/abort"
expect "abort before both sides moved" 200 "d.result.over && d.result.aborted && d.result.score === '*' && /aborted by Black/.test(d.result.reason)"
as alice POST "/api/games/$A/move" '{"move":"e7e5"}'
expect "no move in an aborted game" 409
as eve GET "/api/games/$A/export"
grep -q '\[Termination "abandoned"\]' "$T/body" && grep -q '\[Result "\*"\]' "$T/body"
check "an aborted game exports as abandoned, no result" $? "$(head -c 400 "$T/body")"
as alice POST /api/games '{"variant":"chess","online":true,"name":"Alice","invite":false}'
A2=$(js d.id)
as bob POST "/api/games/$A2/join" '{"name":"Bob"}'
as alice GET "/api/games/$A2"
WHITE=$(js "d.you === 0 ? 'alice' : 'bob'")
BLACK=$(js "d.you === 0 ? 'bob' : 'alice'")
as "$WHITE" POST "/api/games/$A2/move" '{"move":"e2e4"}'
as "$BLACK" POST "/api/games/$A2/move" '{"move":"e7e5"}'
as "$WHITE" POST "/api/games/$A2/abort"
expect "no abort once both sides moved" 409 "/both sides/.test(d.error)"

# ---- lag given back on the clock ----
as alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Alice","invite":false,"clock_ms":60000,"inc_ms":0}'
L=$(js d.id)
as bob POST "/api/games/$L/join" '{"name":"Bob"}'
as alice POST "/api/games/$L/move" '{"move":"e2e4"}'
T0=$(date +%s%3N) # before White's clock starts: SPENT is at least what it charges
as bob POST "/api/games/$L/move" '{"move":"e7e5"}'
expect "the clocks start after both first moves, untouched" 200 "d.clock.left_ms[0] > 59800 && d.clock.left_ms[1] === 60000 && d.clock.running === 0"
sleep 1
as alice POST "/api/games/$L/move" '{"move":"g1f3","lag_ms":5000}'
SPENT=$(($(date +%s%3N) - T0)) # at least what the server charged
expect "a claimed lag is given back up to the quota" 200 "d.clock.lag_ms[0] === 600 && d.clock.left_ms[0] >= 60000 - $SPENT + 600 - 5 && d.clock.left_ms[0] <= 60000 - 1000 + 600"
as bob POST "/api/games/$L/move" '{"move":"b8c6","lag_ms":-5}'
expect "a lag below zero is refused" 400

# ---- the lobby ----
as alice POST /api/seeks '{"variant":"diamondback","setup":"random","name":"Alice","side":"black","clock_ms":300000,"inc_ms":2000}'
expect "a seek" 201 "/^[0-9a-f]{12}$/.test(d.id)"
SK=$(js d.id)
as eve GET /api/lobby
expect "the lobby lists it, not as the viewer's" 200 "d.seeks.some(s => s.id === '$SK' && s.name === 'Alice' && s.variant === 'diamondback' && !s.mine && s.clock_ms === 300000)"
as alice POST /api/seeks '{"variant":"nonesuch","name":"Alice"}'
expect "a seek of no such game refused" 404
as alice POST /api/seeks '{"variant":"chess","fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}'
expect "a seek from a position refused" 400
as alice POST /api/seeks '{"variant":"chess"}'
as alice POST /api/seeks '{"variant":"chess"}'
as alice POST /api/seeks '{"variant":"chess"}'
expect "a fourth open seek of one player refused" 429
as eve DELETE "/api/seeks/$SK"
expect "only its player cancels a seek" 403
as alice POST "/api/seeks/$SK/accept" '{}'
expect "nobody accepts their own seek" 409
as bob POST "/api/seeks/$SK/accept" '{"name":"Bob"}'
expect "a seek accepted: a game, the taker White" 201 "d.online && d.you === 0 && d.seats[1].name === 'Alice' && d.seats[0].name === 'Bob' && d.variant === 'diamondback' && d.clock.base_ms === 300000"
SG=$(js d.id)
curl -sN --noproxy '*' --max-time 2 "$B/api/games/$SG/events" > "$T/sg"
[ $? = 28 ] && [ "$(grep -c '^event: state' "$T/sg")" = 1 ] && grep -q '^id: 0$' "$T/sg"
check "the stream of a game at version 0 stays open" $? "$(head -c 200 "$T/sg")"
as eve POST "/api/seeks/$SK/accept" '{"name":"Eve"}'
expect "a taken seek cannot be taken again" 404
as alice GET /api/lobby
expect "its maker sees where it went; the game is listed as played" 200 "d.seeks.some(s => s.id === '$SK' && s.mine && s.game === '$SG') && d.games.some(g => g.id === '$SG')"
as eve GET /api/lobby
expect "others no longer see the taken seek" 200 "!d.seeks.some(s => s.id === '$SK')"
curl -sN --noproxy '*' --max-time 3 -b "$T/eve" "$B/api/lobby/events" > "$T/lobby" &
LS=$!
sleep 0.5
as bob POST /api/seeks '{"variant":"team-mate","name":"Bob"}'
wait $LS
[ "$(grep -c '^event: lobby' "$T/lobby")" -ge 2 ] && grep '^data: ' "$T/lobby" | tail -1 | grep -q '"team-mate"'
check "the lobby's stream pushes a new seek" $? "$(head -c 300 "$T/lobby")"

# ---- the claim against the player who left ----
while [ $SECONDS -lt $CLAIM_AT ]; do sleep 1; done
as alice POST "/api/games/$C/claim" '{"result":"maybe"}'
expect "a claim's result is win or draw" 400
as alice POST "/api/games/$C/claim" '{}'
expect "a claim against a player gone 30 s on his move" 200 "d.result.over && d.result.score === '1-0' && /Black left/.test(d.result.reason)"

# ---- limits per address, through a proxy ----
as alice POST "/api/games/$L/draw"
expect "a draw offered before a restart" 200 "d.draw_offer === 0"
stop_server
must_start_server "$T/data" --proxy 127.0.0.1
as alice GET "/api/games/$G"
expect "after a restart: seats, names and players' sessions kept" 200 "d.online && d.you === 0 && d.seats[0].name === 'Alice' && d.seats[1].name === 'Bob'"
as bob GET "/api/games/$L"
expect "after a restart: the offer stands, the clocks started" 200 "d.you === 1 && d.draw_offer === 0 && d.started && d.clock.running === 1"
as eve GET "/api/games/$A"
expect "after a restart: the aborted game stays aborted" 200 "d.result.aborted && d.result.over"
LIMITED=0
for i in $(seq 12); do
    as far POST /api/seeks "{\"variant\":\"chess\",\"name\":\"Far$i\"}" "X-Forwarded-For: 198.51.100.$i, 203.0.113.9"
    [ "$CODE" = 429 ] && LIMITED=$((LIMITED + 1))
    rm -f "$T/far" # a new session each time: the per-player limit does not bite
done
[ "$LIMITED" = 2 ]; check "ten seeks from one address through the proxy, then 429" $? "$LIMITED refused"
as near POST /api/seeks '{"variant":"chess","name":"Near"}' "X-Forwarded-For: 203.0.113.10"
expect "another address through the proxy is not held up" 201
as local POST /api/seeks '{"variant":"chess","name":"Local"}'
expect "this machine's own requests are not limited" 201
MANY=()
for i in $(seq 33); do
    curl -sN --noproxy '*' --max-time 3 -H "X-Forwarded-For: 192.0.2.7" "$B/api/lobby/events" > "$T/many$i" 2>&1 &
    MANY+=($!)
done
sleep 1
curl -s --noproxy '*' --max-time 3 -o "$T/body" -w '%{http_code}' -H "X-Forwarded-For: 192.0.2.7" "$B/api/lobby/events" > "$T/code"
[ "$(cat "$T/code")" = 429 ] && grep -q "too many live pages" "$T/body"
check "at most 32 streams from one address through the proxy" $? "$(cat "$T/code") $(head -c 200 "$T/body")"
wait "${MANY[@]}"

# ---- the whole game in browsers ----
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -f tests/web/node_modules/playwright-core/package.json ]; then
    node tests/web/online.mjs "$B/" "$T/shots" 2>&1 | grep -E '^(ok|FAIL)'
else
    echo "ok web online browsers: skipped (no Chromium or playwright-core; tests/scripts/web_e2e.sh installs them)"
fi
stop_server
check "server stops cleanly with streams open" "$RC"
