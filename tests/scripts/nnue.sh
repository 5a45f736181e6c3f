#!/usr/bin/env bash
# The networks' pipeline end to end on tiny runs (docs/nnue.md): `menagerie
# datagen` writes training data, goes on where a stopped run was (also from a
# file cut in the middle of a record) and refuses another variant's file; the
# trainer (lab/nnue/train.c, build/CFG/train, made here when missing) prints
# its curve, keeps its state and goes on from it; the engine takes its
# network by --eval-file and the UCI and XBoard option EvalFile, refuses a
# damaged or foreign one with a clear message and keeps the old evaluation,
# and the bench signature with a network is the same run after run.
# Prints "ok ..." or "FAIL ...".
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}
case "$M" in build/*/menagerie) cfg=$(basename "$(dirname "$M")") ;; *) cfg=release ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if [ "$2" = 0 ]; then echo "ok nnue $1"; else echo "FAIL nnue $1: ${3:-}"; fi; }

# ---- data ----
D=$tmp/chess.bin
timeout 300 "$M" datagen chess --out "$D" --positions 150 --nodes 200 --threads 2 --seed 1 2> "$tmp/gen1"
check "datagen runs" $? "$(tail -3 "$tmp/gen1")"
grep -qE '^datagen chess: [0-9]+ positions in .* \([0-9]+ games\), [0-9]+ new in [0-9]+ s \([0-9]+/s\)$' "$tmp/gen1"
check "datagen says what it made and its rate" $? "$(tail -1 "$tmp/gen1")"
n1=$(sed -n 's/^datagen chess: \([0-9]*\) positions in .*games).*/\1/p' "$tmp/gen1")
[ "${n1:-0}" -ge 150 ]; check "datagen makes the positions asked for" $? "$n1"
size1=$(stat -c %s "$D")
truncate -s $((size1 - 3)) "$D" # a stop in the middle of a record
# (past what the first run made: its last games may overshoot what it was asked)
timeout 300 "$M" datagen chess --out "$D" --positions $((n1 + 150)) --nodes 200 --seed 2 2> "$tmp/gen2"
check "datagen goes on" $? "$(tail -3 "$tmp/gen2")"
head -1 "$tmp/gen2" | grep -qE "^datagen chess: $((n1 - 1)) positions in "
check "datagen goes on after the last whole record" $? "$(head -1 "$tmp/gen2")"
n2=$(sed -n 's/^datagen chess: \([0-9]*\) positions in .*games).*/\1/p' "$tmp/gen2")
[ "${n2:-0}" -ge $((n1 + 150)) ]; check "datagen adds to the file" $? "$n1 -> $n2"
"$M" datagen team-mate --out "$D" --positions 10 2> "$tmp/gen3"
[ $? = 1 ] && grep -q "is not training data of team-mate" "$tmp/gen3"
check "datagen refuses another game's file" $? "$(cat "$tmp/gen3")"
cmp -s <(head -c 104 "$D") <(head -c 104 "$D") && [ "$(stat -c %s "$D")" -gt "$size1" ]
check "the refused run leaves the file as it was" $?
"$M" datagen slangenspel --out "$tmp/x.bin" 2> "$tmp/gen4"
[ $? = 2 ] && grep -q "no network evaluation" "$tmp/gen4" && [ ! -e "$tmp/x.bin" ]
check "datagen refuses a game with no network" $? "$(cat "$tmp/gen4")"

# ---- training ----
if ! make -s CFG="$cfg" train > "$tmp/make" 2>&1; then
    echo "FAIL nnue trainer does not build"; tail -5 "$tmp/make"; exit 0
fi
T=build/$cfg/train
N=$tmp/chess.nnue
timeout 300 "$T" chess "$D" --out "$N" --state "$tmp/st" --hidden 16 --epochs 3 --batch 64 \
    --val 20 > "$tmp/tr1" 2> "$tmp/tr1e"
