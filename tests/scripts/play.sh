#!/usr/bin/env bash
# `menagerie play`, the terminal game, driven through pipes (and once through
# a pseudo-terminal): boards of every game, moves in SAN and coordinates,
# wrong input, every command, save/load, engine play and its end.
set -u
bin=${MENAGERIE:-./menagerie}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out

# run INPUT ARGS...: feeds INPUT (printf %b) to `play ARGS`; output in $out, exit code in $rc.
run() {
    local input=$1
    shift
    printf '%b' "$input" | "$bin" play "$@" > "$out" 2>&1
    rc=$?
}
fail() { echo "FAIL $1: $2"; echo "--- output:"; head -c 1500 "$out"; echo; }
# has NAME PATTERN: the last output has a line matching PATTERN (grep -E).
has() {
    if grep -Eq -- "$2" "$out"; then echo "ok $1"; else fail "$1" "no line matches /$2/"; fi
}
hasnt() {
    if grep -Eq -- "$2" "$out"; then fail "$1" "a line matches /$2/"; else echo "ok $1"; fi
}
# count NAME N PATTERN: exactly N lines match.
count() {
    local n
    n=$(grep -Ec -- "$3" "$out")
    if [ "$n" -eq "$2" ]; then echo "ok $1"; else fail "$1" "$n lines match /$3/, want $2"; fi
}
# follows NAME A B: a line matching A is directly followed by one matching B.
follows() {
    if awk -v a="$2" -v b="$3" 'prev && $0 ~ b { found = 1 } { prev = ($0 ~ a) } END { exit !found }' "$out"
    then echo "ok $1"; else fail "$1" "no line /$2/ followed by /$3/"; fi
}
exit_is() {
    if [ "$rc" -eq "$2" ]; then echo "ok $1"; else fail "$1" "exit $rc, want $2"; fi
}

# ---- boards of every game (ASCII: output is not a terminal) ----
run 'quit\n' chess --engine none
exit_is "quit exits 0" 0
has "chess rank 8" '^ 8  r  n  b  q  k  b  n  r  8$'
has "chess rank 1" '^ 1  R  N  B  Q  K  B  N  R  1$'
has "chess files" '^    a  b  c  d  e  f  g  h$'
has "chess side to move" '^White to move\.$'
hasnt "no ANSI when piped" $'\033'
run '' snake-vs-mongoose --engine none
exit_is "EOF exits 0" 0
has "snake-vs-mongoose rank 10" '^ 10  r  n  b  g  q  k  g  b  n  r  10$'
has "snake-vs-mongoose snakes" '^  9  n  s  \.  s  \.  \.  s  \.  s  n  9$'
has "snake-vs-mongoose files" '^     a  b  c  d  e  f  g  h  i  j$'
has "snake-vs-mongoose legend" '^Pieces: .*S snake'
run '' team-mate --engine none
has "team-mate rank 1" '^ 1  U  F  E  A  K  M  N  C  1$'
has "team-mate rank 8" '^ 8  u  f  e  a  k  m  n  c  8$'
run '' hannibal --engine none
has "hannibal rank 9" '^ 9  r  n  e  b  q  k  b  e  n  r  9$'
has "hannibal gates row" "White's gates$"
has "hannibal hands" '^In hand: White M F; Black m f$'
run '' diamondback --engine none --setup b1g8
has "diamondback set-up named" '^Set-up b1g8 \(of b1g8, a2g8, b1h7, a2h7; --setup NAME chooses\)\.$'
has "diamondback rank 1" '^ 1  K  Q  N  R  P  \.  \.  \.  1$'
has "diamondback orientation note" "^Played diagonally: White's King corner is a1 \(bottom left\), Black's is h8 \(top right\);$"
run '' slangenspel --engine none
has "mancala B ring" '^  head  \.--\( 5\)-\( 5\)-\( 5\)-\( 5\)-\( 5\)-\( 5\)-\( 5\)-\( 5\)--\.   B \(inner ring, 9-16\)  store   0$'
has "mancala A ring" "^  tail  '--\( 5\)(-\( 5\)){7}--'   A \(outer ring, 1-8\)   store   0  <- to move$"
has "mancala hole numbers" '^            16   15   14   13   12   11   10    9$'
has "mancala side to move" '^A to move\.$'
run '' diamondback --engine none
has "diamondback random set-up" '^Set-up (b1g8|a2g8|b1h7|a2h7) '

