#!/usr/bin/env bash
# Builds a perft suite for a variant that Fairy-Stockfish also plays, with
# every count from Fairy-Stockfish (never from Menagerie): the start
# position, positions from random legal games (moves picked at random from
# Fairy-Stockfish's own move list) and any extra FENs given. For each
# position it lists the counts at depth 1, 2, ... up to the last one not
# above MAX leaves.
#
# usage: tools/perft_suite.sh VARIANT [GAMES] [SEED] [MAX] [FEN...] > tests/perft/VARIANT.epd
#   GAMES  random games (default 30); one position from each, taken after
#          8 to 60 plies (earlier if the game ends)
#   SEED   random seed (default 1); the same seed gives the same suite
#   MAX    most leaves per count (default 3000000)
# Needs the Debian package fairy-stockfish (/usr/games/fairy-stockfish).
# The variant name is Fairy-Stockfish's; `tests/perft.sh VARIANT FILE`
# then checks Menagerie against the file.
set -eu
variant=${1:?usage: tools/perft_suite.sh VARIANT [GAMES] [SEED] [MAX] [FEN...]}
games=${2:-30} seed=${3:-1} max=${4:-3000000}
shift $(($# < 4 ? $# : 4))
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
[ -x "$fsf" ] || { echo "perft_suite: $fsf not found (apt-get install fairy-stockfish)" >&2; exit 1; }
RANDOM=$seed

coproc FSF { "$fsf" 2>&1; }
trap 'kill "$FSF_PID" 2>/dev/null || true' EXIT
exec 3<&"${FSF[0]}" 4>&"${FSF[1]}" # plain descriptors reach the $(...) subshells
send() { printf '%s\n' "$@" >&4; }
# wait_for PREFIX: prints engine lines up to and including one starting with PREFIX.
wait_for() {
    local line
    while IFS= read -r -t 600 line <&3; do
        printf '%s\n' "$line"
        [[ "$line" == "$1"* ]] && return 0
    done
    echo "perft_suite: no \"$1\" from $fsf" >&2
    exit 1
}

send uci "setoption name UCI_Variant value $variant" isready
wait_for readyok > /dev/null
send "position startpos" d
start=$(wait_for Checkers | sed -n 's/^Fen: //p')
[ -n "$start" ] || { echo "perft_suite: $variant: no start position" >&2; exit 1; }

# moves FEN: the legal moves, one a line.
moves() {
    send "position fen $1" "go perft 1"
    wait_for "Nodes searched" | sed -n 's/^\([^ :]*\): 1$/\1/p'
}
# after FEN MOVE: the FEN after the move.
after() {
    send "position fen $1 moves $2" d
    wait_for Checkers | sed -n 's/^Fen: //p'
}
# counts FEN: " ;D1 n ;D2 n ..." up to the last count not above max. A
# depth whose count, estimated from the last two, would be over four times
# max is not asked for (it would take long and be dropped).
counts() {
    local d=1 n prev=1 out=""
    while :; do
        send "position fen $1" "go perft $d"
        n=$(wait_for "Nodes searched" | sed -n 's/^Nodes searched: //p')
        [ "$n" -gt "$max" ] && break
        out+=" ;D$d $n"
        [ "$n" -eq 0 ] && break
        [ $((n * n / prev)) -gt $((4 * max)) ] && break
        prev=$n d=$((d + 1))
    done
    printf '%s' "$out"
}

echo "# $variant: perft counts from Fairy-Stockfish (tools/perft_suite.sh $variant $games $seed $max ...):"
echo "# the start position, one position from each of $games random games, extra positions."
echo "$start$(counts "$start")"
for ((g = 0; g < games; g++)); do
    fen=$start
    plies=$((8 + RANDOM % 53))
    for ((p = 0; p < plies; p++)); do
        mapfile -t list < <(moves "$fen")
        [ "${#list[@]}" -gt 0 ] || break
        next=$(after "$fen" "${list[RANDOM % ${#list[@]}]}")
        [ -n "$(moves "$next")" ] || break # keep positions with moves
        fen=$next
    done
    echo "$fen$(counts "$fen")"
done
for fen in "$@"; do
    echo "$fen$(counts "$fen")"
done
send quit
