#!/usr/bin/env bash
# Menagerie against itself under a real XBoard (Debian's xboard, headless
# under xvfb-run, match mode, colours alternating), with the XBoard flags
# each game needs (docs/xboard.md). Counts the games XBoard ended by
# forfeit (an invalid or illegal move, as XBoard judges it), the games lost
# on time and the engine's Error answers. Not part of `make test`: ten games
# at the default time control take 4 to 9 minutes (measured on a busy 2-core
# machine).
#
# usage: tools/xboard_games.sh GAME [GAMES [TC [INC [OUTDIR]]]]
#   GAME   a game's name (chess, capablanca, diamondback, ...)
#   GAMES  10;  TC  XBoard time per game (0:03 = 3 s);  INC  0.05 s
#   OUTDIR build/xboard-games/GAME (games.pgn, xboard.debug, command.txt,
#          summary.txt)
# MENAGERIE=path picks the binary (default ./menagerie). Prints one line:
#   GAME: N games, F forfeits, T lost on time, E Error answers (results)
set -eu
cd "$(dirname "$0")/.."
game=${1:?usage: tools/xboard_games.sh GAME [GAMES [TC [INC [OUTDIR]]]]}
games=${2:-10}
tc=${3:-0:03}
inc=${4:-0.05}
out=${5:-build/xboard-games/$game}
me="$(realpath "${MENAGERIE:-./menagerie}") xboard"
export PATH=$PATH:/usr/games
need=()
command -v xboard > /dev/null || need+=(xboard)
command -v xvfb-run > /dev/null || need+=(xvfb xauth)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" > /dev/null
fi

# The XBoard flags each game needs (docs/xboard.md says why).
xbvariant=$game
flags=(-animateMoving false)
claims=(-testClaims false -materialDraws false -ruleMoves 0)
case $game in
    chess) xbvariant=normal ;;
    team-mate | shatranj | courier) flags+=("${claims[@]}") ;;
    hannibal) flags+=("${claims[@]}" -firstOptions "Hannibal set-up=MbFh mcfg"
                      -secondOptions "Hannibal set-up=MbFh mcfg") ;;
    diamondback) flags+=("${claims[@]}" -testLegality false) ;;
esac

mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/games.pgn "$out"/xboard.debug "$out"/xboard.out
cmd=(xvfb-run -a xboard -fcp "$me" -fd "$out" -scp "$me" -sd "$out" -variant "$xbvariant"
     -matchMode true -matchGames "$games" -timeControl "$tc" -timeIncrement "$inc"
     -saveGameFile "$out/games.pgn" -debugMode true -nameOfDebugFile "$out/xboard.debug"
     -popupExitMessage false -popupMoveErrors false -ponderNextMove false
     -saveSettingsOnExit false "${flags[@]}")
printf '%q ' "${cmd[@]}" > "$out/command.txt"
echo >> "$out/command.txt"
start=$(date +%s)
HOME=$out timeout $((games * 300 + 60)) "${cmd[@]}" > "$out/xboard.out" 2>&1 || true
pgn=$out/games.pgn
n=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" 2> /dev/null || true)
forfeits=$(grep -ciE '\{[^}]*(forfeit|illegal move)' "$pgn" 2> /dev/null || true)
ontime=$(grep -ciE '\{[^}]*on time' "$pgn" 2> /dev/null || true)
errors=$(grep -cE '<(first|second) ?: Error' "$out/xboard.debug" 2> /dev/null || true)
results=$(grep -oE '^\[Result "[^"]*"' "$pgn" 2> /dev/null | cut -d'"' -f2 | sort | uniq -c |
          awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}')
printf '%s: %s games, %s forfeits, %s lost on time, %s Error answers (%s; %s s)\n' \
    "$game" "${n:-0}" "${forfeits:-0}" "${ontime:-0}" "${errors:-0}" "$results" \
    $(($(date +%s) - start)) | tee "$out/summary.txt"
grep -hiE '\{[^}]*(forfeit|illegal move)[^}]*\}' "$pgn" 2> /dev/null | sed 's/^/    # /' | head -5
