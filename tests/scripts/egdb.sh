#!/usr/bin/env bash
# Slangenspel endgame databases and `menagerie analyse`: tiny tables built twice
# are the same file, they are checked and used, damaged or foreign files are
# refused with a message, and analyse ends with "bestmove MOVE score N exact|estimate".
set -u
# shellcheck source=tests/lib/cli.sh
. "$(dirname "$0")/../lib/cli.sh"

expect "build base" 0 '^built base rules up to 6 eggs' "$bin" egdb build --rules base --eggs 6 --data "$tmp/one"
expect "build estimate" 0 'slangenspel.egdb: 0.1 MB, about' "$bin" egdb build --rules a --eggs 6 --data "$tmp/two" --threads 1
expect "build b" 0 '^built b rules up to 3 eggs' "$bin" egdb build --rules b --eggs 3 --data "$tmp/one"
expect "build b again" 0 '^built ab rules up to 3 eggs' "$bin" egdb build --rules ab --eggs 3 --data "$tmp/two"
expect "build goes on from a file" 0 '^built base rules up to 7 eggs' "$bin" egdb build --rules base --eggs 7 --data "$tmp/two"
expect "build from scratch" 0 '^built base rules up to 7 eggs' "$bin" egdb build --rules base --eggs 7 --data "$tmp/three"
if cmp -s "$tmp/two/egdb/slangenspel.egdb" "$tmp/three/egdb/slangenspel.egdb"; then echo "ok same file from a smaller one"
else echo "FAIL a file built from a smaller one differs"; fi
expect "build smaller" 0 '^built base rules up to 6 eggs' "$bin" egdb build --rules base --eggs 6 --data "$tmp/two"
for f in slangenspel.egdb slangenspel-b.egdb; do
    if cmp -s "$tmp/one/egdb/$f" "$tmp/two/egdb/$f"; then echo "ok same file twice: $f"
    else echo "FAIL $f differs between two builds"; fi
done
expect "check" 0 'slangenspel-b.egdb: variant B table, 3 eggs, checksum good' "$bin" egdb check --data "$tmp/one"

# the tables at work: A's egg in hole 1 and B's in hole 16; A takes one with 1-x
# and the game ends (base rules: 5 + 1 - 2); in variant B, B then takes the other back
expect "analyse base exact" 0 '^bestmove 1-x score 4 exact$' \
    "$bin" analyse slangenspel --fen '1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 5 2 a' --data "$tmp/one"
expect "analyse b exact" 0 'score 0 exact$' \
    "$bin" analyse slangenspel-b --fen '1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 0 0 a' --data "$tmp/one"
expect "analyse chess" 0 '^bestmove [a-h][1-8][a-h][1-8] score -?[0-9]+ (exact|estimate)$' \
    "$bin" analyse chess --depth 3
expect "analyse chess mate" 0 '^bestmove h5f7 score [0-9]+ exact$' \
    "$bin" analyse chess --depth 3 --fen 'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4'
expect "analyse start estimate" 0 '^bestmove [0-9]+[+-]x? score -?[0-9]+ estimate$' \
    "$bin" analyse slangenspel --depth 2

# damaged, foreign and truncated files are refused, and the search goes on without them
cp -r "$tmp/one" "$tmp/bad"
printf 'x' | dd of="$tmp/bad/egdb/slangenspel.egdb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect "damaged refused" 1 'slangenspel.egdb: damaged data \(checksum mismatch\)' "$bin" egdb check --rules base --data "$tmp/bad"
expect "damaged not used" 0 'endgame database refused: .*damaged data' \
    "$bin" analyse slangenspel --fen '1/0/0/0/0/0/0/0/0/0/0/0/0/0/0/1 3 4 a' --data "$tmp/bad"
cp "$tmp/one/egdb/slangenspel-b.egdb" "$tmp/bad/egdb/slangenspel.egdb"
expect "foreign table refused" 1 'holds the variant B table, not the base rules one' "$bin" egdb check --rules a --data "$tmp/bad"
head -c 1000 "$tmp/one/egdb/slangenspel.egdb" > "$tmp/bad/egdb/slangenspel.egdb"
expect "truncated refused" 1 'truncated or damaged' "$bin" egdb check --rules base --data "$tmp/bad"
echo "just some text" > "$tmp/bad/egdb/slangenspel.egdb"
expect "not a database" 1 'too short|not a Slangenspel endgame database' "$bin" egdb check --rules base --data "$tmp/bad"
expect "missing" 1 'cannot open .*slangenspel.egdb' "$bin" egdb check --rules base --data "$tmp/none"

# bad input: a clear message and a non-zero exit
expect "egdb usage" 2 'usage: menagerie egdb' "$bin" egdb
expect "egdb bad eggs" 2 'bad --eggs "x"' "$bin" egdb build --eggs x
expect "egdb bad rules" 1 "unknown rule set 'c'" "$bin" egdb build --rules c --eggs 2 --data "$tmp/x"
expect "egdb unwritable" 1 'cannot (make folder|write)' "$bin" egdb build --rules base --eggs 2 --data /proc/nonexistent
expect "analyse usage" 2 'usage: menagerie analyse' "$bin" analyse
expect "analyse unknown game" 1 'unknown game "nosuch"' "$bin" analyse nosuch
expect "analyse bad fen" 1 'hole' "$bin" analyse slangenspel --fen '1/2/3 0 0 a'
expect "analyse both limits" 2 'not both' "$bin" analyse chess --depth 2 --movetime 10
expect "analyse bad depth" 2 'bad --depth' "$bin" analyse chess --depth 0
expect "analyse game over" 1 'game is over' "$bin" analyse slangenspel --fen '0/0/0/0/0/0/0/0/1/0/0/0/0/0/0/0 3 4 a'
