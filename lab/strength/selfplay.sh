#!/usr/bin/env bash
# Self-play between two builds of menagerie over the chess variants, or
# against an XBoard engine (B = xboard:/usr/games/fairymax).
#   lab/strength/selfplay.sh NEW OLD [GAMES_PER_VARIANT] [TC] [VARIANTS...]
# e.g. lab/strength/selfplay.sh build/search/menagerie /tmp/old-menagerie 40 4+0.04
# Runs one match per variant, JOBS (2) at a time, refereed by `REF match`
# (REF defaults to NEW), and prints each match's score. OLD may also be an
# engine spec of the match tool, e.g. xboard:/usr/games/fairymax.
set -u
new=${1:?usage: lab/strength/selfplay.sh NEW OLD [GAMES] [TC] [VARIANTS...]}
old=${2:?usage: lab/strength/selfplay.sh NEW OLD [GAMES] [TC] [VARIANTS...]}
games=${3:-40}
tc=${4:-4+0.04}
shift $(( $# < 4 ? $# : 4 ))
variants=${*:-chess snake-vs-mongoose team-mate diamondback hannibal}
jobs=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in $variants; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
    case "$old" in xboard:*|uci:*) b=$old ;; *) b="xboard:$old xboard" ;; esac
    "${REF:-$new}" match --quiet --variant "$v" --games "$games" --tc "$tc" \
        --seed "${SEED:-1}" "xboard:$new xboard" "$b" > "$tmp/$v.txt" 2>&1 &
done
wait
for v in $variants; do echo "$v: $(grep -h '^Score of' "$tmp/$v.txt")"; done
