#!/usr/bin/env bash
# Command-line tools: perft and divide output, a user's variant file, and a
# clear message with a non-zero exit for every kind of bad input.
set -u
# shellcheck source=tests/lib/cli.sh
. "$(dirname "$0")/../lib/cli.sh"

expect "perft last line" 0 '^400$' "$bin" perft chess 2
expect "perft with fen" 0 '^48$' "$bin" perft chess 1 --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# divide in Stockfish's form (go perft's): "MOVE: N" lines, a blank line, the sum
expect "divide lines" 0 '^e2e4: 20$' "$bin" divide chess 2
expect "divide total" 0 '^Nodes searched: 400$' "$bin" divide chess 2
expect "divide: a blank line before the total" 0 '^h2h4: 20 /  / Nodes searched: 400$' sh -c "'$bin' divide chess 2 | tail -3 | paste -sd/ | sed 's#/# / #g'"
expect "divide mancala" 0 '^3\+: 18$' "$bin" divide slangenspel 2
expect "perft mancala" 0 '^325$' "$bin" perft slangenspel-b 2
expect "variants list" 0 'diamondback +Diamondback Chess \(set-ups: b1g8 a2g8 b1h7 a2h7\)' "$bin" variants
expect "unknown variant" 1 'unknown game "nosuch"' "$bin" perft nosuch 2
expect "bad depth" 2 'bad depth' "$bin" perft chess x
expect "missing depth" 2 'usage: menagerie perft' "$bin" perft chess
expect "unknown option" 2 'unknown option --frob' "$bin" perft chess 2 --frob
expect "bad fen" 1 'bad FEN: rank 8 has 7 squares' "$bin" perft chess 1 --fen "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
for f in "4k3/8/8/8/8/8/8/4K3 w - - 2147483647 1" "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647"; do
    expect "fen counter out of range: $f" 1 'bad FEN: move counters' "$bin" perft chess 2 --fen "$f"
done
for f in "K2147483647/8/8/8/8/8/8/k7 w - - 0 1" "4294967304/8/8/8/8/8/8/K6k w - - 0 1"; do
    expect "fen empty run out of range: $f" 1 'bad FEN: rank 8 is too long' "$bin" perft chess 2 --fen "$f"
done
expect "bad mancala text" 1 '.' "$bin" perft slangenspel 1 --fen "5/5/5 0 0 a"
expect "unknown command" 2 'unknown command "frobnicate"' "$bin" frobnicate
expect "help" 0 'perft +VARIANT DEPTH' "$bin" help
expect "--help" 0 "perft +VARIANT DEPTH" "$bin" --help
expect "-h" 0 "perft +VARIANT DEPTH" "$bin" -h
# --help: the usage on stdout, exit 0 (a bad argument: on stderr, exit 2)
expect "match --help" 0 '^usage: menagerie match \[options\] ENGINE1 ENGINE2$' sh -c "'$bin' match --help 2>/dev/null"
expect "match --help lists its options" 0 '^  --sprt ELO0,ELO1 ' sh -c "'$bin' match --help 2>/dev/null"
expect "analyse --help" 0 '^usage: menagerie analyse GAME ' sh -c "'$bin' analyse --help 2>/dev/null"
expect "analyse -h" 0 '^usage: menagerie analyse GAME ' sh -c "'$bin' analyse -h 2>/dev/null"
expect "analyse without a game: usage on stderr, exit 2" 2 '^usage: menagerie analyse GAME ' sh -c "'$bin' analyse 2>&1 >/dev/null"
expect "match without engines: usage on stderr, exit 2" 2 '^usage: menagerie match ' sh -c "'$bin' match 2>&1 >/dev/null"

