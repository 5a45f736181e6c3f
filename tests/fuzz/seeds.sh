#!/usr/bin/env bash
# Writes the seed inputs of tests/fuzz/corpus/ from the project's own test
# data: perft positions (tests/perft/*.epd), the built-in variant files,
# PGN saved by `menagerie play`, and protocol and API sessions like those of
# tests/scripts/. Run once when the test data change; the corpus is kept in
# the repository, next to the inputs that once crashed or hung (crash-*).
set -eu
cd "$(dirname "$0")/../.."
bin=${MENAGERIE:-./menagerie}
c=tests/fuzz/corpus
mkdir -p $c/fuzz_fen $c/fuzz_move $c/fuzz_pgn $c/fuzz_variant $c/fuzz_uci $c/fuzz_xboard $c/fuzz_http $c/fuzz_nnue
# the games in fuzz.h's order: the first byte of a FEN or move input picks one
games=(chess snake-vs-mongoose team-mate diamondback hannibal slangenspel)
byte() { printf "\\$(printf '%03o' "$1")"; }

# FEN: every position of the perft suites
for i in "${!games[@]}"; do
    g=${games[i]} n=0
    while IFS= read -r line; do
        fen=${line%%;*}
        [ -n "$fen" ] || continue
        n=$((n + 1))
        { byte "$i"; printf '%s' "${fen% }"; } > "$c/fuzz_fen/seed-$g-$n"
    done < "tests/perft/$g.epd"
done

# moves: openings in coordinates and SAN, set-up and mancala tokens
moves() { local i=$1 name=$2; shift 2; { byte "$i"; printf '%s\n' "$@"; } > "$c/fuzz_move/seed-$name"; }
moves 0 chess e2e4 e7e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4
moves 0 chess-mate f3 e5 g4 Qh4#
moves 0 chess-promo e4 d5 exd5 c6 dxc6 Nf6 cxb7 Nbd7 bxa8=Q
moves 1 snake e3e5 e8e6 Nd2 Nf9
moves 2 team-mate e2e4 e7e5 d4 exd4
moves 3 diamondback e1e2 h4h3 Nc4
moves 4 hannibal MbFh mcfg e3 e8e7 Nc3 Nd8 f1h1
moves 5 slangenspel 3+ 12- 5-x 9+ pass S5+

# PGN: games saved by the terminal game
pgn() { local name=$1 game=$2 input=$3; printf '%bsave %s\nquit\n' "$input" "$c/fuzz_pgn/seed-$name" |
    "$bin" play "$game" --engine none > /dev/null; }
pgn chess chess 'e4\ne5\nNf3\nNc6\nBb5\na6\nBxc6\ndxc6\nO-O\n'
pgn hannibal hannibal 'MbFh\nmcfg\ne3\ne8e7\nNc3\n'
pgn diamondback diamondback 'Nc4\n'
pgn snake snake-vs-mongoose 'e3e5\ne8e6\n'
pgn team-mate team-mate 'e2e4\ne7e5\n'
pgn slangenspel slangenspel '3+\n12-\n'
printf '[Variant "chess"]\n\n1. e4 {a comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 ; rest\n2... Nc6 1-0\n' \
    > "$c/fuzz_pgn/seed-variations"

# variant files: the built-in ones (with their weights), a parent of
# theirs and a small one of the tests
for f in src/variants/*.var; do
    cat "$f" $(ls src/variants/weights/"$(basename "$f" .var)".eval 2>/dev/null) \
        > "$c/fuzz_variant/$(basename "$f")"
done
cp src/variants/*.base "$c/fuzz_variant/"
printf 'name=mini\nfiles=5 ranks=5\nking:K:K\nrook:R:R\nstartFen=4k/5/5/5/R3K w - - 0 1\n' \
    > "$c/fuzz_variant/seed-mini.var"

# UCI and XBoard sessions
printf 'uci\nsetoption name UCI_Variant value hannibal\nucinewgame\nisready\nposition startpos moves MbFh\ngo depth 2\n' \
    > "$c/fuzz_uci/seed-hannibal"
printf 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 1\nstop\n' > "$c/fuzz_uci/seed-mate"
printf 'setoption name UCI_Variant value snake-vs-mongoose\nposition startpos moves e3e5\ngo wtime 100 btime 100 winc 1 binc 1\nponderhit\nstop\n' \
    > "$c/fuzz_uci/seed-clock"
printf 'position startpos moves e2e4 e7e5\ngo ponder wtime 100 btime 100\nponderhit\nsetoption name Level value 3\ngo nodes 200\ndebug on\n' \
    > "$c/fuzz_uci/seed-ponder"
printf 'xboard\nprotover 2\nvariant hannibal\nforce\nusermove MbFh\nusermove mcfg\nusermove b1c3m\nsd 2\ngo\n' \
    > "$c/fuzz_xboard/seed-hannibal"
printf 'protover 2\nvariant snake-vs-mongoose\nsetboard 8k1/10/10/10/4n5/10/3N6/10/10/K9 w - - 0 60\nforce\nusermove d3e5\nping 1\n' \
    > "$c/fuzz_xboard/seed-setboard"
printf 'protover 2\nnew\nlevel 40 0:20 1.5\nst 1\nsd 3\npost\nusermove e2e4\nundo\nremove\nhint\nbk\ndraw\nlift e2\nput e4\nhover e2\nanalyze\nexit\nresult 1/2-1/2 {x}\n' \
    > "$c/fuzz_xboard/seed-commands"

# the JSON API: '@' is the last new game's id
printf 'GET /api/variants\nPOST /api/games {"variant":"chess","players":["human","human"]}\nPOST /api/games/@/move {"move":"e2e4"}\nGET /api/games/@/moves\nPOST /api/games/@/undo {"count":1}\nGET /api/games/@/export\n' \
    > "$c/fuzz_http/seed-chess"
printf 'POST /api/games {"variant":"hannibal","fen":"8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60","players":["human","human"]}\nPOST /api/games/@/move {"move":"b1c3"}\nPOST /api/games/@/resign {}\nPOST /api/games/@/draw {}\nDELETE /api/games/@\n' \
    > "$c/fuzz_http/seed-hannibal"
printf 'POST /api/import {"pgn":"[Variant \\"chess\\"]\\n\\n1. e4 e5 *"}\nPOST /api/games/@/options {"players":["human","engine"],"level":3,"movetime":100}\nPOST /api/games/@/go {}\nPOST /api/games/@/stop {}\nGET /api/games\n' \
    > "$c/fuzz_http/seed-import"
printf 'POST /api/games {"variant":"slangenspel","players":["human","human"]}\nPOST /api/games/@/move {"move":"3+"}\nGET /api/games/@\n' \
    > "$c/fuzz_http/seed-slangenspel"

# networks: the header and the first bytes of small ones trained here on a
# few games (control byte 1: the harness fills the payload with them and
# writes the checksum), and the head of one as it is (2)
make -s train
t=$(mktemp -d)
for g in chess hannibal; do
    "$bin" datagen "$g" --out "$t/$g.bin" --positions 60 --nodes 100 --seed 1 2> /dev/null
    build/release/train "$g" "$t/$g.bin" --out "$t/$g.nnue" --hidden 16 --epochs 1 --val 0 > /dev/null 2>&1
    { byte 1; head -c 4000 "$t/$g.nnue"; } > "$c/fuzz_nnue/seed-$g"
done
{ byte 2; head -c 4000 "$t/chess.nnue"; } > "$c/fuzz_nnue/seed-chess-as-is"
rm -rf "$t"
