#!/usr/bin/env bash
# Accounts and rated games of `menagerie serve`: registering (names unique case
# aside, the name and password rules), logging in (one answer for a wrong password
# and an unknown name, the per-address and per-name limits through a --proxy), out,
# /api/me; a second session of the same account acting for its seat; rated games
# (guests refused, a resigned game moving both ratings once, an aborted one none,
# nothing applied again after a restart); the player page and ?player=; the page
# in Chromium where it runs (tests/web/accounts.mjs); and no password in the
# server's output or the database. Prints one "ok ..." or
# "FAIL ..." line per check.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
PW1=Secret-pass-one-7781
PW2=Other-pass-two-9912
must_start_server "$T/data" --proxy 127.0.0.1


# ---- register, login, logout, me ----
as alice GET /api/me
expect "a guest: no account" 200 "d.name === null && d.account === false"
as alice POST /api/register "{\"name\":\"Alice\",\"password\":\"$PW1\"}"
expect "register" 201 "d.name === 'Alice' && d.id > 0"
as alice GET /api/me
expect "registered: logged in" 200 "d.name === 'Alice' && d.account === true"
as eve POST /api/register "{\"name\":\"aLiCe\",\"password\":\"$PW2\"}"
expect "a name taken in another case" 409 "/taken/.test(d.error)"
as eve POST /api/register "{\"name\":\"<b>x\",\"password\":\"$PW2\"}"
expect "a bad name" 400
as eve POST /api/register '{"name":"Evelyn","password":"short"}'
expect "a short password" 400
as eve POST /api/register '{"name":"Evelyn","password":"evelyn"}'
expect "the name as password" 400
as eve POST /api/register '{"name":"Evelyn"}'
expect "no password" 400
as bob POST /api/register "{\"name\":\"Bob\",\"password\":\"$PW2\"}"
expect "a second account" 201 "d.name === 'Bob'"
as eve POST /api/login '{"name":"Alice","password":"wrong-password-1"}'
expect "a wrong password" 401
WRONG=$(js d.error)
as eve POST /api/login '{"name":"Nobody","password":"wrong-password-1"}'
expect "an unknown name: the same answer" 401 "d.error === '$WRONG'"
as alice2 POST /api/login "{\"name\":\"ALICE\",\"password\":\"$PW1\"}"
expect "login (any case) from a second session" 200 "d.name === 'Alice'"
as eve POST /api/logout
as eve GET /api/me
expect "logout of a guest: still a guest" 200 "d.account === false"

# the limits: 5 tries from one address, then 429; and per name from many addresses
for i in 1 2 3 4 5; do
    as eve POST /api/login '{"name":"Mallory","password":"wrong-password-1"}' "X-Forwarded-For: 203.0.113.7"
done
expect "five tries from an address" 401
as eve POST /api/login '{"name":"Mallory","password":"wrong-password-1"}' "X-Forwarded-For: 203.0.113.7"
expect "the sixth: limited" 429 "/wait [0-9]+ s/.test(d.error)"
for i in 1 2 3 4 5; do
    as eve POST /api/login '{"name":"Carol","password":"wrong-password-1"}' "X-Forwarded-For: 198.51.100.$i"
done
as eve POST /api/login '{"name":"carol","password":"wrong-password-1"}' "X-Forwarded-For: 198.51.100.99"
expect "a name tried from many addresses: limited" 429
as alice GET /api/me
expect "this machine's own requests are not limited" 200 "d.name === 'Alice'"

# ---- a seat acted for from the account's other session ----
as alice POST /api/games '{"variant":"chess","online":true,"side":"white","name":"Ignored","invite":false}'
expect "a logged-in player's seat has the account's name" 201 "d.seats[0].name === 'Alice' && !d.rated"
G=$(js d.id)
as bob POST "/api/games/$G/join" '{"name":"Whoever"}'
expect "join under the account's name" 200 "d.seats[1].name === 'Bob'"
as alice2 POST "/api/games/$G/move" '{"move":"e2e4"}'
expect "the account's second session moves for its seat" 200 "d.side === 1 && d.you === 0"
as alice2 POST /api/logout
as alice2 GET /api/me
expect "logged out" 200 "d.account === false"
as alice2 POST "/api/games/$G/resign" '{}'
expect "logged out: the seat is not that session's any more" 403

