#!/usr/bin/env bash
# The match tool: short matches in every chess variant between Menagerie over
# CECP and over UCI, PGN output, score and Elo lines, and the referee's
# verdicts on broken engines (illegal move, silence, false claim, death).
# Prints one "ok ..." or "FAIL ..." line per check. MENAGERIE picks the
# binary (default ./menagerie).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
M=$bin

for v in chess snake-vs-mongoose team-mate diamondback hannibal; do
    timeout 120 "$M" match --variant "$v" --games 2 --depth 1 --maxplies 30 --plies 2 --seed 7 \
        --pgn "$tmp/$v.pgn" self self-uci > "$tmp/m-$v" 2>&1
    has "m-$v" "$v: match announces itself" "^match: Menagerie 1 vs Menagerie 2, $v, 2 games"
    has "m-$v" "$v: progress line per game" '^game 2/2: Menagerie 2 - Menagerie 1 (1-0|0-1|1/2-1/2) \{.*\} [0-9]+ plies; score '
    has "m-$v" "$v: score line" '^Score of Menagerie 1 vs Menagerie 2: [0-9]+ - [0-9]+ - [0-9]+  \[[0-9.]+\] 2$'
    has "m-$v" "$v: Elo line" '^Elo difference: '
    [ "$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$tmp/$v.pgn")" = 2 ] &&
        echo "ok $v: PGN has both games with results" || echo "FAIL $v: PGN results"
    # one Result tag a game, and the moves end with the same result (adjudicated games too)
    awk '/^\[Result /{n++; r=$2; gsub(/[]"]/, "", r)} /^[^[]/ && NF {last=$NF}
        /^$/ && last != "" {if (last != r) bad++; last=""} END {exit !(n == 2 && !bad)}' "$tmp/$v.pgn" &&
        echo "ok $v: each game's moves end with its Result tag" || echo "FAIL $v: results disagree"
    has "$v.pgn" "$v: PGN Variant tag" "^\\[Variant \"$v\"\\]"
    # Termination: one of the PGN standard's values in each game
    [ "$(grep -c '^\[Termination "\(normal\|adjudication\)"\]$' "$tmp/$v.pgn")" = 2 ] &&
        echo "ok $v: PGN Termination tags have the standard's values" ||
        { echo "FAIL $v: PGN Termination"; grep '^\[Termination' "$tmp/$v.pgn" | sed 's/^/    /'; }
    has "$v.pgn" "$v: PGN reason in a comment" '^\{(adjudicated: ply limit|[a-z].*)\} (1-0|0-1|1/2-1/2)$'
    has "$v.pgn" "$v: PGN players" '^\[White "Menagerie [12]"\]'
    # the same opening twice, colours swapped: the first plies agree
    o1=$(grep -m1 -E '^1\. ' "$tmp/$v.pgn" | cut -d' ' -f1-3)
    o2=$(grep -E '^1\. ' "$tmp/$v.pgn" | sed -n 2p | cut -d' ' -f1-3)
    [ -n "$o1" ] && [ "$o1" = "$o2" ] && echo "ok $v: both games of a pair share the opening" ||
        echo "FAIL $v: openings differ ($o1 / $o2)"
done

# clocks and fixed time per move
timeout 120 "$M" match --variant team-mate --games 2 --tc 1+0.05 --maxplies 24 --seed 1 \
    self self > "$tmp/tc" 2>&1
has tc "time control: games finish" '^Score of .*\] 2$'
if grep -q 'on time' "$tmp/tc"; then echo "FAIL time control: a loss on time"; else
    echo "ok time control: no loss on time"; fi
# time odds: engine 2 on a clock of its own, each told its own
timeout 120 "$M" match --variant team-mate --games 2 --tc 1+0.01 --tc2 4+0.04 --maxplies 16 \
    --seed 1 --trace --pgn "$tmp/odds.pgn" self self > "$tmp/odds" 2> "$tmp/odds.trace"
