#!/usr/bin/env bash
# `menagerie serve --data DIR` reads the Slangenspel endgame databases in DIR/egdb: a
# damaged table there is refused with a message once a Slangenspel search starts, and
# with a good one the analysis of an endgame is proven, with the value
# `menagerie analyse --data DIR` gives. Prints one "ok ..." or "FAIL ..." line per check.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch

# A's egg in hole 1 and B's in hole 16, A to move (stores 5 and 2): 1-x takes the egg
# and empties A's ring (6-2: +4); 1- empties it too (5-2: +3); after 1+, B's best is 16+x
# (5-3: +2)
FEN='1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 5 2 a'
"$BIN" egdb build --rules base --eggs 4 --data "$T/good" > /dev/null 2>&1
check "a small table built" $?
want=$("$BIN" analyse slangenspel --fen "$FEN" --depth 1 --data "$T/good" 2>&1 | tail -1)
[ "$want" = "bestmove 1-x score 4 exact" ]
check "analyse with the table: $want" $?

# analyse_in DATA: serves DATA, analyses FEN for 0.3 s; the reply is in $T/body
analyse_in() {
    start_server "$1"
    if [ -z "$PORT" ]; then
        fail "serve --data $1 did not start: $(head -c 300 "$T/err")"
        return
    fi
    req POST /api/games "{\"variant\":\"slangenspel\",\"fen\":\"$FEN\",\"players\":[\"human\",\"human\"]}"
    local id
    id=$(js d.id)
    req POST "/api/games/$id/analysis" '{"movetime_ms":300}'
    for _ in $(seq 100); do
        req GET "/api/games/$id/analysis"
        [ "$(js '!d.running')" = true ] && break
        sleep 0.1
    done
    stop_server
}

# a damaged table: the server reports it and still analyses
cp -r "$T/good" "$T/bad"
printf 'x' | dd of="$T/bad/egdb/slangenspel.egdb" bs=1 seek=100 conv=notrunc 2> /dev/null
analyse_in "$T/bad"
grep -q 'endgame database refused: .*bad/egdb/slangenspel.egdb: damaged data' "$T/err"
check "serve --data: a damaged table in DIR/egdb is refused" $? "$(head -c 300 "$T/err")"
expect "serve --data: analysis without the table still answers" 200 'd.lines.length >= 1'

analyse_in "$T/good"
expect "serve --data: the evaluation is proven with the table" 200 \
    'd.lines[0].exact === true && d.lines[0].score === 4 && d.lines[0].san === "1-x"'
expect "serve --data: the other move proven too (several lines)" 200 \
    'd.lines.length === 3 && d.lines.slice(1).every(l => l.exact) && JSON.stringify(d.lines.map(l => [l.san, l.score])) === JSON.stringify([["1-x", 4], ["1-", 3], ["1+", 2]])'
! grep -q 'refused' "$T/err"
check "serve --data: the good table is accepted" $? "$(head -c 300 "$T/err")"
