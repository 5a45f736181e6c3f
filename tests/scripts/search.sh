#!/usr/bin/env bash
# The searcher from the command line: `bench` prints a stable signature;
# through UCI it finds no move after mate and takes a winning corner; two
# copies of it play whole games under the match tool.
set -u
bin=${MENAGERIE:-./menagerie}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bench at a small depth twice: the same node signature, in the right form
"$bin" bench 5 > "$tmp/b1" 2>&1
rc1=$?
"$bin" bench 5 > "$tmp/b2" 2>&1
sig1=$(tail -n 1 "$tmp/b1")
sig2=$(tail -n 1 "$tmp/b2")
if [ $rc1 -eq 0 ] && echo "$sig1" | grep -Eq '^Bench: [0-9]+$'; then
    echo "ok bench prints its signature last"
else
    echo "FAIL bench: exit $rc1, last line \"$sig1\""
fi
if [ "$sig1" = "$sig2" ]; then echo "ok bench signature is stable"; else
    echo "FAIL bench signature differs: \"$sig1\" vs \"$sig2\""; fi
if grep -q '^Nodes searched: ' "$tmp/b1" && grep -q '^Nodes/second: ' "$tmp/b1"; then
    echo "ok bench prints nodes and speed"
else echo "FAIL bench totals missing"; fi
for v in chess snake-vs-mongoose team-mate diamondback hannibal; do
    if grep -q " $v " "$tmp/b1"; then echo "ok bench searches $v"; else echo "FAIL bench has no $v"; fi
done
if "$bin" bench x > /dev/null 2>&1; then echo "FAIL bench accepts a bad depth"; else
    echo "ok bench rejects a bad depth"; fi

# through UCI: a move, no move once mated, the Diamondback corner win
{ printf 'uci\nposition startpos moves e2e4 e7e5\ngo depth 4\n'; sleep 1
  printf 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8\ngo depth 3\n'; sleep 1
  printf 'setoption name UCI_Variant value diamondback\n'
  printf 'position fen 8/6K1/8/8/8/1k6/8/8 w - - 0 1\ngo depth 3\n'; sleep 2; printf 'quit\n'; } |
    "$bin" uci > "$tmp/all" 2>&1
grep '^bestmove ' "$tmp/all" > "$tmp/e"
if grep -Eq '^info depth [0-9]+ .*score (cp|mate) -?[0-9]+ .*nodes [0-9]+ .* pv ' "$tmp/all"; then
    echo "ok engine reports its search"; else echo "FAIL engine info: $(head -n 3 "$tmp/all")"; fi
if [ "$(grep -c '^bestmove ' "$tmp/e")" -eq 3 ]; then echo "ok engine answers every go"; else
    echo "FAIL engine: $(cat "$tmp/e")"; fi
if sed -n 1p "$tmp/e" | grep -Eq '^bestmove [a-h][1-8][a-h][1-8]( ponder .*)?$'; then
    echo "ok engine plays a move"; else echo "FAIL engine first answer: $(sed -n 1p "$tmp/e")"; fi
if sed -n 2p "$tmp/e" | grep -q '^bestmove (none)$'; then echo "ok engine has no move after mate"; else
    echo "FAIL engine after mate: $(sed -n 2p "$tmp/e")"; fi
if sed -n 3p "$tmp/e" | grep -Eq '^bestmove g7h8( |$)'; then echo "ok engine takes the corner"; else
    echo "FAIL engine corner: $(sed -n 3p "$tmp/e")"; fi

# short matches between two copies of this binary, with levels and set-ups
"$bin" match --variant team-mate --games 2 --depth 2 --seed 1 "xboard:$bin xboard" "xboard:$bin xboard" > "$tmp/m" 2>&1
if grep -Eq '^Score of .*: [0-9]+ - [0-9]+ - [0-9]+ ' "$tmp/m" && [ "$(grep -c '^game ' "$tmp/m")" -eq 2 ]; then
    echo "ok match plays its games"
else
    echo "FAIL match: $(tail -n 5 "$tmp/m")"
fi
"$bin" match --variant hannibal --games 2 --depth 2 --seed 2 --opt1 Level=3 "xboard:$bin xboard" "xboard:$bin xboard" > "$tmp/m" 2>&1
if grep -Eq '^Score of ' "$tmp/m" && ! grep -qi 'illegal' "$tmp/m"; then echo "ok match with levels and set-up moves"; else
    echo "FAIL match hannibal: $(tail -n 5 "$tmp/m")"; fi