# ---- rated games ----
as eve POST /api/games '{"variant":"chess","online":true,"rated":true}'
expect "a guest cannot offer a rated game" 403 "/log in/.test(d.error)"
as eve POST /api/seeks '{"variant":"chess","rated":true}'
expect "a guest cannot seek a rated game" 403
as alice POST /api/games '{"variant":"chess","online":true,"side":"white","rated":true,"invite":false}'
expect "a rated game" 201 "d.rated === true"
R=$(js d.id)
as eve POST "/api/games/$R/join" '{"name":"Eve"}'
expect "a guest cannot join a rated game" 403 "/log in to play a rated game/.test(d.error)"
as bob POST "/api/games/$R/join" '{}'
expect "an account joins" 200 "d.you === 1"
as alice POST "/api/games/$R/move" '{"move":"e2e4"}'
as bob POST "/api/games/$R/move" '{"move":"e7e5"}'
as bob POST "/api/games/$R/resign" '{}'
expect "Black resigns" 200 "d.result.over"
as eve GET /api/players/alice
expect "the winner's rating rose from 1500" 200 \
    "d.name === 'Alice' && d.ratings.length === 1 && d.ratings[0].game === 'chess' && d.ratings[0].rating > 1500 && d.ratings[0].games === 1 && d.ratings[0].provisional && d.history.chess.length === 1"
A1=$(js d.ratings[0].rating)
as eve GET /api/players/Bob
expect "the loser's fell" 200 "d.ratings[0].rating < 1500 && d.history.chess.length === 1 && d.games.some(g => g.id === '$R')"
B1=$(js d.ratings[0].rating)

# an aborted rated game (a seek between the two): no change
as bob POST /api/seeks '{"variant":"chess","rated":true,"side":"white"}'
expect "a rated seek" 201
S=$(js d.id)
as eve POST "/api/seeks/$S/accept" '{}'
expect "a guest cannot accept a rated seek" 403
as alice2 POST "/api/seeks/$S/accept" '{}'
expect "a guest session cannot either" 403
as alice POST "/api/seeks/$S/accept" '{}'
expect "an account accepts it" 201 "d.rated === true && d.seats[0].name === 'Bob' && d.seats[1].name === 'Alice'"
S2=$(js d.id)
as bob POST "/api/games/$S2/abort" '{}'
expect "aborted" 200
as eve GET /api/players/Alice
expect "an aborted game changes no rating" 200 "d.ratings[0].rating === $A1 && d.history.chess.length === 1"

# a restart after the end: nothing applied again
stop_server
must_start_server "$T/data" --proxy 127.0.0.1
as alice GET /api/me
expect "the login lasts a restart" 200 "d.name === 'Alice'"
as alice POST "/api/games/$R/resign" '{}'
as eve GET /api/players/Bob
expect "after a restart: the rating applied once" 200 "d.ratings[0].rating === $B1 && d.ratings[0].games === 1 && d.history.chess.length === 1"
as eve GET /api/players/Nobody
expect "an unknown player" 404
as eve GET "/api/games?player=Bob"
expect "?player= lists the player's games" 200 \
    "d.length === 3 && d.every(g => g.online) && d.some(g => g.id === '$R') && !d.some(g => !g.online)"
as eve GET "/api/games?player=Nobody"
expect "?player= of nobody: none" 200 "d.length === 0"

# ---- the page, in a browser ----
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -f tests/web/node_modules/playwright-core/package.json ]; then
    stop_server
    must_start_server "$T/page"
    node tests/web/accounts.mjs "$B/" "$T/shots" 2>&1 | grep -E '^(ok|FAIL)'
else
    echo "ok web accounts browsers: skipped (no Chromium or playwright-core; tests/scripts/web_e2e.sh installs them)"
fi

# ---- no password anywhere but its hash ----
stop_server
if grep -q -e "$PW1" -e "$PW2" -e wrong-password-1 "$T/out" "$T/err"; then
    fail "a password in the server's output"
else
    ok "no password in the server's output"
fi
if command -v sqlite3 > /dev/null; then
    sqlite3 "$T/data/menagerie.db" .dump > "$T/dump"
    grep -c '\$argon2id\$' "$T/dump" > /dev/null
    check "the hashes are Argon2id" $?
    if grep -q -e "$PW1" -e "$PW2" "$T/dump"; then
        fail "a password in the database"
    else
        ok "no password in the database"
    fi
elif grep -a -q -e "$PW1" -e "$PW2" "$T/data/menagerie.db"*; then
    fail "a password in the database file"
else
    ok "no password in the database file"
fi