cat > "$tmp/mini.var" <<'VAR'
# a tiny game: King and Rook on 5x5
name=mini
files=5 ranks=5
king:K:K
rook:R:R
startFen=4k/5/5/5/R3K w - - 0 1
VAR
expect "variant file perft" 0 '^10$' "$bin" perft --variant-file "$tmp/mini.var" 1
printf 'files=5 ranks=5\nking:K:K\nrook:R:Rz\nstartFen=4k/5/5/5/R3K w - - 0 1\n' > "$tmp/bad.var"
expect "variant file bad XBetza" 1 'bad.var:3: piece rook: XBetza "Rz"' "$bin" perft --variant-file "$tmp/bad.var" 1
printf 'files=5 ranks=5\nking:K:K\nspeed=9\n' > "$tmp/bad2.var"
expect "variant file bad key: file:line" 1 'bad2.var:3: unknown setting "speed"' "$bin" perft --variant-file "$tmp/bad2.var" 1
head -c 3000 /dev/urandom > "$tmp/noise.var"
expect "variant file binary" 1 'noise.var' "$bin" perft --variant-file "$tmp/noise.var" 1
printf 'files=5 ranks=5\nking:K:K\nrook:R:R4294967297\nstartFen=4k/5/5/5/R3K w - - 0 1\n' > "$tmp/range.var"
expect "variant file XBetza range out of range" 1 'range.var:3: piece rook: XBetza "R4294967297": range 4294967297 too large' "$bin" perft --variant-file "$tmp/range.var" 1
# A move list never drops a move: 48 Queens on 16x16 have 1052 moves (counted by
# hand in tests/unit/test_movegen.c); 80 are refused, they could have more than a list holds.
printf 'files=16 ranks=16 royal=- queen:Q:Q\nstartFen=QQQQQQQQQQQQQQQQ/16/16/16/16/16/16/16/QQQQQQQQQQQQQQQQ/16/16/16/16/16/16/QQQQQQQQQQQQQQQQ w - - 0 1\n' > "$tmp/q48.var"
expect "48 Queens: perft 1 counts every move" 0 '^1052$' "$bin" perft --variant-file "$tmp/q48.var" 1
expect "48 Queens: divide lists every move" 0 '^Nodes searched: 1052$' "$bin" divide --variant-file "$tmp/q48.var" 1
expect "48 Queens: the terminal game lists every move" 0 '^1052 legal moves' sh -c "printf 'moves\nquit\n' | $bin play --variant-file $tmp/q48.var --engine none"
sed 's#^startFen=.*#startFen=QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/16/16/16/16/16/16/16/16/16/16/16 w - - 0 1#' "$tmp/q48.var" > "$tmp/q80.var"
expect "80 Queens: refused, more moves than a list holds" 1 'q80.var:2: start position: bad FEN: too many pieces: White could have up to [0-9]+ moves' "$bin" perft --variant-file "$tmp/q80.var" 1
# a broken file names its line, as compilers do (FILE:LINE: ...)
printf '# mini\nfiles=5 ranks=5\nking:K:K\nrook:R:R\nstartFen=4k/5/5/5/R3KK w - - 0 1\n' > "$tmp/fen.var"
expect "variant file bad startFen: file:line" 1 'fen.var:5: startFen: rank 1 is too long' "$bin" perft --variant-file "$tmp/fen.var" 1
printf 'files=5 ranks=5\n\nking:K:K::e1,,e5\nrook:R:R::a1,a9\n' > "$tmp/sq.var"
expect "variant file bad piece square: file:line" 1 'sq.var:4: piece rook: bad square "a9"' "$bin" perft --variant-file "$tmp/sq.var" 1
printf 'files=5 ranks=5\nking:K:K\nrook:K:R\nstartFen=4k/5/5/5/R3K w - - 0 1\n' > "$tmp/letter.var"
expect "variant file shared letter: file:line" 1 'letter.var:3: pieces king and rook share the letter K' "$bin" play --variant-file "$tmp/letter.var" --engine none
expect "variant file missing" 1 'cannot open' "$bin" perft --variant-file "$tmp/none.var" 1

