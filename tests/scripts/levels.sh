#!/usr/bin/env bash
# What a level means comes from one place, the engine: GET /api/levels and the
# terminal game's `level` command say the same words, with the searcher's caps
# and the measured strength; the web and terminal defaults agree. Prints one
# "ok ..." or "FAIL ..." line per check. Uses node for JSON.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/web/server.sh
start_server

code=$(get /api/levels)
js "const ok = (k) => d[k].length === 20 && d[k].every((l, i) => l.level === i + 1 && l.text.length > 40);
    process.exit(ok('chess') && ok('mancala') && d.source.length > 20 ? 0 : 1)"
check "GET /api/levels: 20 levels for each kind, in words" $? "status $code"
# the searcher's caps (depth 1 + 0.6 L, nodes 200 x 1.75^L, noise 10 (20 - L) cp)
js "const l = d.chess[7]; process.exit(l.depth === 5 && l.nodes === 17592 && l.noise === 120 &&
    d.chess[19].depth === 0 && d.chess[19].nodes === 0 && /full strength/.test(d.chess[19].text) ? 0 : 1)"
check "levels: level 8's caps, level 20 uncapped" $?
js "process.exit(d.chess[11].elo_full === -241 && d.chess[0].elo_full === null && d.chess[0].elo_full_lost_all &&
    d.chess[9].elo_full === null && /between level 8/.test(d.chess[9].text) && d.mancala[4].elo_full === null ? 0 : 1)"
check "levels: measured strength as data and words" $?
js "const l = d.mancala[4]; process.exit(l.nodes === 0 && l.depth > 0 && /eggs/.test(l.text) ? 0 : 1)"
check "levels: the mancala's own caps" $?

# the terminal game prints the same text, and starts from the same defaults
words() { tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
for n in 3 12; do
    want=$(js "console.log(d.chess[$((n - 1))].text)" | words)
    got=$(printf 'level %d\n' "$n" | "$BIN" play chess --engine none 2>&1 |
        sed -n "/^level $n\$/,/^White>/p" | sed '1d;$d' | words)
    case "$got" in "$want"*) check "play: level $n says what the page says" 0 ;;
        *) check "play: level $n says what the page says" 1 "got: $got" ;; esac
done
want=$(js "console.log(d.mancala[5].text)" | words)
got=$(printf 'level 6\n' | "$BIN" play slangenspel --engine none 2>&1 |
    sed -n '/^level 6$/,/^A>/p' | sed '1d;$d' | words)
[ "$got" = "$want" ]
check "play: the mancala's level 6 as the page's" $? "got: $got"
defaults=$(js "console.log(d.default_level, d.default_movetime_ms / 1000)")
printf 'level\ntime\n' | "$BIN" play chess --engine none > "$T/play" 2>&1
grep -q "^level ${defaults% *} (" "$T/play" && grep -q "engine time: ${defaults#* } s a move" "$T/play"
check "the terminal game's defaults are the page's ($defaults)" $? "$(grep -E '^(level|engine time)' "$T/play")"
code=$(post /api/games '{"variant":"chess","players":["human","human"]}')
js "process.exit(d.level === ${defaults% *} && d.movetime_ms === ${defaults#* }000 ? 0 : 1)"
check "a new web game starts at the defaults" $?
