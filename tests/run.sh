#!/usr/bin/env bash
# Runs every test: unit tests (optimised and under ASan+UBSan), the perft
# suites, command-line and protocol scripts, the debug build's position
# invariants and the fuzz harnesses briefly. Each check prints "ok ..." or
# "FAIL ..."; each step ends with "NAME: done in N s (...)". At the end the
# failures are listed once more, so that the tail of a long log shows them,
# and the last line is the summary "N passed, N failed".
#
# TIER=fast (make test-fast) runs the fast tier alone: the unit tests under
# both builds, the perft suites to 2,000,000 leaves a count, the signature,
# the layering and the style, in a couple of minutes. TIER=all (make test,
# the default) runs everything: the fast tier's checks (perft deeper), the
# browser, XBoard, peers, packaging, debug build and fuzzers.
#
# Steps run TEST_JOBS at a time (default 2, at most one per core): most of
# them wait on servers, engines, browsers and clocks. Each step's output is
# kept apart and reported in the order the steps are started (the unit
# tests alone first, then the longest scripts). The debug build and the fuzz harnesses are built (niced) in their
# own steps, while the others wait.
set -u
cd "$(dirname "$0")/.."
pass=0
failed=() # "[step] FAIL ..." of every failure, listed again at the end
jobs_max=${TEST_JOBS:-2}
TIER=${TIER:-all}
case "$TIER" in fast | all) ;; *) echo "tests/run.sh: TIER is fast or all, not \"$TIER\"" >&2; exit 2 ;; esac
cores=$(nproc 2> /dev/null || echo 1)
[ "$jobs_max" -le "$cores" ] || jobs_max=$cores
[ "$jobs_max" -ge 1 ] || jobs_max=1
out=$(mktemp -d)
trap 'kill $(jobs -pr) 2> /dev/null; rm -rf "$out"' EXIT

# Packages the scripts would install when missing, here first: apt-get takes
# one lock, and steps run side by side.
bash tools/deps.sh --tests || echo "(test packages missing: the scripts that need them say so)"

names=() # the steps, in the order they are reported
next=0   # the first step not yet reported

# failure I LINE: records and prints a failure of step I.
failure() {
    failed+=("[${names[$1]}] $2")
    echo "${failed[-1]}"
}

# report I: counts the ok/FAIL lines of step I; a step that failed without
# printing a FAIL line counts as one failure. The indented lines of a step
# with failures are its details (a unit test's place, an output's tail).
report() {
    local i=$1 before=${#failed[@]} rc=1 secs='?' line
    [ -e "$out/$i.rc" ] && read -r rc secs < "$out/$i.rc"
    while IFS= read -r line; do
        case "$line" in
            "ok "*|"ok") pass=$((pass + 1)) ;;
            "FAIL "*) failure "$i" "$line" ;;
        esac
    done < "$out/$i.out"
    if [ ${#failed[@]} -gt "$before" ]; then
        grep -m 30 '^[[:space:]]' "$out/$i.out" | sed "s/^/[${names[i]}] /"
    elif [ "$rc" -ne 0 ]; then
        failure "$i" "FAIL: exit code $rc"; tail -n 20 "$out/$i.out"
    fi
    echo "${names[i]}: done in $secs s ($pass passed, ${#failed[@]} failed so far)"
}

report_done() { # reports the finished steps at the head of the order
    while [ $next -lt ${#names[@]} ] && [ -e "$out/$next.rc" ]; do
        report $next
        next=$((next + 1))
    done
}

# run NAME COMMAND...: starts a step as soon as fewer than TEST_JOBS run.
run() {
    while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do
        wait -n
        report_done
    done
    local i=${#names[@]}
    names+=("$1")
    shift
    (
        t0=$SECONDS
        "$@" > "$out/$i.out" 2>&1
        rc=$?
        echo "$rc $((SECONDS - t0))" > "$out/$i.tmp" && mv "$out/$i.tmp" "$out/$i.rc"
    ) &
    report_done
}

debug_step() { # the debug build's position invariants under perft and self-play
    nice -n 10 make -s -j"$jobs_max" CFG=debug build/debug/menagerie && bash tests/debug.sh
}
fuzz_step() { # the fuzz harnesses, a few seconds each, so that they keep working
    nice -n 10 make -s -j"$jobs_max" fuzzers && FUZZ_SECONDS=3 FUZZ_KEEP=0 bash tests/fuzz/run.sh
}

# drain: waits for every running step and reports it.
drain() {
    wait
    report_done
}

# The unit tests time how promptly a search stops: they run alone, one build
# after the other, before anything else starts.
san=build/san/menagerie
run "unit" build/release/unit_tests
drain
run "unit asan+ubsan" build/san/unit_tests
drain
if [ "$TIER" = fast ]; then
    # the fast tier: the rules (perft to 2,000,000 leaves a count), the
    # search's signature, the layers and the style
    run "layering" bash tests/layering.sh
    run "format" bash tests/format.sh
    run "signature" bash tests/scripts/signature.sh
    for epd in tests/perft/*.epd; do
        run "perft $(basename "$epd" .epd)" bash tests/perft.sh "$(basename "$epd" .epd)" "$epd"
    done
else
    long=(web_e2e xboard_gui package) # the longest scripts (each skips the sanitizer build)
    for s in "${long[@]}"; do run "$s" bash "tests/scripts/$s.sh"; done
    run "debug" debug_step
    run "fuzz" fuzz_step
    run "layering" bash tests/layering.sh
    run "format" bash tests/format.sh
    for epd in tests/perft/*.epd; do
        v=$(basename "$epd" .epd)
        run "perft $v" bash tests/perft.sh "$v" "$epd" 20000000
        run "perft $v asan+ubsan" env MENAGERIE=$san bash tests/perft.sh "$v" "$epd" 30000
    done
    for t in tests/scripts/*.sh; do
        s=$(basename "$t" .sh)
        [[ " ${long[*]} " == *" $s "* ]] || run "$s" bash "$t"
        run "$s asan+ubsan" env MENAGERIE=$san bash "$t"
    done
fi
drain
fail=${#failed[@]}
if [ $fail -gt 0 ]; then
    echo "Failures:"
    printf '  %s\n' "${failed[@]:0:40}"
    [ $fail -le 40 ] || echo "  ... and $((fail - 40)) more above"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