# ---- moves: SAN, coordinates, wrong input ----
run 'e4\ng8f6\ne2e5\nNf9\nfrobnicate\n' chess --engine none
has "SAN move" '^White plays 1\. e4 \(e2e4\)$'
has "last move marked" '^ 4  \.  \.  \.  \. \[P\] \.  \.  \.  4$'
has "last move from marked" '^ 2  P  P  P  P \(\.\) P  P  P  2$'
has "coordinate move" '^Black plays 1\.\.\. Nf6 \(g8f6\)$'
has "last move line" '^Last move: 1\.\.\. Nf6 \(g8f6\), from \( \) to \[ \]$'
follows "wrong move: reason, then prompt" '^White> e2e5$' '^illegal move e2e5'
follows "reason is one line" '^illegal move e2e5' '^White> Nf9$'
follows "unreadable move" '^White> Nf9$' '^.+$'
follows "unknown command" '^White> frobnicate$' '^unknown command "frobnicate" \(type help for the list\)\.$'
run 'f3\ne5\ng4\nQh4\nNc3\nmoves\nhint\n' chess --engine none
has "checkmate ends the game" '^Game over: 0-1, Black wins \(checkmate\)\.$'
has "prompt after the end" '^game over> '
has "no move after the end" '^the game is over \(checkmate\): try undo, new, load or quit\.$'
has "no moves after the end" '^no legal moves: the game is over'
has "no hint after the end" '^no hint: the game is over'
run 'e4\ne5\nQh5\nNc6\nBc4\nd6\nQf7\n' chess --engine none
has "check shown" '^Black is in check\.$'

# ---- commands ----
run 'help\n' chess --engine none
for c in 'help' 'moves' 'undo' 'hint' 'new' 'level \[N\]' 'flip' 'save FILE' 'load FILE' 'quit'; do
    has "help lists $c" "^  $c "
done
has "help explains moves" '^Moves: SAN'
run 'moves\nhelp me\nsave\n' chess --engine none
has "moves lists" '^20 legal moves: .*Nf3'
has "moves wraps" '^    h4$'
has "command takes no argument" '^help takes no argument\.$'
has "command needs an argument" '^usage: save FILE$'
run 'e4\ne5\nundo\nundo\nundo\n' chess --engine none
count "undo one ply each" 2 '^took back 1 ply\.$'
has "nothing to undo" '^nothing to undo\.$'
run 'e4\ne5\nnew\nhistory\n' chess --engine none
has "new game" '^new game\.$'
has "history after new" '^moves: none yet$'
run 'e4\ne5\nNf3\nhistory\nfen\n' chess --engine none
has "history" '^moves: 1\. e4 e5 2\. Nf3$'
has "fen" '^rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2$'
run 'level\nlevel 7\nlevel 0\nlevel x\ntime 0.5\ntime -1\n' chess --engine none
has "level shows" '^level 20 \(1\.\.20, 20 = full strength\)$'
has "level sets" '^level 7$'
count "level checks" 2 '^level must be a number from 1 to 20'
has "time sets" '^engine time: 0\.5 s a move$'
has "time checks" '^time must be seconds per move'
run 'flip\n' chess --engine none
has "flip files" '^    h  g  f  e  d  c  b  a$'
has "flip ranks" '^ 1  R  N  B  K  Q  B  N  R  1$'
run '' chess --engine none --flip
has "--flip" '^ 1  R  N  B  K  Q  B  N  R  1$'
run '' chess --white engine --black human --time 0.05
has "engine White: Black at the bottom" '^    h  g  f  e  d  c  b  a$'
run 'quit\ne4\n' chess --engine none
hasnt "quit stops reading" 'plays 1\. e4'
run 'engine both\n' slangenspel --engine none --max-plies 2 --time 0.05
has "engine command" '^A: engine, B: engine$'
count "engine command: engine vs engine" 2 '\(engine\) plays'

