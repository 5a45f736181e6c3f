#!/usr/bin/env bash
# Texel tuning of one game's evaluation weights from self-play.
#   lab/tune/tune.sh GAME [GAMES] [NODES]
# 1. builds ./menagerie and the tuner (make tune);
# 2. the tuner plays GAMES (default 300) self-play games at NODES (default
#    1000) nodes a move from random set-ups and 8 random plies, in its own
#    process, keeps their quiet positions with the results and fits the
#    weights (lab/tune/tune.c; progress on the terminal). PGN="FILE..." adds
#    the games of files (e.g. from `menagerie match --pgn`; GAMES 0 then
#    plays none), POSITIONS="FILE..." positions scored by a stronger engine
#    (lab/tune/label.sh), SEED=N varies the openings, TUNE_ARGS passes more options
#    (--passes, --band, --no-edge, --tables, --save FILE, ...);
# 3. writes the tuned weights as eval= lines into src/variants/GAME.var,
#    replacing the ones there (rebuild to use them).
# Check the result with `menagerie match` against the old build before
# keeping it.
set -eu
cd "$(dirname "$0")/../.."
game=${1:?usage: lab/tune/tune.sh GAME [GAMES] [NODES]}
games=${2:-300}
nodes=${3:-1000}
var=src/variants/$game.var
[ -f "$var" ] || { echo "lab/tune/tune.sh: no $var" >&2; exit 2; }
make -j2 menagerie tune >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lists=()
for f in ${POSITIONS:-}; do lists+=(--positions "$f"); done
# shellcheck disable=SC2086
nice -n 10 build/release/tune "$game" ${PGN:-} "${lists[@]}" --games "$games" --nodes "$nodes" \
    --seed "${SEED:-1}" ${TUNE_ARGS:-} > "$work/eval.txt"
{
    grep -v -e '^eval=' -e '^# Evaluation weights tuned by lab/tune/tune.sh' "$var"
    if [ -n "${POSITIONS:-}" ]; then
        n=$((${#lists[@]} / 2))
        echo "# Evaluation weights tuned by lab/tune/tune.sh (scored positions, files: $n)"
    elif [ "$games" = 0 ]; then
        # shellcheck disable=SC2086
        set -- ${PGN:-}
        echo "# Evaluation weights tuned by lab/tune/tune.sh (the games of $# PGN files)"
    else
        echo "# Evaluation weights tuned by lab/tune/tune.sh ($games games at $nodes nodes a move)"
    fi
    cat "$work/eval.txt"
} > "$work/new.var"
cp "$work/new.var" "$var"
echo "lab/tune/tune.sh: $var updated:"
cat "$work/eval.txt"
