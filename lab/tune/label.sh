#!/usr/bin/env bash
# Scores positions with a UCI engine, for the tuner's --positions.
#   lab/tune/label.sh IN OUT [GO [JOBS]]
# IN holds lines "FEN;RESULT" (`tune GAME GAMES.pgn... --dump IN`); OUT gets
# the same lines with ";SCORE" added: the engine's score of the position
# after `go GO` (default "depth 8"), from White's side, in centipawns (a
# mate as +-2000). JOBS engines (default: the cores) share the lines;
# OUT keeps IN's order. ENGINE is the engine's command (default
# fairy-stockfish), UCI_VARIANT its variant's name when not chess.
# Progress goes to stderr. Example, chess's weights fitted to Fairy-Stockfish's
# judgement of the positions of self-play games:
#   build/release/tune chess games.pgn --dump pos.txt
#   lab/tune/label.sh pos.txt scored.txt "depth 8"
#   build/release/tune chess --positions scored.txt --passes 4 > weights.txt
set -eu
in=${1:?usage: lab/tune/label.sh IN OUT [GO [JOBS]]}
out=${2:?usage: lab/tune/label.sh IN OUT [GO [JOBS]]}
go=${3:-depth 8}
jobs=${4:-$(nproc)}
engine=${ENGINE:-fairy-stockfish}
export PATH=$PATH:/usr/games
command -v "${engine%% *}" >/dev/null || { echo "lab/tune/label.sh: no $engine" >&2; exit 2; }
[ -r "$in" ] || { echo "lab/tune/label.sh: cannot read $in" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Waits for the engine's line starting with $1; fails when the engine ends.
await() {
    local line
    while IFS= read -r -u "${ENG[0]}" line; do
        [[ $line == "$1"* ]] && return 0
    done
    return 1
}

# Scores the lines of file $1 into file $2.
label() {
    local src=$1 dst=$2 line fen info score ended stm n=0
    coproc ENG { exec $engine 2>/dev/null; }
    echo uci >&"${ENG[1]}"
    await uciok
    [ -z "${UCI_VARIANT:-}" ] || echo "setoption name UCI_Variant value $UCI_VARIANT" >&"${ENG[1]}"
    echo isready >&"${ENG[1]}"
    await readyok
    while IFS= read -r line; do
        fen=${line%%;*}
        printf 'position fen %s\ngo %s\n' "$fen" "$go" >&"${ENG[1]}"
        score='' ended=''
        while IFS= read -r -u "${ENG[0]}" info; do
            case $info in
            bestmove*) ended=1; break ;;
            *" score cp "*) score=${info#* score cp }; score=${score%% *} ;;
            *" score mate -"*) score=-2000 ;;
            *" score mate "*) score=2000 ;;
            esac
        done
        if [ -z "$ended" ] || [ -z "$score" ]; then
            echo "lab/tune/label.sh: no score for $fen" >&2
            exit 1
        fi
        # the engine speaks for the side to move
        read -r _ stm _ <<< "$fen"
        [ "$stm" = w ] || score=$((-score))
        echo "$line;$score"
        n=$((n + 1))
        (( n % 5000 )) || echo "lab/tune/label.sh: ${src##*/}: $n" >&2
    done < "$src" > "$dst"
    echo quit >&"${ENG[1]}"
}

split -n "l/$jobs" -d "$in" "$work/part."
pids=()
for part in "$work"/part.*; do
    label "$part" "$part.out" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
cat "$work"/part.*.out > "$out"
echo "lab/tune/label.sh: $(wc -l < "$out") positions scored into $out" >&2
