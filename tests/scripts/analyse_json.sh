#!/usr/bin/env bash
# `menagerie analyse --json`: one JSON object on one line with the game, the
# position, the best move (coordinate text and SAN), the expected reply and
# each best line (multipv, depth, score or mate, nodes, pv in both forms),
# for the chess games, Slangenspel and a user's variant file; --multipv;
# bad input gets a message and no JSON. The objects are read with Python's
# json module. Prints "ok ..."/"FAIL ..." lines.
set -u
# shellcheck source=tests/lib/cli.sh
. "$(dirname "$0")/../lib/cli.sh"
py=$(command -v python3 || true)
[ -n "$py" ] || { echo "ok analyse json: skipped, no python3 to read JSON"; exit 0; }

# check NAME FILE PYTHON: runs the Python test on the object J read from FILE
# (the test prints what is wrong, nothing when all is right)
check() {
    local why
    why=$("$py" -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
if len(lines) != 1:
    print("%d lines of output, want 1" % len(lines)); sys.exit()
J = json.loads(lines[0])
L = J["lines"]
'"$3" "$tmp/$2" 2>&1)
    if [ -z "$why" ]; then echo "ok analyse json: $1"; else
        echo "FAIL analyse json: $1: ${why//$'\n'/ / }"; head -c 600 "$tmp/$2" | sed 's/^/    /'; fi
}

"$bin" divide chess 1 | sed -n 's/^\([^ ]*\): [0-9]*$/\1/p' > "$tmp/legal"
"$bin" analyse chess --depth 4 --multipv 3 --json > "$tmp/multi" 2> "$tmp/err"
check "chess, depth 4, three lines" multi '
legal = open(sys.argv[1].rsplit("/", 1)[0] + "/legal").read().split()
assert J["game"] == "chess", J["game"]
assert J["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", J["fen"]
assert [l["multipv"] for l in L] == [1, 2, 3], L
assert all(l["depth"] == 4 and l["mate"] is None and not l["exact"] for l in L), L
assert all(isinstance(l["score"], int) and l["nodes"] > 0 for l in L), L
assert all(len(l["pv"]) == len(l["pv_san"]) >= 1 for l in L), L
assert len({l["pv"][0] for l in L}) == 3, "the lines start alike"
assert all(l["pv"][0] in legal for l in L), "a line starts with an illegal move"
assert J["bestmove"] == L[0]["pv"][0] and J["bestmove_san"] == L[0]["pv_san"][0], J
assert [l["score"] for l in L] == sorted((l["score"] for l in L), reverse=True), L
assert J["ponder"] is None or J["ponder"] == L[0]["pv"][1], J
'
[ -s "$tmp/err" ] && echo "FAIL analyse json: writes to stderr: $(head -2 "$tmp/err")" ||
    echo "ok analyse json: nothing on stderr"

"$bin" analyse chess --depth 3 --json \
    --fen 'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4' > "$tmp/mate"
check "a mate in one" mate '
assert J["bestmove"] == "h5f7" and J["bestmove_san"] == "Qxf7#", J
assert len(L) == 1 and L[0]["mate"] == 1 and L[0]["exact"] is True, L
'
"$bin" analyse snake-vs-mongoose --movetime 200 --json > "$tmp/time"
check "snake-vs-mongoose by time" time '
assert J["game"] == "snake-vs-mongoose" and len(L) == 1 and L[0]["depth"] >= 1, J
assert L[0]["time_ms"] < 2000, L
'
"$bin" analyse slangenspel --depth 3 --multipv 2 --json > "$tmp/mancala"
check "slangenspel, two lines" mancala '
assert J["fen"] == "5/5/5/5/5/5/5/5/5/5/5/5/5/5/5/5 0 0 a", J["fen"]
assert [l["multipv"] for l in L] == [1, 2] and L[0]["pv"] == L[0]["pv_san"], L
assert J["bestmove"] == J["bestmove_san"] == L[0]["pv"][0], J
'
"$bin" analyse --variant-file "$(dirname "$0")/../data/horse-chess.var" --depth 3 --json \
    > "$tmp/file"
check "a user's variant file" file '
assert J["game"].endswith("horse-chess.var"), J["game"]
assert J["fen"].startswith("rhbqkbhr/"), J["fen"]
assert len(L) == 1 and L[0]["depth"] == 3, L
'
expect "analyse text lines name each line with --multipv" 0 '^info multipv 2 depth 2 ' \
    "$bin" analyse chess --depth 2 --multipv 2
expect "analyse --multipv 0" 2 'bad --multipv "0" \(1 to 8\)' "$bin" analyse chess --multipv 0 --json
expect "analyse --multipv 9" 2 'bad --multipv "9"' "$bin" analyse chess --multipv 9 --json
"$bin" analyse chess --json --depth 2 \
    --fen 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3' > "$tmp/over" 2> "$tmp/over.err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/over" ] && grep -q 'game is over (checkmate)' "$tmp/over.err" &&
    echo "ok analyse json: a mated position: exit 1, a message, no JSON" ||
    echo "FAIL analyse json: a mated position: exit $rc, out $(head -c 200 "$tmp/over"), err $(cat "$tmp/over.err")"
