#!/usr/bin/env bash
# Strength match under a real XBoard: headless (xvfb-run), match mode,
# Menagerie (first engine) against Fairy-Max or Fairy-Stockfish (through
# polyglot), colours alternating. Not part of `make test`: a 40-game match
# takes about half an hour.
#
# usage: lab/strength/strength_xboard.sh [VARIANT [GAMES [TC [INC [OUTDIR]]]]]
#   VARIANT  team-mate (default) or chess: the games Fairy-Max plays
#   GAMES    40;  TC  XBoard time per game (0:10 = 10 s);  INC  0.1 s
#   OUTDIR   build/strength-VARIANT[-PEER] (games.pgn, xboard.debug, score.txt)
# MENAGERIE=path picks the binary (default ./menagerie); PEER=fairy-stockfish
# plays chess against Fairy-Stockfish (UCI, run through polyglot)
# instead of Fairy-Max. Time odds: ODDS=N divides Menagerie's time and
# increment by N (XBoard's -firstTimeOdds), PEER_ODDS=N the peer's; so ODDS=4
# with TC 0:20, INC 0.2 is Menagerie 5 s + 0.05 s against 20 s + 0.2 s.
#
# XBoard does not know Team-Mate's rules (64-move rule, mating potential),
# so it is told not to judge claims or adjudicate draws itself; Menagerie
# claims every game end its rules give, and Fairy-Max is told to claim the
# N-move draw at 64 moves.
#
# XBoard's move animation is off (ANIMATE=1 turns it on): XBoard draws each
# move after passing it on, and the engine to move, whose clock runs
# meanwhile, has its reply read only when the drawing is done. Against
# Fairy-Max that cost the side to move some 80 ms a move, more than the
# 0.05 s increment of a 5 s game.
#
# Fairy-Max runs through tools/fairymax_peer.sh, which keeps from it the
# two XBoard commands it does not know (either crashed it about every other
# time).
# A game that the peer's failure still ends (XBoard then ends the whole
# match) is not counted: XBoard is started again for the games still to
# play. A game Menagerie's failure ends counts as played.
set -eu
cd "$(dirname "$0")/../.."
variant=${1:-team-mate}
games=${2:-40}
tc=${3:-0:10}
inc=${4:-0.1}
peer=${PEER:-fairymax}
out=${5:-build/strength-$variant${PEER:+-$peer}}
menagerie=$(realpath "${MENAGERIE:-./menagerie}")
export PATH=$PATH:/usr/games

need=()
command -v xboard >/dev/null || need+=(xboard)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
command -v "$peer" >/dev/null || need+=("$peer")
[ "$peer" = fairymax ] || command -v polyglot >/dev/null || need+=(polyglot)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/games.pgn "$out"/xboard.debug "$out"/run*.pgn "$out"/run*.debug
xbvariant=$variant
extra=()
case $variant in
    chess) xbvariant=normal ;;
    team-mate)
        extra=(-testClaims false -materialDraws false -ruleMoves 0
               -secondOptions "Claim draw after=64") ;;
    *) echo "Fairy-Max does not play $variant" >&2; exit 2 ;;
esac
[ "${ANIMATE:-0}" = 1 ] || extra+=(-animateMoving false)
peercmd=$peer
case $peer in
    fairymax) peercmd=$(realpath tools/fairymax_peer.sh) ;;
    fairy-stockfish)
        [ "$variant" = chess ] || { echo "PEER=fairy-stockfish plays chess only" >&2; exit 2; }
        peercmd="polyglot -noini -ec fairy-stockfish" ;;
    *) echo "unknown PEER $peer (fairymax or fairy-stockfish)" >&2; exit 2 ;;
esac

start=$(date +%s)
played=0 run=0
: > "$out/games.pgn"
rm -f "$out/failed.pgn"
while [ "$played" -lt "$games" ] && [ "$run" -lt 10 ]; do
    run=$((run + 1))
    left=$((games - played))
    cmd=(xvfb-run -a xboard -fcp "$menagerie xboard" -fd "$out" -scp "$peercmd" -sd "$out"
         -variant "$xbvariant" -matchMode true -matchGames "$left" -timeControl "$tc"
         -timeIncrement "$inc" -saveGameFile "$out/run$run.pgn" -debugMode true
         -nameOfDebugFile "$out/run$run.debug" -popupExitMessage false -popupMoveErrors false
         -ponderNextMove false -firstTimeOdds "${ODDS:-1}" -secondTimeOdds "${PEER_ODDS:-1}"
         "${extra[@]}")
    [ "$run" = 1 ] && echo "${cmd[*]}" > "$out/command.txt"
    timeout $((left * 120 + 120)) "${cmd[@]}" >> "$out/xboard.out" 2>&1 || true
    cat "$out/run$run.debug" >> "$out/xboard.debug" 2>/dev/null || true
    [ -f "$out/run$run.pgn" ] || continue
    # Keep the games played out; one the peer's failure ended (XBoard names it
    # the second chess program) is dropped. Menagerie's own failures count.
    awk -v keep="$out/games.pgn" -v drop="$out/failed.pgn" '
        function flush() {
            if (g == "") return
            if (g ~ /\{[^}]*second chess program[^}]*\} *(1-0|0-1|1\/2-1\/2|\*)/ ||
                g ~ /\[Result "\*"\]/)
                printf "%s", g >> drop
            else
                printf "%s", g >> keep
            g = ""
        }
        /^\[Event / { flush() }
        { g = g $0 "\n" }
        END { flush() }' "$out/run$run.pgn"
    n=$(grep -c '^\[Result ' "$out/games.pgn" || true)
    played=$n
done
failed=$(grep -c '^\[Result ' "$out/failed.pgn" 2>/dev/null || true)

# Score from Menagerie's side.
awk -v out="$out/score.txt" '
    /^\[White / { white = $0 }
    /^\[Result / {
        r = $2; gsub(/[]"]/, "", r)
        me_white = index(white, "Menagerie") > 0
        n++
        if (r == "1/2-1/2") d++
        else if ((r == "1-0") == me_white && r != "*") w++
        else if (r != "*") l++
    }
    END {
        s = w + d / 2
        printf "games %d: Menagerie +%d -%d =%d, score %.1f/%d (%.1f%%)\n", n, w, l, d, s, n,
               n ? 100 * s / n : 0 > out
    }' "$out/games.pgn"
cat "$out/score.txt"
echo "XBoard runs: $run; games the peer's failure ended (not counted): ${failed:-0}"
echo "illegal-move complaints: $(grep -ci 'illegal' "$out/xboard.debug" || true)"
echo "time: $(( $(date +%s) - start )) s; command in $out/command.txt"
