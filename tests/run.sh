#!/usr/bin/env bash
# Runs every test: unit tests (optimised and under ASan+UBSan), the perft
# suites, command-line and protocol scripts, and the fuzz harnesses briefly.
# Each check prints "ok ..." or "FAIL ..."; the last line is the summary
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0

# run NAME COMMAND...: counts the ok/FAIL lines the command prints; a
# command that fails without printing a FAIL line counts as one failure.
run() {
    local name=$1 before=$fail rc
    shift
    local out
    out=$(mktemp)
    "$@" > "$out" 2>&1
    rc=$?
    while IFS= read -r line; do
        case "$line" in
            "ok "*|"ok") pass=$((pass + 1)) ;;
            "FAIL "*) fail=$((fail + 1)); echo "[$name] $line" ;;
        esac
    done < "$out"
    if [ $rc -ne 0 ] && [ $fail -eq $before ]; then
        fail=$((fail + 1))
        echo "[$name] FAIL: exit code $rc"; tail -n 20 "$out"
    fi
    echo "$name: done ($pass passed, $fail failed so far)"
    rm -f "$out"
}

san=build/san/menagerie
run "unit" build/release/unit_tests
run "unit asan+ubsan" build/san/unit_tests
for epd in tests/perft/*.epd; do
    v=$(basename "$epd" .epd)
    run "perft $v" bash tests/perft.sh "$v" "$epd" 20000000
    run "perft $v asan+ubsan" env MENAGERIE=$san bash tests/perft.sh "$v" "$epd" 30000
done
for t in tests/scripts/*.sh; do
    [ -e "$t" ] || continue
    run "$(basename "$t" .sh)" bash "$t"
    run "$(basename "$t" .sh) asan+ubsan" env MENAGERIE=$san bash "$t"
done
# the debug build's position invariants under perft and self-play
run "debug" bash tests/debug.sh
# the fuzz harnesses (make fuzzers): a few seconds each, so they keep working
run "fuzz" env FUZZ_S=3 FUZZ_KEEP=0 bash tests/fuzz/run.sh
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
