#!/usr/bin/env bash
# `make bench`: performance figures, each against a peer measured in the
# same run where one exists. Perft counts leaves with the last ply taken
# from the legal move count (bulk counting), as Fairy-Stockfish does.
set -u
cd "$(dirname "$0")/.."
bin=./menagerie
fsf=$(command -v fairy-stockfish || ls /usr/games/fairy-stockfish 2>/dev/null || true)

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) / 1e6 }'; }

# perft_rate VARIANT DEPTH [FEN]: prints "leaves seconds Mleaves/s"
perft_rate() {
    local t0 t1 n
    t0=$(now)
    n=$("$bin" perft "$1" "$2" ${3:+--fen "$3"} 2>/dev/null | tail -n 1)
    t1=$(now)
    echo "$n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $(rate "$n" "$t0" "$t1")"
}

echo "== perft (leaves per second)"
read -r n s ours <<< "$(perft_rate chess 6)"
echo "chess start, depth 6: $n leaves in $s s = $ours M leaves/s"
if [ -n "$fsf" ]; then
    t0=$(now)
    fn=$(printf 'uci\nposition startpos\ngo perft 6\nquit\n' | "$fsf" 2>/dev/null |
         awk '/Nodes searched/ { print $3 }')
    t1=$(now)
    theirs=$(rate "$fn" "$t0" "$t1")
    echo "fairy-stockfish, same position: $fn leaves = $theirs M leaves/s"
    awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "ratio menagerie / fairy-stockfish: %.2f\n", a / b }'
else
    echo "fairy-stockfish not installed (apt-get install fairy-stockfish): no ratio"
fi
for v in "snake-vs-mongoose 5" "team-mate 5" "diamondback 5"; do
    read -r n s r <<< "$(perft_rate $v)"
    echo "${v% *} start, depth ${v#* }: $n leaves in $s s = $r M leaves/s"
done
hfen="rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[MbFhmcfg] w KQkq - 2 2"
read -r n s r <<< "$(perft_rate hannibal 5 "$hfen")"
echo "hannibal after set-up, depth 5: $n leaves in $s s = $r M leaves/s"
read -r n s r <<< "$(perft_rate slangenspel 7)"
echo "slangenspel start, depth 7: $n leaves in $s s = $r M leaves/s"

# The classic variants against Fairy-Stockfish on their start positions:
# the median rate of three runs each.
median3() { tr ' ' '\n' | sort -g | sed -n 2p; }
fsf_rate() {
    local t0 t1 n
    t0=$(now)
    n=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$1" "$2" | "$fsf" 2>/dev/null | awk '/Nodes searched/ { print $3 }')
    t1=$(now)
    echo "$n $(rate "$n" "$t0" "$t1")"
}
echo "== perft of the classic variants, start position (median of 3 runs, M leaves/s)"
for v in "capablanca 5" "gothic 5" "embassy 5" "janus 5" "knightmate 6" "shatranj 6" "courier 5"; do
    ours="" theirs="" fn=""
    for _ in 1 2 3; do
        read -r n s r <<< "$(perft_rate $v)"
        ours+="$r "
        [ -n "$fsf" ] && { read -r fn fr <<< "$(fsf_rate $v)"; theirs+="$fr "; }
    done
    o=$(echo $ours | median3)
    if [ -n "$fsf" ]; then
        t=$(echo $theirs | median3)
        [ "$fn" = "$n" ] && same="same count" || same="COUNTS DIFFER: $fn"
        echo "${v% *} depth ${v#* }: $n leaves; menagerie $o, fairy-stockfish $t," \
            "ratio $(awk -v a="$o" -v b="$t" 'BEGIN { printf "%.2f", a / b }') ($same)"
    else
        echo "${v% *} depth ${v#* }: $n leaves; menagerie $o"
    fi
done

echo "== search (chess variants)"
"$bin" bench 2>&1 | tail -n 3
echo "== Slangenspel search and endgame solving"
"$bin" bench slangenspel 2>&1