# ---- mating material (rules.md): pieces at a gate count; K+N v K+N plays on ----
for f in '8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60' '8k1/10/10/10/10/10/10/K9/2B7[Fc] w - - 0 60' \
    '1n6k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60' '1n6k1/10/10/10/10/10/10/K9/1N8[mb] w - - 0 60'; do
    run 'quit\n' hannibal --engine none --fen "$f"
    hasnt "hannibal $f plays on" 'insufficient'
done
run 'b1c3\nquit\n' hannibal --engine none --fen '8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60'
has "hannibal: the gated Manticore comes in" '^White plays 60\. Nc3'
hasnt "hannibal: no draw after gating" 'insufficient'
run 'quit\n' snake-vs-mongoose --engine none --fen '8k1/10/10/10/5n4/10/3N6/10/10/K9 w - - 0 60'
hasnt "snake-vs-mongoose K+N v K+N plays on" 'insufficient'
run 'quit\n' chess --engine none --fen 'k7/8/8/8/8/8/8/K1B2n2 w - - 0 1'
hasnt "chess K+B v K+N plays on" 'insufficient'
run 'quit\n' chess --engine none --fen 'k7/8/8/8/8/8/3b4/K1B5 w - - 0 1'
has "chess K+B v K+B on one colour is drawn" 'insufficient mating material'

# ---- save and load (PGN) ----
run "e4\ne5\nNf3\nsave $tmp/g.pgn\n" chess --engine none
has "save" "^saved the game to $tmp/g.pgn \(PGN\)\.$"
if grep -q '^\[Variant "chess"\]$' "$tmp/g.pgn" && grep -q '^1\. e4 e5 2\. Nf3 \*$' "$tmp/g.pgn"; then
    echo "ok saved file is PGN"
else
    echo "FAIL saved file is PGN: $(head -c 400 "$tmp/g.pgn")"
fi
run "load $tmp/g.pgn\nhistory\nNc6\n" chess --engine none
has "load" "^loaded $tmp/g.pgn: Chess, 3 plies\.$"
has "loaded history" '^moves: 1\. e4 e5 2\. Nf3$'
has "loaded game goes on" '^Black plays 2\.\.\. Nc6 \(b8c6\)$'
run "load $tmp/none.pgn\nload $tmp\n" chess --engine none
has "load missing file" "^cannot load $tmp/none.pgn: No such file"
run "save $tmp/nodir/x.pgn\n" chess --engine none
has "save into a missing directory" "^cannot save to $tmp/nodir/x.pgn: No such file"
printf '[Variant "chess"]\n\n1. e4 e5 2. Ke3 *\n' > "$tmp/bad.pgn"
run "load $tmp/bad.pgn\n" chess --engine none
has "load a bad game" "^cannot load $tmp/bad.pgn: move 3 \(Ke3\)"
printf '[Variant "chess"]\n\n1. e4 ( } e5 *\n' > "$tmp/brace.pgn"
printf 'load %s\nfen\n' "$tmp/brace.pgn" | timeout 20 "$bin" play chess --engine none > "$out" 2>&1
rc=$?
exit_is "load with a stray brace in a variation ends" 0
has "load with a stray brace in a variation is refused" "^cannot load $tmp/brace.pgn: after move 1: a '\}' without its '\{'"
run "Nc4\nsave $tmp/d.pgn\nnew\nload $tmp/d.pgn\n" diamondback --engine none --setup a2h7
has "diamondback save/load keeps the set-up" "^loaded $tmp/d.pgn: Diamondback Chess, 1 ply\.$"
has "diamondback loaded board" '^ 2  Q  B  P  P  \.  \.  \.  \.  2$'
has "diamondback loaded move" '^ 4  R  P \[N\] P  \.  \.  \.  p  4$'
run "5-x\n9+\nsave $tmp/m.pgn\n" slangenspel --engine none
run "load $tmp/m.pgn\nfen\n" chess --engine none
has "load switches game" "^loaded $tmp/m.pgn: Slangenspel \(snake mancala\), 2 plies\.$"
has "mancala round trip" '^5/5/5/5/0/5/5/5/0/6/6/6/6/6/5/5 5 0 a$'

