#!/usr/bin/env bash
# The SPSA tuner of the search's numbers (lab/tune/spsa.c) end to end: two tiny
# batches of self-play through `menagerie match`, one progress line a batch,
# the numbers written to --out and printed in the form the engines' option
# SearchParams takes (and the engine takes them); bad arguments refused.
# Uses the tuner of the build MENAGERIE belongs to (build/CFG/spsa, made here
# when missing). Prints "ok ..." or "FAIL ...".
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
M=$bin
case "$M" in build/*/menagerie) cfg=$(basename "$(dirname "$M")") ;; *) cfg=release ;; esac
if ! make -s CFG="$cfg" spsa > "$tmp/make" 2>&1; then
    echo "FAIL the SPSA tuner does not build"; tail -5 "$tmp/make"; exit 0
fi
S=build/$cfg/spsa

timeout 300 "$S" --bin "$M" --variant team-mate --nodes 200 --games 4 --batch 1 --concurrency 2 \
    --params rfp.margin,lmr.base --start asp.delta:20,rfp.margin:80,lmr.base:125,lmr.div:175 --r-end 0.5 --seed 4 --out "$tmp/theta" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && echo "ok SPSA runs" || { echo "FAIL SPSA exit $rc"; tail -5 "$tmp/err"; }
[ "$(grep -cE '^batch [12]/2, [24] games: \+[0-9]+ -[0-9]+ =[0-9]+ \(all: ' "$tmp/err")" = 2 ] &&
    echo "ok a progress line a batch" || { echo "FAIL progress lines"; cat "$tmp/err"; }
grep -qE '^rfp.margin +80 -> +[0-9.]+$' "$tmp/err" && grep -qE '^lmr.base +125 -> ' "$tmp/err" &&
    echo "ok the tuned numbers summed up" || echo "FAIL no summary of the tuned numbers"
theta=$(cat "$tmp/out")
[ "$theta" = "$(cat "$tmp/theta" 2>/dev/null)" ] && echo "ok --out holds the numbers printed" ||
    echo "FAIL --out differs from the result"
case "$theta" in *asp.delta:20,* | *asp.delta:20) echo "ok --start kept for the numbers not tuned" ;;
    *) echo "FAIL --start lost: $theta" ;; esac
case "$theta" in *lmr.div:175,*) echo "ok numbers not tuned stay where they started" ;;
    *) echo "FAIL lmr.div moved: $theta" ;; esac
printf 'xboard\nprotover 2\noption SearchParams=%s\nping 1\n' "$theta" | timeout 20 "$M" xboard > "$tmp/xb" 2>&1
has xb "the engine takes the result" '^pong 1$'
hasnt xb "the engine takes the result without an error" '^Error'

expect "bad --games: usage, exit 2" 2 'usage: spsa' "$S" --games x
expect "unknown parameter refused" 2 "no search parameter 'nope'" "$S" --params rfp.margin,nope
expect "bad --start refused" 2 'search parameter rfp.margin must be a whole number' "$S" --start rfp.margin:1
expect "bad --r-end refused" 2 'usage: spsa' "$S" --r-end 2
expect "a failing match stops the run, exit 1" 1 'batch 1: the match failed' "$S" --bin /bin/false --games 2
