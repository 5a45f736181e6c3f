#!/usr/bin/env bash
# What a level means comes from one place, the engine: GET /api/levels and the
# terminal game's `level` command say the same words, with the searcher's caps
# and the measured strength; the web and terminal defaults agree. Prints one
# "ok ..." or "FAIL ..." line per check. Uses node for JSON.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
must_start_server "$T/data"

req GET /api/levels
expect "GET /api/levels: 20 levels for each kind, in words" 200 \
    "['chess', 'mancala'].every((k) => d[k].length === 20 && d[k].every((l, i) => l.level === i + 1 && l.text.length > 40)) && typeof d.source === 'string'"
# the searcher's caps: depth 1 + 0.6 L, noise 10 (20 - L) cp, a node cap rising with L
holds "d.chess.slice(0, 19).every((l, i) => l.depth === 1 + Math.floor((i + 1) * 6 / 10) && l.noise === 10 * (19 - i) &&
    l.nodes > 0 && (!i || l.nodes > d.chess[i - 1].nodes)) && d.chess[19].depth === 0 && d.chess[19].nodes === 0 &&
    /full strength/.test(d.chess[19].text)"
check "levels: the caps of levels 1-19, level 20 uncapped" $? "$(js 'JSON.stringify(d.chess[7])')"
# each measured figure is in the words: a number of Elo, "even", or "lost every game"
holds "d.chess.every((l) => (l.elo_full === null || (l.elo_full === 0 ? /even/ : new RegExp(l.elo_full + ' Elo')).test(l.text)) &&
    (!l.elo_full_lost_all || /lost every game/.test(l.text)) && (l.elo_fairymax === null || /Fairy-Max/.test(l.text)))"
check "levels: measured strength as data and in words" $?
# whom each level plays like, in a player's words: a newcomer's first level a beginner,
# never weaker words for a stronger level, none where nothing is measured
holds "((w) => d.chess[d.first_level - 1].like === 'beginner' && d.first_level < d.default_level &&
    d.chess[19].like === 'grandmaster and beyond' && d.chess.every((l, i) => w.indexOf(l.like) >= 0 &&
    (!i || w.indexOf(l.like) >= w.indexOf(d.chess[i - 1].like))) && d.mancala.every((l) => l.like === ''))(
    ['beginner', 'casual player', 'club player', 'strong club player', 'master', 'grandmaster and beyond'])"
check "levels: plain words for each chess level, the first one a beginner's" $? "$(js 'JSON.stringify(d.chess.map((l) => l.like))')"
holds "d.mancala.slice(0, 19).every((l) => l.nodes === 0 && l.depth > 0 && /eggs?/.test(l.text) && l.elo_full === null)"
check "levels: the mancala's own caps" $? "$(js 'JSON.stringify(d.mancala[4])')"

# the terminal game prints the same text, and starts from the same defaults
words() { tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
for n in 3 12; do
    want=$(js "d.chess[$((n - 1))].text" | words)
    got=$(printf 'level %d\n' "$n" | "$BIN" play chess --engine none 2>&1 |
        sed -n "/^level $n\$/,/^White>/p" | sed '1d;$d' | words)
    case "$got" in "$want"*) check "play: level $n says what the page says" 0 ;;
        *) check "play: level $n says what the page says" 1 "got: $got" ;; esac
done
want=$(js "d.mancala[5].text" | words)
got=$(printf 'level 6\n' | "$BIN" play slangenspel --engine none 2>&1 |
    sed -n '/^level 6$/,/^A>/p' | sed '1d;$d' | words)
[ "$got" = "$want" ]
check "play: the mancala's level 6 as the page's" $? "got: $got"
level=$(js d.default_level)
secs=$(js "d.default_movetime_ms / 1000")
printf 'level\ntime\n' | "$BIN" play chess --engine none > "$T/play" 2>&1
grep -q "^level $level (" "$T/play" && grep -q "engine time: $secs s a move" "$T/play"
check "the terminal game's defaults are the page's (level $level, $secs s)" $? "$(grep -E '^(level|engine time)' "$T/play")"
req POST /api/games '{"variant":"chess","players":["human","human"]}'
expect "a new web game starts at the defaults" 201 "d.level === $level && d.movetime_ms === $secs * 1000"
