#!/usr/bin/env bash
# The Texel tuner (lab/tune/tune.c) end to end on a few tiny games: self-play
# in process, positions, a fitting pass, eval= lines that the loader reads
# back; bad arguments refused. Uses the tuner of the build MENAGERIE belongs
# to (build/CFG/tune, made here when missing). Prints "ok ..." or "FAIL ...".
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}
case "$M" in build/*/menagerie) cfg=$(basename "$(dirname "$M")") ;; *) cfg=release ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! make -s CFG="$cfg" tune > "$tmp/make" 2>&1; then
    echo "FAIL tuner does not build"; tail -5 "$tmp/make"; exit 0
fi
T=build/$cfg/tune
timeout 300 "$T" snake-vs-mongoose --games 2 --nodes 200 --passes 1 --seed 3 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && echo "ok tuner runs" || { echo "FAIL tuner exit $rc"; tail -5 "$tmp/err"; }
tr '\r' '\n' < "$tmp/err" | grep -qE '^self-play: game 2/2 \(\+[0-9]+ -[0-9]+ =[0-9]+ for White\), [0-9]+ quiet positions' &&
    echo "ok progress: self-play games" || echo "FAIL no self-play progress"
tr '\r' '\n' < "$tmp/err" | grep -qE '^pass 1/1: weight [0-9]+/[0-9]+, error 0\.[0-9]+' &&
    echo "ok progress: fitting pass" || echo "FAIL no fitting progress"
# K and White's edge in the results are fitted before the weights, the edge
# again after every pass (it is no weight: it keeps a side's results from
# being put down to the pieces only that side owns, Mongooses or Snakes)
tr '\r' '\n' < "$tmp/err" | grep -qE '^[0-9]+ positions, K [0-9.]+, White.s edge [-+][0-9.]+, error 0\.[0-9]+$' &&
    echo "ok progress: K and White's edge fitted first" || echo "FAIL no K and edge line"
tr '\r' '\n' < "$tmp/err" | grep -qE "^error 0\.[0-9]+ -> 0\.[0-9]+ over [0-9]+ positions; White's edge [-+][0-9.]+ \(not a weight\)$" &&
    echo "ok summary: error and White's edge" || echo "FAIL no summary line"
! grep -q edge "$tmp/out" && echo "ok the edge is not written as a weight" || echo "FAIL edge in the output"
if [ -s "$tmp/out" ]; then
    grep -qvE '^eval=[A-Za-z0-9._]+:-?[0-9]+(,[A-Za-z0-9._]+:-?[0-9]+)*$' "$tmp/out" &&
        echo "FAIL output is not eval= lines" || echo "ok output: eval= lines"
    # the lines are read back by the loader: a definition file with them loads
    { grep -v '^#' src/variants/snake-vs-mongoose.var; cat "$tmp/out"; } > "$tmp/t.var"
    "$M" perft --variant-file "$tmp/t.var" 1 > "$tmp/perft" 2>&1 &&
        echo "ok tuned weights load with the variant" || { echo "FAIL tuned file:"; cat "$tmp/perft"; }
else
    echo "ok no weight changed (nothing to write)"
    echo "ok tuned weights load (nothing to load)"
fi
# table weights (squares, mobility per number of moves): fitted by
# gradient steps after the passes, written as eval= lines the loader reads
# back (16 games: from 8, a weight per number of moves may be seen in fewer
# than the 200 positions it needs to move, and none is written)
timeout 300 "$T" chess --games 16 --nodes 200 --passes 0 --seed 3 --tables 20 --square-mirror \
    --table-l2 0 > "$tmp/sq" 2> "$tmp/sqerr"
rc=$?
[ $rc = 0 ] && echo "ok table weights: tuner runs" || { echo "FAIL table weights: exit $rc"; tail -5 "$tmp/sqerr"; }
tr '\r' '\n' < "$tmp/sqerr" | grep -qE '^tables: step 20/20, error 0\.[0-9]+' &&
    echo "ok progress: table steps" || echo "FAIL no table progress"
grep -qE '^tables: error 0\.[0-9]+ -> 0\.[0-9]+, start position [-+][0-9]+ -> [-+][0-9]+$' "$tmp/sqerr" &&
    echo "ok summary: table weights' error" || echo "FAIL no table summary"
grep -qE '(^|,|=)[A-Z]\.[a-h][1-8]\.(mg|eg):' "$tmp/sq" && grep -qE '(^|,|=)[A-Z]\.mob[0-9]+\.(mg|eg):' "$tmp/sq" &&
    echo "ok square and mobility weights written" || echo "FAIL table weights missing: $(cat "$tmp/sq")"
grep -q '^tables: squares twinned across the middle file$' "$tmp/sqerr" &&
    echo "ok chess: squares twinned across the middle file" || echo "FAIL chess: no middle-file twins"
# twins of Diamondback (set up along the a1-h8 diagonal): across that
# diagonal, each square's weight written equal to its image's (c1 and a3)
timeout 300 "$T" diamondback --games 6 --nodes 200 --passes 0 --seed 3 --tables 20 --square-mirror \
    --only squares --table-l2 0 > "$tmp/db" 2> "$tmp/dberr"
grep -q '^tables: squares twinned across the a1 diagonal$' "$tmp/dberr" &&
    echo "ok Diamondback: squares twinned across the a1 diagonal" || echo "FAIL Diamondback: no diagonal twins"
tr ',' '\n' < "$tmp/db" | sed 's/^eval=//' | awk -F'[.:]' '
    NF == 4 && $2 ~ /^[a-h][1-8]$/ { w[$1 "." $2 "." $3] = $4; n++ }
    END {
        bad = 0
        for (k in w) {
            split(k, a, "."); f = substr(a[2], 1, 1); r = substr(a[2], 2, 1)
            t = a[1] "." substr("abcdefgh", r, 1) index("abcdefgh", f) "." a[3]
            if (!(t in w) || w[t] != w[k]) bad++
        }
        exit !(n > 0 && bad == 0)
    }' && echo "ok Diamondback: each square weight equals its diagonal twin's" ||
    echo "FAIL Diamondback twins differ: $(cat "$tmp/db")"
{ grep -v '^#' src/variants/chess.var; cat "$tmp/sq"; } > "$tmp/sq.var"
"$M" perft --variant-file "$tmp/sq.var" 1 > "$tmp/sqperft" 2>&1 &&
    echo "ok table weights load with the variant" || { echo "FAIL table file:"; cat "$tmp/sqperft"; }
# a game whose sides own different pieces: the fit leaves the start
# position's score where it was
timeout 300 "$T" snake-vs-mongoose --games 4 --nodes 200 --passes 0 --seed 3 --tables 20 \
    --table-l2 0 > /dev/null 2> "$tmp/svmerr"
start=$(grep -oE 'start position [-+][0-9]+ -> [-+][0-9]+$' "$tmp/svmerr")
# shellcheck disable=SC2086
set -- $start
[ -n "$start" ] && [ $(( ${3#+} - ${5#+} )) -le 2 ] && [ $(( ${5#+} - ${3#+} )) -le 2 ] &&
    echo "ok start position's score held ($start)" || echo "FAIL start position moved: ${start:-no summary}"
# --save: the self-play games as PGN, each with a result, read back by a
# later fit to the same positions (and each game's last one, which
# self-play does not keep)
timeout 300 "$T" chess --games 4 --nodes 200 --passes 0 --seed 5 --save "$tmp/saved.pgn" \
    > /dev/null 2> "$tmp/saveerr"
played=$(tr '\r' '\n' < "$tmp/saveerr" | grep -aoE 'game 4/4 .* ([0-9]+) quiet positions' | grep -oE '[0-9]+ quiet' | cut -d' ' -f1)
[ "$(grep -c '^\[Event "Menagerie self-play"\]' "$tmp/saved.pgn")" = 4 ] &&
    [ "$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$tmp/saved.pgn")" = 4 ] &&
    echo "ok --save: four games with results" || echo "FAIL --save: $(grep -c Event "$tmp/saved.pgn") games"
timeout 300 "$T" chess "$tmp/saved.pgn" --passes 0 > /dev/null 2> "$tmp/readerr"
reread=$(tr '\r' '\n' < "$tmp/readerr" | grep -aoE 'saved.pgn: 4 games, [0-9]+ positions, 0 games' | cut -d' ' -f4)
[ -n "$played" ] && [ -n "$reread" ] && [ "$reread" -ge "$played" ] && [ "$reread" -le $((played + 4)) ] &&
    echo "ok --save: read back, $reread positions (self-play kept $played)" ||
    echo "FAIL --save: read ${reread:-none}, played ${played:-none}"
# --dump: the quiet positions as lines "FEN;RESULT", as many as the fit
# reads from the games; --positions reads them back to the same fit
timeout 300 "$T" chess "$tmp/saved.pgn" --dump "$tmp/pos.txt" > "$tmp/dumpout" 2> "$tmp/dumperr"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/dumpout" ] && [ "$(wc -l < "$tmp/pos.txt")" = "$reread" ] &&
    ! grep -qvE '^[^;]+ [wb] [^;]+;(0|0\.5|1)$' "$tmp/pos.txt" &&
    echo "ok --dump: $reread lines FEN;RESULT" || echo "FAIL --dump: exit $rc, $(wc -l < "$tmp/pos.txt") lines"
# --dump --every: every position after the skipped plies, the quiet ones
# among them in the same order; without --dump it is refused
timeout 300 "$T" chess "$tmp/saved.pgn" --skip 0 --dump "$tmp/quiet0.txt" 2> /dev/null
timeout 300 "$T" chess "$tmp/saved.pgn" --skip 0 --dump "$tmp/every.txt" --every 2> /dev/null
rc=$?
nq=$(wc -l < "$tmp/quiet0.txt") ne=$(wc -l < "$tmp/every.txt")
[ $rc = 0 ] && [ "$nq" -gt 0 ] && [ "$ne" -gt "$nq" ] &&
    ! grep -qvE '^[^;]+ [wb] [^;]+;(0|0\.5|1)$' "$tmp/every.txt" &&
    diff <(grep -xFf "$tmp/quiet0.txt" "$tmp/every.txt") "$tmp/quiet0.txt" > /dev/null &&
    echo "ok --dump --every: $ne positions, the $nq quiet ones among them" ||
    echo "FAIL --dump --every: exit $rc, $ne positions, $nq quiet"
"$T" chess "$tmp/saved.pgn" --every > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --every without --dump: usage, exit 2" || echo "FAIL --every alone: exit $rc"
timeout 300 "$T" chess "$tmp/saved.pgn" --passes 1 > "$tmp/fit.pgn" 2> "$tmp/fitpgn.err"
timeout 300 "$T" chess --positions "$tmp/pos.txt" --passes 1 > "$tmp/fit.pos" 2> "$tmp/fitpos.err"
sum_pgn=$(tail -1 "$tmp/fitpgn.err") sum_pos=$(tail -1 "$tmp/fitpos.err")
[ -n "$sum_pgn" ] && [ "$sum_pgn" = "$sum_pos" ] && cmp -s "$tmp/fit.pgn" "$tmp/fit.pos" &&
    echo "ok --positions: the same fit as from the games" ||
    echo "FAIL --positions: '$sum_pos' against '$sum_pgn'"
# lab/tune/label.sh adds a UCI engine's score from White's side (a stand-in
# engine here: +35 for the side to move, a mate for Black to move after a
# double step), keeping the lines' order
cat > "$tmp/engine.sh" <<'ENG'
#!/usr/bin/env bash
while read -r cmd rest; do
    case $cmd in
    uci) echo "id name stand-in"; echo uciok ;;
    isready) echo readyok ;;
    position) fen=$rest ;;
    go) case $fen in
        *" b "*" "[a-h]3" "*) echo "info depth 1 score mate 3 nodes 1 pv a7a6" ;;
        *) echo "info depth 1 score cp 20 nodes 1"; echo "info depth 2 score cp 35 upperbound" ;;
        esac
        echo "bestmove 0000" ;;
    quit) exit 0 ;;
    esac
done
ENG
chmod +x "$tmp/engine.sh"
printf '%s\n' 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1;0.5' \
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2;1' \
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2;0' > "$tmp/three.txt"
ENGINE="$tmp/engine.sh" timeout 60 lab/tune/label.sh "$tmp/three.txt" "$tmp/three.out" "depth 2" 2 \
    > /dev/null 2> "$tmp/labelerr"
rc=$?
[ $rc = 0 ] && [ "$(cut -d';' -f3 "$tmp/three.out" | tr '\n' ' ')" = "-2000 35 -35 " ] &&
    [ "$(cut -d';' -f1,2 "$tmp/three.out")" = "$(cat "$tmp/three.txt")" ] &&
    echo "ok lab/tune/label.sh: scores from White's side, mates as 2000, order kept" ||
    echo "FAIL lab/tune/label.sh: exit $rc: $(cat "$tmp/three.out" "$tmp/labelerr" | head -5)"
sed 's/^    go) case/    go) exit 0; case/' "$tmp/engine.sh" > "$tmp/dies.sh" && chmod +x "$tmp/dies.sh"
ENGINE="$tmp/dies.sh" timeout 60 lab/tune/label.sh "$tmp/three.txt" "$tmp/x.out" "depth 2" 1 \
    > /dev/null 2> "$tmp/dieserr"; rc=$?
[ $rc != 0 ] && grep -q 'no score for' "$tmp/dieserr" && [ ! -e "$tmp/x.out" ] &&
    echo "ok lab/tune/label.sh: an engine that ends without a score fails the run" ||
    echo "FAIL label.sh, engine ends: exit $rc, $(head -2 "$tmp/dieserr")"
ENGINE="$tmp/no-engine" lab/tune/label.sh "$tmp/three.txt" "$tmp/x.out" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok lab/tune/label.sh without the engine: exit 2" || echo "FAIL label.sh no engine: exit $rc"
# scored positions: the fit says the scores' scale; --lambda 0 keeps the
# results as targets (the same fit as without scores)
awk -F';' '{ print $0 ";" (NR % 7) * 40 - 120 }' "$tmp/pos.txt" > "$tmp/scored.txt"
timeout 300 "$T" chess --positions "$tmp/scored.txt" --passes 1 > /dev/null 2> "$tmp/sc1.err"
grep -qE "^$reread positions scored, their scale K [0-9.]+, error of the scores 0\.[0-9]+$" "$tmp/sc1.err" &&
    [ "$(tail -1 "$tmp/sc1.err")" != "$sum_pos" ] &&
    echo "ok --positions with scores: the scores' scale fitted, other targets" ||
    echo "FAIL scored positions: $(grep scored "$tmp/sc1.err")"
timeout 300 "$T" chess --positions "$tmp/scored.txt" --passes 1 --lambda 0 > "$tmp/fit.l0" 2> "$tmp/sc0.err"
[ "$(tail -1 "$tmp/sc0.err")" = "$sum_pos" ] && cmp -s "$tmp/fit.l0" "$tmp/fit.pos" &&
    echo "ok --lambda 0: the results alone" || echo "FAIL --lambda 0: $(tail -1 "$tmp/sc0.err")"
for bad in 'nonsense;1' "$(head -1 "$tmp/pos.txt" | cut -d';' -f1);2" \
    "$(head -1 "$tmp/pos.txt");x" "$(head -1 "$tmp/pos.txt");5;"; do
    { head -3 "$tmp/pos.txt"; echo "$bad"; } > "$tmp/bad.txt"
    "$T" chess --positions "$tmp/bad.txt" > /dev/null 2> "$tmp/baderr"; rc=$?
    [ $rc = 2 ] && grep -q 'bad.txt:4: not a line FEN;RESULT\[;SCORE\]' "$tmp/baderr" &&
        echo "ok --positions line '${bad:0:12}...': refused at line 4, exit 2" ||
        echo "FAIL --positions '$bad': exit $rc"
done
"$T" chess --positions "$tmp/none.txt" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --positions of a missing file: exit 2" || echo "FAIL missing positions: exit $rc"
# more files than the tuner keeps (64) are refused, not dropped
many_pgn=() many_pos=()
for _ in $(seq 65); do
    many_pgn+=("$tmp/saved.pgn")
    many_pos+=(--positions "$tmp/pos.txt")
done
"$T" chess "${many_pgn[@]}" --passes 0 > /dev/null 2> "$tmp/manyerr"; rc=$?
[ $rc = 2 ] && grep -q '^usage' "$tmp/manyerr" && echo "ok 65 PGN files: refused, exit 2" ||
    echo "FAIL 65 PGN files: exit $rc"
"$T" chess "${many_pos[@]}" --passes 0 > /dev/null 2> "$tmp/manyerr"; rc=$?
[ $rc = 2 ] && grep -q '^usage' "$tmp/manyerr" && echo "ok 65 --positions files: refused, exit 2" ||
    echo "FAIL 65 --positions files: exit $rc"
"$T" chess "${many_pgn[@]:1}" --passes 0 > /dev/null 2> "$tmp/manyerr"; rc=$?
[ $rc = 0 ] && echo "ok 64 PGN files: read" || echo "FAIL 64 PGN files: exit $rc"
"$T" chess --positions "$tmp/pos.txt" --dump "$tmp/no/such/dir.txt" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && echo "ok --dump to an unwritable path: exit 1" || echo "FAIL --dump unwritable: exit $rc"
"$T" chess --games 1 --save "$tmp/no/such/dir.pgn" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok --save to an unwritable path: exit 2" || echo "FAIL --save unwritable: exit $rc"
# --weights: only the named weights are fitted (the progress visits those
# two; every other weight written is the definition file's own); a name the
# game has no weight of is refused before any game is played
timeout 300 "$T" chess --games 4 --nodes 200 --passes 1 --seed 3 --weights tempo,iso.mg \
    > "$tmp/w" 2> "$tmp/werr"
rc=$?
grep '^eval=' src/variants/weights/chess.eval | sed 's/^eval=//' | tr ',' '\n' | sort > "$tmp/w.var"
sed 's/^eval=//' "$tmp/w" | tr ',' '\n' | grep -vE '^(tempo|iso\.mg):' | sort > "$tmp/w.out"
visited=$(tr '\r' '\n' < "$tmp/werr" | grep -oE '^pass 1/1: weight [0-9]+/' | sort -u | wc -l)
[ $rc = 0 ] && [ -s "$tmp/w.out" ] && [ -z "$(comm -13 "$tmp/w.var" "$tmp/w.out")" ] && [ "$visited" = 2 ] &&
    echo "ok --weights: the two named fitted, the others as the file has them" ||
    echo "FAIL --weights: exit $rc, $visited visited, changed: $(comm -13 "$tmp/w.var" "$tmp/w.out" | head -3)"
"$T" chess --games 1 --weights tempo,nosuch > /dev/null 2> "$tmp/wbad"; rc=$?
[ $rc = 2 ] && grep -q 'no weight "nosuch"' "$tmp/wbad" && ! grep -q 'self-play' "$tmp/wbad" &&
    echo "ok --weights with an unknown name: refused, exit 2" || echo "FAIL --weights nosuch: exit $rc"
for bad in "--tables -1" "--table-band 0" "--table-l2 -1" "--only pieces" "--lambda 1.5" \
    "--lambda x"; do
    # shellcheck disable=SC2086
    "$T" chess --games 1 $bad > /dev/null 2>&1; rc=$?
    [ $rc = 2 ] && echo "ok $bad: exit 2" || echo "FAIL $bad: exit $rc"
done
"$T" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok no arguments: usage, exit 2" || echo "FAIL no arguments: exit $rc"
"$T" nosuchgame --games 1 > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok unknown game: exit 2" || echo "FAIL unknown game: exit $rc"
"$T" chess "$tmp/none.pgn" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && echo "ok missing PGN: exit 2" || echo "FAIL missing PGN: exit $rc"
if grep -D skip -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* 2>/dev/null; then
    echo "FAIL sanitizer reports:"; grep -D skip -hE -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* | head -30
else echo "ok no sanitizer reports"; fi
