#!/usr/bin/env bash
# The debug build (make CFG=debug) checks every position's invariants after
# each move, taken back or played (keys, piece lists and counts, kings,
# hands and gates, castling rights, en passant; src/core/verify.c) and
# aborts on a broken one. This runs it over the perft suites (small counts)
# and short engine-vs-engine games of every chess variant.
set -u
cd "$(dirname "$0")/.."
bin=${MENAGERIE_DEBUG_BIN:-build/debug/menagerie}
if [ ! -x "$bin" ]; then
    echo "FAIL debug build: $bin is missing (make CFG=debug build/debug/menagerie)"
    exit 1
fi
for epd in tests/perft/*.epd; do
    v=$(basename "$epd" .epd)
    [ "$v" = slangenspel ] && continue # not a chess-like position
    out=$(MENAGERIE=$bin bash tests/perft.sh "$v" "$epd" 30000 2>&1)
    bad=$(grep -c '^FAIL' <<< "$out")
    if [ "$bad" -eq 0 ] && grep -q '^ok' <<< "$out"; then
        echo "ok debug perft $v: $(grep -c '^ok' <<< "$out") counts, every position intact"
    else
        echo "FAIL debug perft $v:"; grep -m 5 -v '^ok' <<< "$out"
    fi
done
for v in chess snake-vs-mongoose team-mate diamondback hannibal; do
    out=$(timeout 120 "$bin" play "$v" --engine both --time 0.02 --max-plies 50 --ascii < /dev/null 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q 'broken position' <<< "$out" && grep -q 'plays' <<< "$out"; then
        echo "ok debug self-play $v: $(grep -c ' plays ' <<< "$out") moves, every position intact"
    else
        echo "FAIL debug self-play $v (exit $rc):"; grep -m 3 'broken position' -A1 <<< "$out" || tail -3 <<< "$out"
    fi
done