has odds "--tc2: announced" '^match: .* 1\+0\.01 s against 4\+0\.04 s'
has odds "--tc2: games finish" '^Score of .*\] 2$'
[ "$(grep -c '< level 0 0:01 0.01$' "$tmp/odds.trace")" = 2 ] &&
    [ "$(grep -c '< level 0 0:04 0.04$' "$tmp/odds.trace")" = 2 ] &&
    echo "ok --tc2: each engine gets its own level, as White and as Black" ||
    echo "FAIL --tc2: levels $(grep -c '< level' "$tmp/odds.trace")"
has odds.pgn "--tc2: no one TimeControl in the PGN" '^\[TimeControl "\?"\]$'
"$M" match --tc2 3 --nodes 100 self self > "$tmp/odds2" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q -- '--tc2 needs a clock' "$tmp/odds2" && echo "ok --tc2 without a clock refused" ||
    echo "FAIL --tc2 with --nodes: exit $rc"
# a slow GUI: every move charged 0.3 s empties a 1 s clock in a few moves
timeout 120 "$M" match --variant team-mate --games 2 --tc 1+0.01 --gui-delay 300 --maxplies 40 \
    --seed 1 self self > "$tmp/delay" 2>&1
has delay "--gui-delay: a move is charged at least the delay" 'loses on time'
timeout 120 "$M" match --variant team-mate --games 2 --tc 1+0.01 --gui-delay 300 --maxplies 12 \
    --margin 600000 --seed 1 self self > "$tmp/delay2" 2>&1
hasnt delay2 "--gui-delay with a large --margin: no flag falls" 'on time'
has delay2 "--gui-delay with a large --margin: games finish" '^Score of .*\] 2$'
timeout 120 "$M" match --variant snake-vs-mongoose --games 2 --st 0.05 --maxplies 20 --seed 1 \
    --quiet self-uci self > "$tmp/st" 2>&1
has st "--st and --quiet" '^Score of .*\] 2$'
[ "$(count st '^game ')" = 0 ] && echo "ok --quiet: no game lines" || echo "FAIL --quiet"

# broken engines, as tiny CECP and UCI scripts
cat > "$tmp/illegal.sh" <<'EOF'
#!/bin/sh
while read -r l; do case "$l" in
  protover*) echo "feature ping=1 usermove=1 setboard=1 done=1" ;;
  ping*) echo "pong ${l#ping }" ;;
  go|usermove*) echo "move a1a1" ;;
  quit) exit 0 ;;
esac; done
EOF
cat > "$tmp/silent.sh" <<'EOF'
#!/bin/sh
while read -r l; do case "$l" in
  protover*) echo "feature ping=1 usermove=1 done=1" ;;
  ping*) echo "pong ${l#ping }" ;;
  quit) exit 0 ;;
esac; done
EOF
cat > "$tmp/claim.sh" <<'EOF'
#!/bin/sh
while read -r l; do case "$l" in
  protover*) echo "feature ping=1 usermove=1 done=1" ;;
  ping*) echo "pong ${l#ping }" ;;
  go|usermove*) echo "1-0 {I say so}" ;;
  quit) exit 0 ;;
esac; done
EOF
cat > "$tmp/dies.sh" <<'EOF'
#!/bin/sh
while read -r l; do case "$l" in
  uci) echo "id name Dies"; echo "uciok" ;;
  isready) echo "readyok" ;;
  go*) exit 3 ;;
