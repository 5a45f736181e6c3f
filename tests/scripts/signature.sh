#!/usr/bin/env bash
# The bench signature against the history, as Stockfish's tests/signature.sh:
# `menagerie bench` must print the "Bench: N" that the latest commit naming
# one has in its message (a commit that changes play names its new
# signature; one that does not may repeat it). Skipped where the tree is not
# a git checkout (a release tarball, a package build) or its history names
# no signature (a shallow clone). Prints "ok ..."/"FAIL ...". MENAGERIE
# picks the binary.
set -u
cd "$(dirname "$0")/../.."
bin=${MENAGERIE:-./menagerie}

if [ ! -e .git ]; then
    echo "ok signature: skipped, no git history (not a git checkout)"; exit 0
fi
if ! command -v git > /dev/null; then
    echo "ok signature: skipped, git is not installed"; exit 0
fi
if ! log=$(git log -1 -E --grep='Bench: [0-9]+' --format='%h%n%B' 2>&1); then
    echo "FAIL signature: git log: $log"; exit 0
fi
if [ -z "$log" ]; then
    why="no commit names a Bench"
    [ "$(git rev-parse --is-shallow-repository 2> /dev/null)" = true ] && why+=" (a shallow clone)"
    echo "ok signature: skipped, $why"
    exit 0
fi
commit=${log%%$'\n'*}
# the last signature that message names (its trailer)
want=$(grep -Eo 'Bench: [0-9]+' <<< "${log#*$'\n'}" | tail -n 1)
got=$("$bin" bench 2>&1 | tail -n 1)
if [ "$got" = "$want" ]; then
    echo "ok signature: $got, as commit $commit names"
else
    echo "FAIL signature: bench prints \"$got\", commit $commit names \"$want\"" \
        "(a change of play names its new signature in its commit message)"
fi
