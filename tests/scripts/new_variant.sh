#!/usr/bin/env bash
# A new chess variant is one definition file: put into a folder named by
# $MENAGERIE_VARIANTS, it shows in `menagerie variants`, UCI's UCI_Variant,
# XBoard's variants feature (with its setup and piece lines), the web app's
# game list (GET /api/variants, with its pieces), the terminal game, perft
# and bench, with no code edit. The test variant is chess with the Knight
# renamed Horse (H): its perft must be orthodox chess's (20, 400, 8902).
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
scratch
ok() { echo "ok new variant: $*"; }
fail() { echo "FAIL new variant: $*"; }
# has NAME FILE PATTERN: FILE has a line matching PATTERN (grep -E)
has() {
    if grep -Eq -- "$3" "$2"; then ok "$1"; else fail "$1 (no line /$3/ in:)"; head -c 1500 "$2"; echo; fi
}

mkdir "$T/variants"
cp tests/data/horse-chess.var "$T/variants/"
# a broken file in the same folder is skipped with a message, not fatal
printf 'name=broken files=99\n' > "$T/variants/broken.var"
export MENAGERIE_VARIANTS=$T/variants

"$BIN" variants > "$T/variants.out" 2> "$T/variants.err"
has "menagerie variants lists it" "$T/variants.out" '^horse-chess +Horse Chess'
has "a broken file is reported and skipped" "$T/variants.err" 'skipping .*broken\.var'

for d in 1:20 2:400 3:8902; do
    got=$("$BIN" perft horse-chess "${d%%:*}" 2> /dev/null | tail -1)
    if [ "$got" = "${d#*:}" ]; then ok "perft ${d%%:*} = ${d#*:}"; else fail "perft ${d%%:*}: $got, want ${d#*:}"; fi
done

"$BIN" bench 3 horse-chess > "$T/bench.out" 2>&1
has "bench searches it" "$T/bench.out" '^Bench: [1-9][0-9]*$'

printf 'uci\nsetoption name UCI_Variant value horse-chess\nposition startpos moves e2e4\ngo depth 3\n' |
    timeout 60 "$BIN" uci > "$T/uci.out" 2>&1
has "UCI_Variant offers it" "$T/uci.out" '^option name UCI_Variant type combo .* var horse-chess( |$)'
has "UCI plays it" "$T/uci.out" '^bestmove [a-h][1-8][a-h][1-8]'

printf 'xboard\nprotover 2\nvariant horse-chess\nsd 2\ngo\n' | timeout 60 "$BIN" xboard > "$T/xb.out" 2>&1
has "XBoard's variants feature names it" "$T/xb.out" 'variants="([a-z-]+,)*horse-chess(,[a-z-]+)*"'
has "XBoard gets its setup line" "$T/xb.out" '^setup \([A-Za-z.]+\) 8x8\+0_fairy rhbqkbhr/'
has "XBoard gets the Horse's piece line" "$T/xb.out" '^piece H& N$'
has "XBoard plays it" "$T/xb.out" '^move [a-h][1-8][a-h][1-8]'

printf 'e4\nhint\nquit\n' | timeout 60 "$BIN" play horse-chess --black engine --time 0.2 --ascii > "$T/play.out" 2>&1
has "the terminal game plays it" "$T/play.out" 'Black \(engine\) plays 1\.\.\. '
has "the terminal game draws its horses" "$T/play.out" '^ *1 +R +H +B +Q +K +B +H +R +1$'

start_server "$T/data"
req GET /api/variants
tr '{' '\n' < "$T/body" > "$T/api.lines"
has "the web app's game list has it" "$T/api.lines" '"name":"horse-chess","title":"Horse Chess","summary":"chess with horses"'
has "the web app's game list has its pieces" "$T/api.lines" '"letter":"H","name":"horse","betza":"N"'
req POST /api/games '{"variant":"horse-chess"}'
has "the web app starts a game of it" "$T/body" '"variant":"horse-chess"'