esac; done
EOF
chmod +x "$tmp"/*.sh
common=(--variant chess --games 2 --plies 0 --depth 1 --tc 0.6+0 --maxplies 20 --seed 1)
timeout 60 "$M" match "${common[@]}" --pgn "$tmp/b1.pgn" self "xboard:$tmp/illegal.sh" > "$tmp/b1" 2>&1
has b1 "referee: illegal move loses" '(White|Black) plays an illegal move a1a1'
has b1 "referee: score counts it" '^Score of Menagerie vs illegal.sh: 2 - 0 - 0'
timeout 60 "$M" match "${common[@]}" --pgn "$tmp/b2.pgn" "xboard:$tmp/silent.sh" self > "$tmp/b2" 2>&1
has b2 "referee: silence loses on time" 'loses on time'
timeout 60 "$M" match "${common[@]}" --pgn "$tmp/b3.pgn" self "xboard:$tmp/claim.sh" > "$tmp/b3" 2>&1
has b3 "referee: a false claim loses" 'false claim'
timeout 60 "$M" match "${common[@]}" --pgn "$tmp/b4.pgn" self "uci:$tmp/dies.sh" > "$tmp/b4" 2>&1
has b4 "referee: a dead engine loses, and is restarted" '^game 2/2: .*engine failure'
has b4 "referee: UCI engine name from id name" '^Score of Menagerie vs Dies: 2 - 0 - 0'
# PGN Termination: the standard's value, the referee's reason in a comment
# before the result
has b1.pgn "Termination: an illegal move is a rules infraction" '^\[Termination "rules infraction"\]$'
has b1.pgn "Termination: the illegal move's reason in a comment" '^\{(White|Black) plays an illegal move a1a1\} (1-0|0-1)$'
has b2.pgn "Termination: silence is a time forfeit" '^\[Termination "time forfeit"\]$'
has b2.pgn "Termination: the time loss in a comment" '^\{(White|Black) loses on time\} (1-0|0-1)$'
has b3.pgn "Termination: a false claim is a rules infraction" '^\[Termination "rules infraction"\]$'
has b3.pgn "Termination: the false claim in a comment" '^\{(White|Black) makes a false claim: .*\} (1-0|0-1)$'
has b4.pgn "Termination: a dead engine abandons" '^\[Termination "abandoned"\]$'
has b4.pgn "Termination: the engine failure in a comment" '^\{(White|Black): engine failure .*\} (1-0|0-1)$'
printf 'f2f3 e7e5 g2g4\n' > "$tmp/mate.txt"
timeout 60 "$M" match --variant chess --games 2 --depth 2 --openings "$tmp/mate.txt" --seed 1 \
    --pgn "$tmp/mate.pgn" self self-uci > "$tmp/mate" 2>&1
[ "$(grep -c '^\[Termination "normal"\]$' "$tmp/mate.pgn")" = 2 ] &&
    echo "ok Termination: a mate is a normal end" || echo "FAIL Termination: a mate is a normal end"
[ "$(grep -cx '3\. Qh4# {checkmate} 0-1\|{checkmate} 0-1' "$tmp/mate.pgn")" = 2 ] &&
    echo "ok Termination: the mate in a comment before the result" ||
    { echo "FAIL Termination: the mate in a comment before the result"; tail -4 "$tmp/mate.pgn" | sed 's/^/    /'; }
[ "$(grep -c '^\[Termination ' "$tmp/mate.pgn")" = 2 ] && echo "ok Termination: one tag a game" ||
    echo "FAIL Termination: one tag a game"
# the SPRT stops by itself: an engine that loses every game
timeout 60 "$M" match --variant chess --games 40 --plies 0 --depth 1 --tc 0.6+0 --sprt 0,10 \
    self "xboard:$tmp/illegal.sh" > "$tmp/s1" 2>&1
has s1 "SPRT: verdict H1" '^SPRT: llr [0-9.]+ \(-2.94, 2.94\) \[0, 10\]: H1 accepted( after [0-9]+ games)?$'
[ "$(tail -1 "$tmp/s1" | grep -c 'H1 accepted')" = 1 ] && echo "ok SPRT: the last line keeps the verdict" ||
    echo "FAIL SPRT: last line $(tail -1 "$tmp/s1")"
[ "$(grep -c '^game ' "$tmp/s1")" -lt 40 ] && echo "ok SPRT: stops before --games" ||
    echo "FAIL SPRT: played all 40 games"
# ... but two like pairs decide nothing (no zero variance from a few games)
timeout 60 "$M" match --variant chess --games 4 --plies 0 --depth 1 --tc 0.6+0 --sprt 0,10 \
    self "xboard:$tmp/illegal.sh" > "$tmp/s2" 2>&1
has s2 "SPRT: two won pairs, no verdict yet" '^SPRT: llr 0\.[0-9]+ \(-2.94, 2.94\) \[0, 10\]: no verdict$'

# fixed nodes, concurrency, an opening file, the pentanomial line
printf 'e2e4 e7e5 # open\n\nd2d4 d7d5\n' > "$tmp/book.txt"
timeout 120 "$M" match --variant chess --games 4 --nodes 1500 --concurrency 2 --maxplies 24 \
    --openings "$tmp/book.txt" --pgn "$tmp/n.pgn" self self-uci > "$tmp/n" 2>&1
has n "--nodes: announced" '^match: .* 4 games, 1500 nodes per move, seed [0-9]+, 2 openings from line [12], concurrency 2$'
has n "--nodes with --concurrency 2: all games finish" '^Score of .*\] 4$'
has n "pentanomial count of the two pairs" '^Ptnml\(0-2\): [0-9], [0-9], [0-9], [0-9], [0-9]$'
[ "$(grep -cE '^1\. (e4 e5|d4 d5) ' "$tmp/n.pgn")" = 4 ] && echo "ok games start from the opening file" ||
    echo "FAIL opening file not used"
# a set played through comes again with random plies: engines limited by
# nodes replay no game (self against self: both games of a pair alike)
printf 'e2e4 e7e5\n' > "$tmp/one.txt"
timeout 120 "$M" match --variant chess --games 8 --nodes 300 --maxplies 16 --seed 5 \
    --openings "$tmp/one.txt" --pgn "$tmp/r.pgn" self self > "$tmp/r" 2>&1
has r "reused openings announced" '^match: .* 1 openings from line 1 \(then again with 2 random plies\)$'
[ "$(grep -c '^1\. e4 e5 ' "$tmp/r.pgn")" = 8 ] && [ "$(grep '^1\. ' "$tmp/r.pgn" | sort -u | wc -l)" = 4 ] &&
    echo "ok a reused opening line gets new plies: 4 pairs, 4 different games" ||
    echo "FAIL reused opening: $(grep '^1\. ' "$tmp/r.pgn" | sort -u | wc -l) different games"
# the pairs take the set's lines in order from the one the header names
printf 'e2e4\nd2d4\nc2c4\ng1f3\nb2b3\ng2g3\nb1c3\nf2f4\ne2e3\nd2d3\n' > "$tmp/ten.txt"
san=(e4 d4 c4 Nf3 b3 g3 Nc3 f4 e3 d3)
timeout 60 "$M" match --variant chess --games 4 --depth 1 --maxplies 2 --seed 1 \
    --openings "$tmp/ten.txt" --pgn "$tmp/w.pgn" self self > "$tmp/w" 2>&1
k=$(sed -nE '1s/.* 10 openings from line ([0-9]+)$/\1/p' "$tmp/w")
if [ -n "$k" ]; then
    want="1. ${san[k - 1]} 1. ${san[k - 1]} 1. ${san[k % 10]} 1. ${san[k % 10]} "
    got=$(grep -oE '^1\. [A-Za-z0-9]+' "$tmp/w.pgn" | tr '\n' ' ')
fi
[ -n "$k" ] && [ "$got" = "$want" ] &&
    echo "ok the header names the first pair's line; the next pair takes the next line" ||
    echo "FAIL opening lines: header line ${k:-none}, games ${got:-none}"
# nearby seeds start far apart in the built-in set (they once started two
# lines apart, and a gauntlet "from new openings" replayed nearly all of
# another's)
starts=()
for sd in 1 2 3 4 607 609; do
    starts+=("$(timeout 60 "$M" match --variant chess --games 2 --depth 1 --maxplies 2 --seed $sd \
        self self 2>&1 | sed -nE '1s/.* 935 openings from line ([0-9]+)$/\1/p')")
done
near=0
for i in "${!starts[@]}"; do
    for j in "${!starts[@]}"; do
        d=$((${starts[i]:-0} - ${starts[j]:-0})); d=${d#-}; [ $((935 - d)) -lt $d ] && d=$((935 - d))
        [ "$i" -lt "$j" ] && [ "$d" -lt 20 ] && near=1
    done
done
[ "$(printf '%s\n' "${starts[@]}" | grep -cE '^[0-9]+$')" = 6 ] && [ $near = 0 ] &&
    echo "ok seeds 1-4, 607 and 609 start at lines at least 20 apart (${starts[*]})" ||
    echo "FAIL nearby seeds start near each other: ${starts[*]}"
# the openings tool: plausible plies (each among the best moves of a
# MultiPV search); with no spread every ply is a best-scored one
timeout 120 "$M" openings chess --count 2 --plies 4 --nodes 3000 --margin 300 --spread 40 \
    --seed 3 > "$tmp/plaus.txt" 2>/dev/null
has plaus.txt "openings --spread: named in the header" '^# chess: 2 openings, 4 plausible plies, '
[ "$(grep -cE '^([a-h][1-8]){2}( ([a-h][1-8]){2}){3}$' "$tmp/plaus.txt")" = 2 ] &&
    echo "ok openings --spread: two lines of four moves" || echo "FAIL openings --spread: lines"
timeout 120 "$M" match --variant chess --games 2 --depth 1 --maxplies 12 --openings "$tmp/plaus.txt" \
    self self > "$tmp/pm" 2>&1
has pm "openings --spread: the match tool plays the set" '^match: .* 2 openings from line [12]$'
# --spread 0: a first move the same MultiPV search (over UCI) scores best
(printf 'uci\nsetoption name Hash value 8\nsetoption name MultiPV value 8\n'
    printf 'position startpos\ngo nodes 2000\n'; sleep 2; echo quit) | timeout 30 "$M" uci |
    awk '$1 == "info" && / multipv / { for (i = 1; i < NF; i++) { if ($i == "multipv") k = $(i + 1)
        if ($i == "cp") s[k] = $(i + 1); if ($i == "pv") { m[k] = $(i + 1); break } } }
        END { for (k in m) if (s[k] == s[1]) print m[k] }' > "$tmp/top.txt"
ok=1
for sd in 1 2 3; do
    f=$(timeout 120 "$M" openings chess --count 1 --plies 1 --nodes 2000 --margin 300 --spread 0 \
        --seed $sd 2>/dev/null | grep -v '^#')
    grep -qxF -- "$f" "$tmp/top.txt" || ok=0
done
[ -s "$tmp/top.txt" ] && [ $ok = 1 ] && echo "ok openings --spread 0: a best-scored move, whatever the seed" ||
    echo "FAIL openings --spread 0: $f not among $(tr '\n' ' ' < "$tmp/top.txt")"
printf 'e2e4\ne2e5\n' > "$tmp/bad.txt"
"$M" match --openings "$tmp/bad.txt" self self > "$tmp/n2" 2>&1; rc=$?
[ $rc = 2 ] && grep -q 'bad.txt line 2: illegal move e2e5' "$tmp/n2" &&
    echo "ok a bad opening line is named, exit 2" || echo "FAIL bad opening line: exit $rc"
"$M" match --openings "$tmp/none.txt" self self > "$tmp/n3" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok a missing opening file: exit 2" || echo "FAIL missing opening file: exit $rc"
"$M" match --sprt 5,0 self self > "$tmp/n4" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --sprt with ELO0 >= ELO1 refused" || echo "FAIL --sprt 5,0: exit $rc"
"$M" match --nodes 100 --tc 1+0 self self > "$tmp/n5" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --nodes with --tc refused" || echo "FAIL --nodes --tc: exit $rc"

# a real external engine when installed (Fairy-Max plays Team-Mate)
fm=$(command -v fairymax || ls /usr/games/fairymax 2>/dev/null || true)
if [ -n "$fm" ]; then
    timeout 120 "$M" match --variant team-mate --games 2 --st 0.05 --maxplies 30 --seed 2 \
        self "xboard:$fm" > "$tmp/fm" 2>&1
    has fm "Fairy-Max over CECP: games finish" '^Score of Menagerie vs Fairy-Max[^:]*: .*\] 2$'
    if grep -qE 'illegal|false claim|failure' "$tmp/fm"; then echo "FAIL Fairy-Max: verdict"
        cat "$tmp/fm"; else echo "ok Fairy-Max: no illegal move or failure"; fi
    # the classic variants Fairy-Max also plays (its Courier starts from
    # another array and it takes no setboard, so Courier is left out)
    for v in shatranj knightmate capablanca gothic janus; do
        timeout 120 "$M" match --variant $v --games 2 --depth 1 --maxplies 24 --seed 3 \
            self "xboard:$fm" > "$tmp/fm-$v" 2>&1
        has "fm-$v" "Fairy-Max, $v: games finish" '^Score of Menagerie vs Fairy-Max[^:]*: .*\] 2$'
        if grep -qE 'illegal|false claim|failure' "$tmp/fm-$v"; then echo "FAIL Fairy-Max, $v: verdict"
            cat "$tmp/fm-$v"; else echo "ok Fairy-Max, $v: no illegal move or failure"; fi
    done
    timeout 60 "$M" match --variant hannibal --games 2 --depth 1 self "xboard:$fm" > "$tmp/fm2" 2>&1
    has fm2 "an engine that does not play the variant is refused" 'does not play hannibal'
else
    echo "ok Fairy-Max not installed: external-engine check skipped"
fi

# bad arguments
"$M" match --games x self self > "$tmp/a1" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok bad --games: usage, exit 2" || echo "FAIL bad --games: exit $rc"
"$M" match self > "$tmp/a2" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok one engine: usage, exit 2" || echo "FAIL one engine: exit $rc"
"$M" match --variant slangenspel self self > "$tmp/a3" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok mancala refused" || echo "FAIL mancala: exit $rc"
"$M" match self nonsense > "$tmp/a4" 2>&1; rc=$?
has a4 "unknown engine spec explained" 'bad engine "nonsense"'
# engine options: one taken plays, one an XBoard engine refuses ends the match as a failure
timeout 60 "$M" match --games 2 --depth 1 --maxplies 20 --opt1 SearchParams=rfp.margin:120 \
    --opt2 Level=20 self self > "$tmp/o1" 2>&1; rc=$?
[ $rc = 0 ] && echo "ok options taken: the match is played" || echo "FAIL options taken: exit $rc"
has o1 "options taken: games finish" '^Score of .*\] 2$'
timeout 60 "$M" match --games 2 --depth 1 --opt2 SearchParams=rfp.margin:9999 self self > "$tmp/o2" 2>&1; rc=$?
[ $rc = 1 ] && echo "ok option refused: exit 1" || echo "FAIL option refused: exit $rc"
has o2 "option refused: the engine's reason shown" 'refused an option: Error \(search parameter rfp.margin must be a whole number 30..200'
hasnt o2 "option refused: no game played" '^game '

# --baseline: the same pairs compared with an earlier match's, pair by pair
bl=(--variant chess --nodes 300 --maxplies 60 --seed 3 --concurrency 2)
timeout 120 "$M" match "${bl[@]}" --games 6 --pgn "$tmp/bl.pgn" self self > "$tmp/bl0" 2>&1
timeout 120 "$M" match "${bl[@]}" --games 6 --baseline "$tmp/bl.pgn" self self > "$tmp/bl1" 2>&1; rc=$?
[ $rc = 0 ] && echo "ok --baseline: the match is played" || echo "FAIL --baseline: exit $rc"
has bl1 "--baseline: announced" '^match: .*, baseline .*bl\.pgn$'
has bl1 "--baseline: the same engine plays every pair as before" \
    '^Against the baseline: 3 pairs, better in 0, worse in 0; score against Menagerie 2 50\.0% \(baseline 50\.0%\)$'
has bl1 "--baseline: no difference" '^Elo difference to the baseline: \+0\.0 \(95%: -[0-9.]+, \+[0-9.]+\)$'
timeout 120 "$M" match "${bl[@]}" --games 6 --baseline "$tmp/bl.pgn" --sprt 0,10 --opt1 Level=1 \
    --maxplies 200 self self > "$tmp/bl2" 2>&1
has bl2 "--baseline: a weaker engine 1 does worse in the pairs" '^Against the baseline: 3 pairs, better in 0, worse in [1-3];'
has bl2 "--baseline: ... and below the baseline in Elo" \
    '^Elo difference to the baseline: -(inf|[0-9.]+) \(95%: -(inf|[0-9.]+), [-+][0-9.]+\)$'
has bl2 "--baseline: the SPRT reads the differences" '^SPRT: llr -?[0-9.]+ .*\(against the baseline\)$'
timeout 120 "$M" match "${bl[@]}" --games 10 --baseline "$tmp/bl.pgn" self self > "$tmp/bl3" 2>&1; rc=$?
has bl3 "--baseline: the match ends where the baseline does" '^The baseline has no game 7: the match ends with it\.$'
has bl3 "--baseline: ... with the pairs it has" '^Against the baseline: 3 pairs'
[ $rc = 0 ] && echo "ok --baseline run out: exit 0" || echo "FAIL --baseline run out: exit $rc"
timeout 60 "$M" match "${bl[@]}" --seed 4 --games 6 --baseline "$tmp/bl.pgn" self self > "$tmp/bl4" 2>&1; rc=$?
[ $rc = 1 ] && echo "ok --baseline of other openings: exit 1" || echo "FAIL --baseline other openings: exit $rc"
has bl4 "--baseline of other openings explained" 'baseline game 1 was played from another opening'
hasnt bl4 "--baseline of other openings: no game played" '^game '
printf '[Event "x"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n\n1. e4 e5 *\n' > "$tmp/bl5.pgn"
"$M" match "${bl[@]}" --games 6 --baseline "$tmp/bl5.pgn" self self > "$tmp/bl5" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --baseline with an unfinished game: exit 2" || echo "FAIL --baseline unfinished: exit $rc"
has bl5 "--baseline: a game without a result named" 'baseline .*bl5\.pgn: game 1: no result'
printf '[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 Ke7 Kf7 1-0\n' > "$tmp/bl6.pgn"
"$M" match "${bl[@]}" --games 6 --baseline "$tmp/bl6.pgn" self self > "$tmp/bl6" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --baseline with an illegal move: exit 2" || echo "FAIL --baseline illegal: exit $rc"
has bl6 "--baseline: the illegal move's game named" 'baseline .*bl6\.pgn: game 1: '
"$M" match --variant team-mate --games 6 --baseline "$tmp/bl.pgn" self self > "$tmp/bl7" 2>&1; rc=$?
has bl7 "--baseline of another game refused" 'game 1 is chess, not team-mate'
"$M" match "${bl[@]}" --games 6 --baseline "$tmp/none.pgn" self self > "$tmp/bl8" 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --baseline missing: exit 2" || echo "FAIL --baseline missing: exit $rc"
has bl8 "--baseline missing explained" 'baseline: cannot read .*none\.pgn'

# no sanitizer report in any session (ASan/UBSan builds)
if grep -D skip -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* 2>/dev/null; then
    echo "FAIL sanitizer reports:"; grep -D skip -hE -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* | head -30
else echo "ok no sanitizer reports"; fi
