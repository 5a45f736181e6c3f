#!/usr/bin/env bash
# The order of the web app's game list is data (`order=N` in the definition
# files): the five own games first, then chess and the classic variants by
# name, then the user's games, even one that asks to be first. A bad order
# value is refused with a message. Prints one "ok ..." or "FAIL ..." line per
# check. Uses node for JSON.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
. tests/lib/web.sh
need_node
scratch
mkdir "$T/variants"
cat > "$T/variants/aardvark-chess.var" <<'VAR'
name=aardvark-chess title=Aardvark Chess
order=1
files=8 ranks=8
pawn:P:ifmnDfmWfceF:pawn
knight:N:N:knight
promoChoice=N
king:K:KisO2:king
startFen=4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K1N1 w - - 0 1
VAR
printf 'name=bad-order order=x files=8 ranks=8\nking:K:K:king\nstartFen=4k3/8/8/8/8/8/8/4K3 w - - 0 1\n' \
    > "$T/variants/bad-order.var"
export MENAGERIE_VARIANTS=$T/variants
must_start_server "$T/data"

req GET /api/variants
holds "((n) => ['snake-vs-mongoose', 'team-mate', 'diamondback', 'hannibal', 'slangenspel'].every((g, i) => n[i] === g) &&
    n.indexOf('chess') === n.lastIndexOf('slangenspel-b') + 1)(d.map((v) => v.name))"
check "game list: the five own games first, then chess" $? "$(js 'd.map((v) => v.name).join(" ")')"
holds "((rest) => rest.length >= 5 && d.findIndex((v) => v.name === 'chess') < d.findIndex((v) => v.name === rest[0]) &&
    rest.every((x, i) => !i || rest[i - 1] < x))(d.filter((v) => !v.user && v.kind === 'chess' && !v.order).map((v) => v.name))"
check "game list: the classic variants after chess, by name" $?
holds "d[d.length - 1].name === 'aardvark-chess' && d[d.length - 1].user && d[d.length - 1].order === 1"
check "game list: a user's game last, though its order is 1" $?
"$BIN" variants > /dev/null 2> "$T/variants.err"
grep -q 'bad-order.var.*order=x is not a number' "$T/variants.err"
check "a bad order value is refused with a message" $? "$(cat "$T/variants.err")"
