#!/usr/bin/env bash
# Runs the libFuzzer harnesses named (fuzz_fen ...; default every one in
# build/fuzz/fuzz/, from `make fuzzers`), all in turn, two at a time at
# most: each for FUZZ_SECONDS seconds (default 180), or until it has run
# FUZZ_RUNS inputs when that is set (FUZZ_SECONDS then bounds it too). Each
# starts from the committed corpus tests/fuzz/corpus/NAME (seeds from the
# project's test data, and every input that ever crashed or hung); new
# inputs go to build/fuzz/corpus/NAME, crashes to build/fuzz/crashes/. An
# input that runs longer than FUZZ_TIMEOUT seconds (default 20) counts as a
# hang. Prints one line per harness: "ok fuzz NAME: N inputs in S s" or
# "FAIL fuzz NAME: ..." with the input to add to the corpus once fixed.
# FUZZ_KEEP=0 (as make test runs it) starts from the committed corpus alone
# and keeps no new inputs.
set -u
cd "$(dirname "$0")/../.."
S=${FUZZ_SECONDS:-180}
RUNS=${FUZZ_RUNS:-}
KEEP=${FUZZ_KEEP:-1}
bin=build/fuzz/fuzz
out=build/fuzz
mkdir -p "$out/corpus" "$out/crashes" "$out/logs"
if ! ls "$bin"/fuzz_* > /dev/null 2>&1; then
    echo "FAIL fuzz: no harnesses in $bin (run make fuzzers)"
    exit 1
fi

one() { # one NAME: runs a harness, prints its line
    local name=$1 log=$out/logs/$1.log new=$out/corpus/$1
    [ "$KEEP" = 1 ] || new=$(mktemp -d)
    mkdir -p "$new" "tests/fuzz/corpus/$name"
    # -timeout: an input taking longer is a hang; -rss_limit_mb: memory
    local t0=$SECONDS
    nice -n 10 "$bin/$name" -max_total_time="$S" ${RUNS:+-runs="$RUNS"} \
        -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2560 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$name-" "$new" "tests/fuzz/corpus/$name" > "$log" 2>&1
    local rc=$? runs secs=$((SECONDS - t0))
    [ "$KEEP" = 1 ] || rm -rf "$new"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    if [ $rc -eq 0 ]; then
        echo "ok fuzz $name: ${runs:-?} inputs in $secs s"
    else
        local art
        art=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | cut -d' ' -f5)
        echo "FAIL fuzz $name: exit $rc after ${runs:-?} inputs; input $art; log $log"
        grep -m 3 -E 'ERROR|fuzz property failed|runtime error|deadly signal|timeout' "$log" | sed 's/^/    /'
    fi
}

names=("$@")
if [ $# -eq 0 ]; then
    for f in "$bin"/fuzz_*; do names+=("$(basename "$f")"); done
fi
for ((i = 0; i < ${#names[@]}; i += 2)); do
    one "${names[i]}" > "$out/logs/${names[i]}.line" &
    if [ $((i + 1)) -lt ${#names[@]} ]; then
        one "${names[i + 1]}" > "$out/logs/${names[i + 1]}.line" &
    fi
    wait
    cat "$out/logs/${names[i]}.line"
    if [ $((i + 1)) -lt ${#names[@]} ]; then cat "$out/logs/${names[i + 1]}.line"; fi
done
for name in "${names[@]}"; do
    ! grep -q '^FAIL' "$out/logs/$name.line" || exit 1
done
