#!/usr/bin/env bash
# Fits UCI_ShowWDL's win/draw/loss model (src/engine/wdl.c) to the engine's
# own games, as docs/uci.md ("Win/draw/loss") records it:
#   lab/tune/wdl_fit.sh [GAMES [NODES [EVERY [GO]]]]
# 1. the tuner plays GAMES (default 300) chess self-play games at NODES
#    (default 2000) nodes a move, from 8 random plies, and writes each
#    position with the game's result (lab/tune/tune.c --dump --every; SEED=N,
#    default 58, varies the openings);
# 2. every EVERY-th position (default 3) is scored by ./menagerie uci after
#    `go GO` (default "nodes 10000"; lab/tune/label.sh);
# 3. lab/tune/wdl_fit.py fits the model and prints the numbers for wdl.c.
set -eu
cd "$(dirname "$0")/../.."
games=${1:-300}
nodes=${2:-2000}
every=${3:-3}
go=${4:-nodes 10000}
make -j2 menagerie tune >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nice -n 10 build/release/tune chess --games "$games" --nodes "$nodes" --seed "${SEED:-58}" \
    --dump "$work/pos.txt" --every
awk -v k="$every" 'NR % k == 0' "$work/pos.txt" > "$work/some.txt"
ENGINE="$PWD/menagerie uci" nice -n 10 lab/tune/label.sh "$work/some.txt" "$work/scored.txt" "$go"
python3 lab/tune/wdl_fit.py "$work/scored.txt"