# parent=NAME: the definition starts as NAME's (NAME.var or NAME.base of the
# file's folder, else the built-in one) and the lines after it override it.
mkdir "$tmp/kin"
printf 'parent=capablanca\n' > "$tmp/kin/capa.var"
expect "parent: an exact copy of capablanca has its perft 2" 0 '^784$' "$bin" perft --variant-file "$tmp/kin/capa.var" 2
expect "parent: capablanca's own perft 2" 0 '^784$' "$bin" perft capablanca 2
# the Knight replaced in place by a Knight-Camel (NC): b1 and g1 reach a4, c4, f4, h4 too
printf '# chess, Knights that jump as Camels too\nparent=chess\ntitle=Camel Chess\nknight:N:NC:knight\n' > "$tmp/kin/camel.var"
expect "parent: a piece of the same letter replaces the parent's" 0 '^24$' "$bin" perft --variant-file "$tmp/kin/camel.var" 1
expect "parent: a child's title, the parent's name not inherited" 0 '^camel +Camel Chess$' env MENAGERIE_VARIANTS="$tmp/kin" "$bin" variants
expect "parent: no title, the file's name" 0 '^capa +capa$' env MENAGERIE_VARIANTS="$tmp/kin" "$bin" variants
# list keys (setup=, benchFen=, zone=, eval=) add to the parent's
printf 'parent=diamondback\nsetup=mine:3prnqk/4ppbb/5ppn/P3p1pr/RP1P3p/NPP5/BBPP4/KQNRP3 w - - 0 1\n' > "$tmp/kin/dia.var"
expect "parent: setup= adds to the parent's set-ups" 0 '^dia +dia \(set-ups: b1g8 a2g8 b1h7 a2h7 mine\)$' env MENAGERIE_VARIANTS="$tmp/kin" "$bin" variants
# the file's folder first: a NAME.base there (a parent only, never a game)
sed '/^name=/d' "$tmp/mini.var" > "$tmp/kin/mini.base"
printf 'parent=mini\n' > "$tmp/kin/small.var"
expect "parent: NAME.base of the file's folder" 0 '^10$' "$bin" perft --variant-file "$tmp/kin/small.var" 1
expect "parent: a .base file is no game" 1 '^0$' sh -c "MENAGERIE_VARIANTS='$tmp/kin' '$bin' variants | grep -c '^mini '"
# a chain: the definition and at most 8 parents above it
for i in 1 2 3 4 5 6 7 8; do printf 'parent=c%d\n' $((i + 1)) > "$tmp/kin/c$i.var"; done
printf 'parent=mini\n' > "$tmp/kin/c9.var"
expect "parent: 8 parents in a chain" 0 '^10$' "$bin" perft --variant-file "$tmp/kin/c2.var" 1
expect "parent: 9 parents refused" 1 'c9\.var:1: parent=mini: more than 8 parents in a chain' "$bin" perft --variant-file "$tmp/kin/c1.var" 1
# refused, with the line at fault named as FILE:LINE
mkdir "$tmp/bad"
printf '# a\nparent=b\n' > "$tmp/bad/a.var"
printf 'parent=a\n' > "$tmp/bad/b.var"
expect "parent: a cycle refused" 1 'b\.var:1: parent=a: a cycle \(.*a\.var is its own parent\)' "$bin" perft --variant-file "$tmp/bad/a.var" 2
printf '# a game\nparent=nosuch\n' > "$tmp/bad/orphan.var"
expect "parent: a missing parent refused" 1 'orphan\.var:2: parent=nosuch: no such definition' "$bin" perft --variant-file "$tmp/bad/orphan.var" 2
printf 'title=Late\nparent=chess\n' > "$tmp/bad/late.var"
expect "parent: parent= not first refused" 1 'late\.var:2: parent= must come first' "$bin" perft --variant-file "$tmp/bad/late.var" 2
printf 'parent=chess\n\nspeed=9\n' > "$tmp/bad/key.var"
expect "parent: an unknown key names the child's line" 1 'key\.var:3: unknown setting "speed"' "$bin" perft --variant-file "$tmp/bad/key.var" 2
printf 'speed=9\n' > "$tmp/bad/up.base"
printf 'parent=up\n' > "$tmp/bad/down.var"
expect "parent: an error in a parent names the parent's line" 1 'up\.base:1: unknown setting "speed"' "$bin" perft --variant-file "$tmp/bad/down.var" 2
# docs/variants.md's complete examples (```var blocks, each named by its first
# line's "# NAME.var") load, in one folder, with their perft as the text says
mkdir "$tmp/doc"
awk -v dir="$tmp/doc" '/^```var$/ { inside = 1; file = ""; next }
    /^```$/ { inside = 0; next }
    inside && file == "" { split($2, w, " "); file = dir "/" w[1] }
    inside { print > file }' "$(dirname "$0")/../../docs/variants.md"
expect "docs/variants.md: the examples" 0 '^courtyard-camel.var courtyard.var$' sh -c "ls '$tmp/doc' | paste -sd' '"
expect "docs/variants.md: the complete example" 0 '^4991$' "$bin" perft --variant-file "$tmp/doc/courtyard.var" 3
expect "docs/variants.md: its variation" 0 '^[0-9]+$' "$bin" perft --variant-file "$tmp/doc/courtyard-camel.var" 2