# ---- the mancala ----
run '5-x\n9+\n17+\n' slangenspel --engine none
has "mancala capture" "^  tail  '--\( 5\)-\( 5\)-\( 5\)-\( 5\)-\[ 0\]-\( 5\)-\( 5\)-\( 5\)--'   A \(outer ring, 1-8\)   store   5$"
has "mancala move played" '^A plays 1\. 5-x$'
has "mancala last move" '^Last move: 1\.\.\. 9\+ by B, sown from \[ \]$'
has "mancala wrong move" '^bad move text|hole 17'
run 'flip\n' slangenspel --engine none
has "mancala flipped" '^       8    7    6    5    4    3    2    1$'
run 'S1+\n' slangenspel-a --engine none --fen '0/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 15 15 a 0 0'
has "variant A store move" '^A plays 1\. S1\+$'
has "variant A store moves left" 'A \(outer ring, 1-8\)   store  10  store moves left 2$'
run '5-x\nhint\nundo\n' slangenspel --time 0.05
has "mancala engine reply" '^B \(engine\) plays 1\.\.\. [0-9]+[+-]x?$'
has "mancala thinking shown" '^  depth [0-9]+  score [+-][0-9]+ eggs.*  pv [0-9]'
has "hint" '^hint: [0-9]+[+-]x?$'
has "undo takes back the engine's reply too" '^took back 2 plies\.$'
run 'go\n' slangenspel --engine none --time 0.05
has "go: one engine move" '^A \(engine\) plays 1\. [0-9]+[+-]x?$'
has "go: the human moves next" '^B> '

# ---- Hannibal set-up and gating; Diamondback ----
run 'moves\nMbFh\nMcFg\nNc3\n' hannibal --engine none
has "hannibal set-up moves" '^72 legal moves: MaFb'
has "hannibal set-up played" '^White plays 1\. MbFh$'
has "hannibal white gates" "^       M                 F          White's gates$"
has "hannibal black gates" "^          m           f             Black's gates$"
has "hannibal gating" '^ 1  R \(M\) E  B  Q  K  B  E  N  R  1$'
has "hannibal gate emptied" "^                         F          White's gates$"
has "hannibal set-up help" '^Set-up move'
run 'Nc4\ndiamond\n' diamondback --engine none --setup b1g8
has "diamondback move" '^White plays 1\. Nc4 \(a3c4\)$'
has "diamond view top" '^                h8  k $'
has "diamond view middle" '^  a8  \.   \.   \.   \.   \.   \.   \.   \.  h1$'
has "diamond view last move" '^            a3 \(\.\)  B   N  c1$'
has "diamond view bottom" '^                a1  K $'
has "diamond view note" "^Played diagonally: White's King corner is a1 \(bottom\), Black's is h8 \(top\);$"
run 'diamond\n' chess --engine none
has "diamond only for diagonal games" '^Chess is not played diagonally'

