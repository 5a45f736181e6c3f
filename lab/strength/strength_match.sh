#!/usr/bin/env bash
# Strength match with Menagerie's own match tool (no GUI): Menagerie against
# Fairy-Max over CECP, our engine the referee. Not part of `make test`.
#
# usage: lab/strength/strength_match.sh [VARIANT [GAMES [TC [OUTDIR]]]]
#   VARIANT team-mate (default) or chess;  GAMES 40;  TC 10+0.1 (seconds)
#   OUTDIR  build/match-VARIANT (games.pgn, log.txt)
# MENAGERIE=path picks the binary (default ./menagerie).
set -eu
cd "$(dirname "$0")/../.."
variant=${1:-team-mate}
games=${2:-40}
tc=${3:-10+0.1}
out=${4:-build/match-$variant}
menagerie=${MENAGERIE:-./menagerie}
export PATH=$PATH:/usr/games
if ! command -v fairymax >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq fairymax >/dev/null
fi
opts=()
[ "$variant" = team-mate ] && opts=(--opt2 "Claim draw after=64")
mkdir -p "$out"
rm -f "$out/games.pgn"
"$menagerie" match --variant "$variant" --games "$games" --tc "$tc" --plies 2 \
    --pgn "$out/games.pgn" "${opts[@]}" self "xboard:$(command -v fairymax)" | tee "$out/log.txt"
