#!/usr/bin/env bash
# Protocol sessions as an attacker or a confused GUI would send them. First
# random XBoard and UCI sessions: every command with good and bad
# arguments, junk bytes, long lines, every variant, huge tables and many
# threads, searches started and broken off, and "quit" last; each must end
# by itself, promptly, with exit 0 (no crash, no hang, no sanitizer
# report in the sanitizer build). Then the committed
# sessions of tests/data/sessions/ (xboard-*.txt, uci-*.txt: each a case
# that once hung), within CASE_SECONDS (default 10; they end in about a
# second).
#
# SESSIONS (default 30) random sessions of each protocol from SEED (default
# 1); each is made again by `SEED=S SESSIONS=1`. A failed session is kept in
# build/sessions/. MENAGERIE picks the binary (default ./menagerie).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
M=$bin
n=${SESSIONS:-30}
seed=${SEED:-1}
limit=${SESSION_SECONDS:-20}
keep=build/sessions
variants=$(printf 'xboard\nprotover 2\nquit\n' | timeout 20 "$M" xboard |
    sed -n 's/.*variants="\([^"]*\)".*/\1/p' | tr ',' '|')
[ -n "$variants" ] || { echo "FAIL xboard sessions: no variants in the features"; exit 0; }

# session PROTOCOL SEED: one session's lines on stdout
session() {
    LC_ALL=C awk -v proto="$1" -v seed="$2" -v variants="$variants" '
    function r(n) { return int(rand() * n) }
    function pick(s,   a, k) { k = split(s, a, "|"); return a[1 + r(k)] }
    function sq() { return substr("abcdefghij", 1 + r(10), 1) (1 + r(10)) }
    function junk(len,   s, i, c) {
        s = ""
        for (i = 0; i < len; i++) {
            c = 1 + r(255)
            if (c == 10 || c == 13) c = 32
            s = s sprintf("%c", c)
        }
        return s
    }
    function num() { return pick("0|1|-1|7|100|4000|100000|2147483647|99999999999999999999|x") }
    function move() {
        return pick("e2e4|d2d4|g1f3|e7e5|c7c5|g8f6|e3e5|e8e6|e1e2|h4h3|h7g6|MbFh|McFg|b1c3m|@@@@|O-O|a7a8q|" \
                    "e1g1|f1j1,j1g1|P@e4|" sq() sq())
    }
    function fen() {
        return pick("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|" \
                    "8/3b3k/P4b2/2rn2p1/3p1p1p/2P5/BBPPP3/1K4R1 b - - 0 35|" \
                    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1|" \
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3|" \
                    "8/8/8/8/8/8/8/8 w - - 0 1|" \
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1|" junk(r(80)))
    }
    function uline(   c) {
        c = r(24)
        if (c == 0) return "ucinewgame"
        if (c == 1) return "setoption name UCI_Variant value " (r(4) ? pick(variants) : junk(r(20)))
        if (c == 2) return "setoption name Hash value " pick("1|16|100000|" num())
        if (c == 3) return "setoption name Threads value " pick("1|2|64|" num())
        if (c == 4) return "setoption name " pick("Level|Ponder|MultiPV|SearchParams|Hannibal set-up|x") " value " pick("0|1|3|20|true|x|" num())
        if (c <= 6) return "position startpos" (r(2) ? " moves " move() " " move() : "")
        if (c == 7) return "position fen " fen() (r(2) ? " moves " move() : "")
        if (c <= 10) return "go " pick("|infinite|ponder|depth 2|nodes 500|movetime 50|mate 2|") \
            pick("| wtime 1000 btime 1000| wtime " num() " btime " num() "| winc 10 binc 10 movestogo 1")
        if (c <= 12) return "stop"
        if (c == 13) return "ponderhit"
        if (c == 14) return pick("isready|uci|debug on|register later|d|eval|bench")
        if (c == 15) return "go perft " pick("1|2|" num())
        return junk(1 + r(r(10) ? 30 : 300))
    }
    function line(   c) {
        c = r(40)
        if (c == 0) return "new"
        if (c == 1) return "variant " (r(4) ? pick(variants) : junk(r(20)))
        if (c == 2) return "setboard " (r(8) ? fen() : sprintf("%0" (1000 + r(3000)) "d", 0))
        if (c == 3) return "usermove " move()
        if (c <= 5) return move()
        if (c == 6) return "force"
        if (c == 7) return "go"
        if (c == 8) return "playother"
        if (c == 9) return pick("undo|remove")
        if (c == 10) return "level " pick("0|1|40|" num()) " " pick("0|0:10|1|5|" num()) " " pick("0|0.1|1|" num())
        if (c == 11) return "st " pick("1|0|2|" num())
        if (c == 12) return "sd " pick("1|2|4|0|" num())
        if (c == 13) return "nps " pick("0|1000|" num())
        if (c == 14) return pick("time|otim") " " pick("1|100|3000|30000|" num())
        if (c == 15) return "ping " num()
        if (c == 16) return pick("post|nopost|hard|easy|random|computer|bk|draw|hint|?|.")
        if (c <= 18) return pick("analyze|exit")
        if (c == 19) return "memory " pick("1|16|100000|" num())
        if (c == 20) return "cores " pick("1|2|64|" num())
        if (c == 21) return "result " pick("1-0|0-1|1/2-1/2|*|x") " {" junk(r(10)) "}"
        if (c == 22) return "option " pick("Level=1|Level=99|Hannibal set-up=random|Hannibal set-up=MbFh mcfg|SearchParams=x|x=|=")
        if (c == 23) return pick("lift|put|hover") " " pick(sq() "|zz|a0|j99")
        if (c == 24) return pick("name x|rating 2000 1900|ics -|accepted setboard|rejected x|xboard")
        if (c == 25) return "protover " pick("2|1|" num())
        return junk(1 + r(r(10) ? 30 : 300))
    }
    BEGIN {
        srand(seed)
        if (proto == "uci") print "uci"
        else { print "xboard"; print "protover 2" }
        k = 5 + r(40)
        for (i = 0; i < k; i++) print proto == "uci" ? uline() : line()
        print "quit"
    }'
}

# run NAME PROTOCOL FILE: the session in FILE ends by itself within the
# limit, exit 0
run() {
    local rc=0
    timeout -k 5 "$limit" "$M" "$2" < "$3" > "$tmp/out" 2>&1 || rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok $1"
    else
        mkdir -p "$keep"
        cp "$3" "$keep/$(basename "$3")"
        echo "FAIL $1: exit $rc (124: did not end within $limit s); session kept in $keep/$(basename "$3")"
        tail -n 3 "$tmp/out" | cut -c1-200 | sed 's/^/    /'
    fi
}

for p in xboard uci; do
    bad=0
    for ((i = 0; i < n; i++)); do
        s=$((seed + i))
        session "$p" "$s" > "$tmp/$p-session-$s.txt"
        out=$(run "x" "$p" "$tmp/$p-session-$s.txt")
        case "$out" in
            ok*) ;;
            *) bad=$((bad + 1)); echo "${out/FAIL x/FAIL $p random session SEED=$s}" ;;
        esac
    done
    [ $bad -eq 0 ] && echo "ok $p: $n random sessions (seeds $seed-$((seed + n - 1))) each end by themselves"
done

# the committed cases
limit=${CASE_SECONDS:-10}
for f in tests/data/sessions/*.txt; do
    name=$(basename "$f" .txt)
    run "session $name ends by itself" "${name%%-*}" "$f"
done