# ---- engine play ----
run 'e4\n' chess --time 0.1
has "human vs engine (chess)" '^Black \(engine\) plays 1\.\.\. [A-Za-z]'
has "chess thinking shown" '^  depth [0-9]+  score [+-][0-9]+\.[0-9][0-9]  nodes [0-9]+  time [0-9.]+s  pv [A-Za-z]'
run 'Nf6\n' chess --white engine --black human --time 0.1
has "engine plays White" '^White \(engine\) plays 1\. '
has "human plays Black" '^Black plays 1\.\.\. Nf6 \(g8f6\)$'
run 'hint\n' chess --engine none --time 0.2 --fen '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'
has "mate score shown" '^  depth [0-9]+  score mate in 1 .* pv Ra8#$'
has "chess hint" '^hint: Ra8# \(a1a8\)$'
run 'MbFh\n' hannibal --time 0.1
has "engine set-up move (Hannibal)" '^Black \(engine\) plays 1\.\.\. M[a-j]F[a-j]$'
run '' slangenspel --engine both --max-plies 4 --time 0.03
exit_is "engine vs engine exits" 0
count "engine vs engine: move cap" 4 '\(engine\) plays'
has "move cap reported" '^Move cap reached: 4 plies'
run '' slangenspel --engine both --fen '0/0/0/0/0/0/0/1/5/5/5/5/5/5/5/5 10 12 a' --time 0.03
exit_is "engine vs engine to the end exits" 0
has "engine vs engine ends the game" '^Game over: 0-1, B wins'
run '' slangenspel --engine a --time 0.03
has "engine plays A" '^A \(engine\) plays 1\. [0-9]+[+-]x?$'
has "human B sees B's ring at the bottom" '^       8    7    6    5    4    3    2    1$'
run '' team-mate --white engine --black engine --max-plies 2 --time 0.05
count "--white engine --black engine" 2 '\(engine\) plays'
run '' chess --engine both --max-plies 2 --time 0.05
exit_is "engine vs engine chess exits" 0
count "engine vs engine chess" 2 '\(engine\) plays'
has "engine vs engine chess cap" '^Move cap reached: 2 plies'
run '' chess --engine both --time 0.05 --fen '7k/8/5KQ1/8/8/8/8/8 w - - 0 1'
has "engine vs engine chess to the end" '^Game over: 1-0, White wins \(checkmate\)\.$'

# Ctrl-C while the engine thinks: it moves at once.
printf '5-x\nquit\n' > "$tmp/in"
start=$SECONDS
"$bin" play slangenspel --time 60 < "$tmp/in" > "$out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'thinks:' "$out" && break; sleep 0.1; done
sleep 0.2
kill -INT "$pid" 2> /dev/null
wait "$pid"
rc=$?
exit_is "interrupted search: exit 0" 0
has "interrupted search: the engine moves" '^B \(engine\) plays 1\.\.\. '
if [ $((SECONDS - start)) -lt 20 ]; then echo "ok interrupted search is quick"; else echo "FAIL interrupted search took $((SECONDS - start)) s"; fi

# ---- a variant file ----
cat > "$tmp/mini.var" <<'VAR'
name=mini
files=5 ranks=5
king:K:K
rook:R:R
startFen=4k/5/5/5/R3K w - - 0 1
VAR
run 'Ra5\n' --variant-file "$tmp/mini.var" --engine none
has "variant file board" '^ 5 \[R\] \.  \.  \.  k  5$'
has "variant file check" '^Black is in check\.$'

# ---- options ----
run '' nosuch
exit_is "unknown game exits 1" 1
has "unknown game" 'unknown game "nosuch"'
run '' chess --frob
exit_is "unknown option exits 2" 2
has "unknown option" 'unknown option --frob'
run '' chess --setup b1g8
has "no set-ups in chess" 'chess has no set-up choices'
run '' diamondback --setup x1y2
has "unknown set-up" 'unknown set-up "x1y2"'
run '' chess --level 30
has "bad level" 'bad value "30" for --level'
run '' chess --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1'
exit_is "bad fen exits 1" 1
run '' chess --help
has "--help" '^  --time S'
run 'e4\n' chess --engine none --fen '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'
has "--fen" '^ 1  \.  \.  \.  \.  K  \.  \.  \.  1$'

# ---- Unicode and colours ----
run 'e4\n' chess --engine none --unicode
has "--unicode glyphs" '♚'
has "--unicode colours" $'\033\\[48;5;'
if command -v script > /dev/null 2>&1; then
    printf 'quit\n' | LANG=C.UTF-8 TERM=xterm script -qec "$bin play chess --engine none" /dev/null > "$out" 2>&1
    has "terminal: Unicode pieces" '♜'
    has "terminal: colours" $'\033\\['
    printf 'quit\n' | LANG=C.UTF-8 TERM=xterm script -qec "$bin play chess --engine none --ascii" /dev/null > "$out" 2>&1
    hasnt "terminal with --ascii: no colours" $'\033\\['
    has "terminal with --ascii: letters" ' 8  r  n  b  q  k  b  n  r  8'
fi