check "trainer runs" $? "$(tail -3 "$tmp/tr1e")"
[ "$(grep -cE '^ +[1-3]  [0-9.]+    [0-9.]+    [0-9.]+' "$tmp/tr1")" = 3 ]
check "trainer prints the curve: epoch, training and validation loss" $? "$(cat "$tmp/tr1")"
grep -qE 'positions for training, [1-9][0-9]* for validation' "$tmp/tr1e"
check "trainer puts whole games aside for validation" $? "$(head -1 "$tmp/tr1e")"
timeout 300 "$T" chess "$D" --out "$N" --state "$tmp/st" --hidden 16 --epochs 4 --batch 64 \
    --val 20 > "$tmp/tr2" 2> "$tmp/tr2e"
grep -q "going on after epoch 3" "$tmp/tr2e" && [ "$(grep -cE '^ +4  ' "$tmp/tr2")" = 1 ] &&
    [ "$(grep -cE '^ +[1-3]  ' "$tmp/tr2")" = 0 ]
check "trainer goes on from its state" $? "$(cat "$tmp/tr2e" "$tmp/tr2")"
"$T" chess "$D" --out "$tmp/e.nnue" --state "$tmp/st" --hidden 16 --val 20 --export 2> "$tmp/tre" &&
    grep -qE "after epoch 4 in .*: validation loss [0-9.]+, quantized [0-9.]+$" "$tmp/tre" &&
    ! grep -q "going on" "$tmp/tre" && "$M" bench 3 chess --eval-file "$tmp/e.nnue" > /dev/null
check "trainer --export writes the state's network, quantized as new ones (and does not train on)" $? "$(cat "$tmp/tre")"
"$T" chess "$D" --out "$tmp/e2.nnue" --export > /dev/null 2>&1
[ $? = 2 ] && [ ! -e "$tmp/e2.nnue" ]
check "trainer --export wants a --state" $?
"$T" chess "$D" --out "$tmp/m.nnue" --hidden 16 --epochs 1 --batch 64 --val 20 --mirror \
    > /dev/null 2> "$tmp/trm"
plain=$(grep -oE '^train chess: [0-9]+' "$tmp/tr1e" | grep -oE '[0-9]+$')
grep -qE "^train chess: $((2 * plain)) positions for training.*; reflected: left to right$" "$tmp/trm"
check "trainer --mirror adds each position reflected as chess's reflect= says" $? "$(head -1 "$tmp/tr1e") / $(head -1 "$tmp/trm")"
"$T" chess "$D" --out "$N" --state "$tmp/st" --hidden 32 --epochs 4 > /dev/null 2> "$tmp/tr3e"
[ $? = 1 ] && grep -q "state of another network" "$tmp/tr3e"
check "trainer refuses another network's state" $? "$(cat "$tmp/tr3e")"
"$T" team-mate "$D" --out "$tmp/tm.nnue" > /dev/null 2> "$tmp/tr4e"
[ $? = 1 ] && grep -q "is not training data of team-mate" "$tmp/tr4e" && [ ! -e "$tmp/tm.nnue" ]
check "trainer refuses another game's data" $? "$(cat "$tmp/tr4e")"
"$T" --help > "$tmp/tr5" 2>&1 && grep -q '^usage: train VARIANT DATA' "$tmp/tr5"
check "trainer --help prints its usage" $? "$(cat "$tmp/tr5")"
"$T" chess "$D" --out "$tmp/x.nnue" --hidden 17 > /dev/null 2> "$tmp/tr6e"
[ $? = 2 ] && grep -q "bad option --hidden 17" "$tmp/tr6e" && [ ! -e "$tmp/x.nnue" ]
check "trainer refuses a hidden size that is not a multiple of 16" $? "$(cat "$tmp/tr6e")"

# ---- built in: a network taken away leaves the binary's table as one added joins it ----
b=$tmp/build
make -s BUILD="$b" "$b/gen/builtin_variants.c" > "$tmp/mk" 2>&1 &&
    grep -q '"nets/chess.nnue"' "$b/gen/builtin_variants.c" &&
    less=$(tr ' ' '\n' < "$b/gen/builtin_variants.list" | grep -v '^src/variants/nets/chess.nnue$' | tr '\n' ' ') &&
    make -s BUILD="$b" VARFILES="$less" "$b/gen/builtin_variants.c" >> "$tmp/mk" 2>&1 &&
    ! grep -q '"nets/chess.nnue"' "$b/gen/builtin_variants.c"
