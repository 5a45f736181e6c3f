#!/usr/bin/env bash
# Runs the libFuzzer harnesses named (fuzz_fen ...; default every one in
# build/$FUZZ_CFG/fuzz/, from `make fuzzers`), all in turn, two at a time at
# most, each for FUZZ_SECONDS seconds (default 180). Each starts from the
# committed corpus tests/fuzz/corpus/NAME (seeds from the project's test
# data, and every input that ever crashed or hung) and the inputs it found
# before; an input that runs longer than FUZZ_TIMEOUT seconds (default 20)
# counts as a hang. Prints one line per harness: "ok fuzz NAME: N inputs
# in S s (T in all)" or "FAIL fuzz NAME: ..." with the input to add to the
# corpus once fixed.
#
# A long run is resumable: FUZZ_DIR (default build/fuzz) keeps the inputs
# found (corpus/NAME), crashes, logs and each harness's count of inputs
# run so far (totals/CFG/NAME: inputs, seconds); set it outside the checkout to
# keep them across checkouts. FUZZ_CFG picks the build: fuzz (default,
# ASan+UBSan) or fuzz-ub (UBSan alone, for volume); both share the corpus,
# and each keeps its own counts (totals/CFG/NAME). With FUZZ_RUNS=N a harness runs until that
# count reaches N (each call for FUZZ_SECONDS at most; call again to go on)
# and is skipped once it has. FUZZ_REPLAY=1 runs every input of the corpus
# once and nothing else (the ASan build over what the UBSan build found,
# say); it counts in no total. FUZZ_KEEP=0 (as make test runs it) starts
# from the committed corpus alone and keeps nothing.
set -u
cd "$(dirname "$0")/../.."
S=${FUZZ_SECONDS:-180}
RUNS=${FUZZ_RUNS:-}
KEEP=${FUZZ_KEEP:-1}
REPLAY=${FUZZ_REPLAY:-0}
cfg=${FUZZ_CFG:-fuzz}
bin=build/$cfg/fuzz
out=${FUZZ_DIR:-build/fuzz}
totals=$out/totals/$cfg
mkdir -p "$out/corpus" "$out/crashes" "$out/logs" "$totals"
if ! ls "$bin"/fuzz_* > /dev/null 2>&1; then
    echo "FAIL fuzz: no harnesses in $bin (run make fuzzers FUZZ_CFG=$cfg)"
    exit 1
fi

one() { # one NAME: runs a harness, prints its line
    local name=$1 log=$out/logs/$1-$cfg.log new=$out/corpus/$1 total=0 spent=0 left=
    [ "$KEEP" = 1 ] || new=$(mktemp -d)
    mkdir -p "$new" "tests/fuzz/corpus/$name"
    if [ "$REPLAY" = 1 ]; then
        "$bin/$name" -runs=0 -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2560 \
            -artifact_prefix="$out/crashes/$name-" "$new" "tests/fuzz/corpus/$name" > "$log" 2>&1
        local rc=$? seen
        seen=$(grep -o 'INFO: seed corpus: files: [0-9]*' "$log" | grep -o '[0-9]*$')
        if [ $rc -eq 0 ]; then
            echo "ok fuzz $name ($cfg): replayed ${seen:-?} inputs of the corpus"
        else
            echo "FAIL fuzz $name ($cfg): exit $rc replaying the corpus; log $log"
            grep -m 3 -E 'ERROR|fuzz property failed|runtime error|deadly signal|timeout' "$log" | sed 's/^/    /'
        fi
        return
    fi
    if [ "$KEEP" = 1 ] && [ -s "$totals/$name" ]; then
        read -r total spent < "$totals/$name"
    fi
    if [ -n "$RUNS" ]; then
        left=$((RUNS - total))
        if [ $left -le 0 ]; then
            echo "ok fuzz $name ($cfg): $total inputs in $spent s in all, FUZZ_RUNS=$RUNS reached"
            return
        fi
    fi
    # -timeout: an input taking longer is a hang; -rss_limit_mb: memory
    local t0=$SECONDS
    nice -n 10 "$bin/$name" -max_total_time="$S" ${left:+-runs="$left"} \
        -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2560 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$name-" "$new" "tests/fuzz/corpus/$name" > "$log" 2>&1
    local rc=$? runs secs=$((SECONDS - t0))
    [ "$KEEP" = 1 ] || rm -rf "$new"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    local all=""
    if [ "$KEEP" = 1 ]; then
        total=$((total + ${runs:-0})) spent=$((spent + secs))
        echo "$total $spent" > "$totals/$name"
        all=" ($total in $spent s in all)"
    fi
    if [ $rc -eq 0 ]; then
        echo "ok fuzz $name ($cfg): ${runs:-?} inputs in $secs s$all"
    else
        local art
        art=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | cut -d' ' -f5)
        echo "FAIL fuzz $name ($cfg): exit $rc after ${runs:-?} inputs; input $art; log $log"
        grep -m 3 -E 'ERROR|fuzz property failed|runtime error|deadly signal|timeout' "$log" | sed 's/^/    /'
    fi
}

names=("$@")
if [ $# -eq 0 ]; then
    for f in "$bin"/fuzz_*; do names+=("$(basename "$f")"); done
fi
for ((i = 0; i < ${#names[@]}; i += 2)); do
    one "${names[i]}" > "$out/logs/${names[i]}-$cfg.line" &
    if [ $((i + 1)) -lt ${#names[@]} ]; then
        one "${names[i + 1]}" > "$out/logs/${names[i + 1]}-$cfg.line" &
    fi
    wait
    cat "$out/logs/${names[i]}-$cfg.line"
    if [ $((i + 1)) -lt ${#names[@]} ]; then cat "$out/logs/${names[i + 1]}-$cfg.line"; fi
done
for name in "${names[@]}"; do
    ! grep -q '^FAIL' "$out/logs/$name-$cfg.line" || exit 1
done