check "a network file taken away is no longer built in (make notices the shorter list)" $? "$(tail -3 "$tmp/mk")"

# ---- the engine takes it ----
"$M" bench 5 chess --eval-file "$N" > "$tmp/b1" && "$M" bench 5 chess --eval-file "$N" > "$tmp/b2"
check "bench with the network runs" $?
b1=$(grep '^Bench:' "$tmp/b1") b2=$(grep '^Bench:' "$tmp/b2") b0=$("$M" bench 5 chess --hand-eval | grep '^Bench:')
[ -n "$b1" ] && [ "$b1" = "$b2" ] && [ "$b1" != "$b0" ]
check "the network's bench is reproducible, and not the hand-made one's" $? "$b1 / $b2 / $b0"
cp "$N" "$tmp/bad.nnue"
printf '\x01' | dd of="$tmp/bad.nnue" bs=1 seek=300 conv=notrunc 2> /dev/null
cmp -s "$N" "$tmp/bad.nnue" && printf '\x02' | dd of="$tmp/bad.nnue" bs=1 seek=300 conv=notrunc 2> /dev/null
"$M" bench 5 chess --eval-file "$tmp/bad.nnue" > /dev/null 2> "$tmp/bb"
[ $? = 2 ] && grep -q "checksum does not match" "$tmp/bb"
check "a damaged network is refused (checksum)" $? "$(cat "$tmp/bb")"
head -c 500 "$N" > "$tmp/cut.nnue"
"$M" bench 5 chess --eval-file "$tmp/cut.nnue" > /dev/null 2> "$tmp/bc"
[ $? = 2 ] && grep -q "expected for" "$tmp/bc"
check "a network cut short is refused" $? "$(cat "$tmp/bc")"
{
    printf 'uci\nsetoption name EvalFile value %s\nsetoption name EvalFile value %s\n' "$N" "$tmp/bad.nnue"
    printf 'position startpos\ngo depth 4\n'
    sleep 2
    printf 'setoption name UCI_Variant value team-mate\nposition startpos\ngo depth 2\n'
    sleep 2
    printf 'setoption name UCI_Variant value capablanca\nposition startpos\ngo depth 2\n'
    sleep 2
    echo quit
} | timeout 60 "$M" uci > "$tmp/uci" 2>&1
grep -q "^option name EvalFile type string default <default>$" "$tmp/uci"
check "UCI offers EvalFile" $? "$(grep EvalFile "$tmp/uci")"
grep -q "^info string EvalFile $N: network for chess, 912 x 16$" "$tmp/uci"
check "UCI EvalFile loads the network and says so" $? "$(grep 'info string' "$tmp/uci")"
grep -q "^info string EvalFile not changed: $tmp/bad.nnue: damaged network file (checksum does not match)$" "$tmp/uci"
check "UCI EvalFile refuses a damaged file and keeps the network" $? "$(grep 'info string' "$tmp/uci")"
grep -q "^info string EvalFile: the network is for chess, not team-mate: network for team-mate, 1520 x [0-9]* (built in)$" "$tmp/uci" &&
    grep -q "^info string EvalFile: the network is for chess, not capablanca: hand-made evaluation (no network for this game)$" "$tmp/uci" &&
    [ "$(grep -c '^bestmove ' "$tmp/uci")" = 3 ]
check "UCI: a network of another game is not used (the game's own or the hand-made evaluation is), and the game is played" $? "$(grep -E 'info string|bestmove' "$tmp/uci")"
{
    printf 'xboard\nprotover 2\noption EvalFile=%s\noption EvalFile=%s\nnew\nst 1\ngo\n' "$tmp/cut.nnue" "$N"
    sleep 3
    echo quit
} | timeout 60 "$M" xboard > "$tmp/xb" 2>&1
grep -q 'feature option="EvalFile -file <default>"' "$tmp/xb" &&
    grep -q "^Error (.*cut.nnue: network file of 500 bytes" "$tmp/xb" && grep -q '^move ' "$tmp/xb"
check "XBoard option EvalFile: refused when damaged, the game goes on" $? "$(grep -E 'EvalFile|Error|move' "$tmp/xb")"
