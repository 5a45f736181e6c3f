#!/usr/bin/env bash
# Scripted UCI sessions: every command and go limit, in every chess variant.
# Prints one "ok ..." or "FAIL ..." line per check. MENAGERIE picks the
# binary (default ./menagerie).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
M=$bin

u() { timeout 60 "$M" uci > "$tmp/$1" 2>&1; }
# before NAME CHECK A B: the first line matching A comes before the first matching B
before() {
    if awk -v a="$3" -v b="$4" '$0 ~ a && !x {x=NR} $0 ~ b && !y {y=NR} END {exit !(x && y && x < y)}' \
        "$tmp/$1"; then echo "ok $2"; else echo "FAIL $2"; tail -n 8 "$tmp/$1" | sed 's/^/    /'; fi
}

printf 'uci\nisready\n' | u hello
has hello "uci: id name" '^id name Menagerie'
has hello "uci: Hash option" '^option name Hash type spin default [0-9]+ min 1 max [0-9]+$'
has hello "uci: Threads option" '^option name Threads type spin'
has hello "uci: Level option" '^option name Level type spin default 0 min 0 max 20$'
has hello "uci: Ponder option" '^option name Ponder type check'
for v in chess snake-vs-mongoose team-mate diamondback hannibal; do
    has hello "uci: UCI_Variant lists $v" "^option name UCI_Variant type combo default chess.* var $v( |\$)"
done
has hello "uci: UCI_LimitStrength option" '^option name UCI_LimitStrength type check default false$'
has hello "uci: UCI_Elo option" '^option name UCI_Elo type spin default [0-9]+ min [0-9]+ max [0-9]+$'
has hello "uci: UCI_ShowWDL option" '^option name UCI_ShowWDL type check default false$'
has hello "uci: uciok" '^uciok$'
has hello "isready: readyok" '^readyok$'

# variant, a legal first move, an illegal one, a legal reply (our coordinates)
variants=(
    "chess|e2e4|e2e5|e7e5"
    "snake-vs-mongoose|e3e5|e2e4|e8e6"
    "team-mate|e2e4|e2e5|e7e5"
    "diamondback|e1e2|e1e3|h4h3"
    "hannibal|MbFh|e2e5|McFg"
)
for v in "${variants[@]}"; do
    IFS='|' read -r name legal illegal reply <<< "$v"
    opt="setoption name UCI_Variant value $name"

    printf 'uci\n%s\nucinewgame\nisready\nposition startpos moves %s\ngo depth 3\n' "$opt" "$legal" \
        | u "go-$name"
    has "go-$name" "$name: info line" '^info depth [0-9]+ seldepth [0-9]+ multipv 1 score (cp -?[0-9]+|mate -?[0-9]+) nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv '
    has "go-$name" "$name: go depth gives bestmove" '^bestmove [^ ]+'
    best=$(grep '^bestmove' "$tmp/go-$name" | head -1 | cut -d' ' -f2)
    ponder=$(grep '^bestmove' "$tmp/go-$name" | head -1 | awk '{print $4}')
    printf '%s\nposition startpos moves %s %s %s\ngo depth 1\n' "$opt" "$legal" "$best" "$ponder" \
        | u "replay-$name"
    hasnt "replay-$name" "$name: bestmove and ponder move are legal" '^info string (illegal|bad)'
    has "replay-$name" "$name: go after them" '^bestmove '

    printf '%s\nposition startpos moves %s\ngo wtime 2000 btime 2000 winc 50 binc 50 movestogo 20\n' \
        "$opt" "$legal" | u "clock-$name"
    has "clock-$name" "$name: go wtime/btime/winc/binc/movestogo" '^bestmove '
    printf '%s\nposition startpos\ngo movetime 150\n' "$opt" | u "mt-$name"
    has "mt-$name" "$name: go movetime" '^bestmove '
    printf '%s\nposition startpos\ngo nodes 2000\n' "$opt" | u "nodes-$name"
    has "nodes-$name" "$name: go nodes" '^bestmove '
    printf '%s\nsetoption name Hash value 8\nsetoption name Threads value 1\nsetoption name Level value 4\nposition startpos\ngo depth 2\n' \
        "$opt" | u "opt-$name"
    hasnt "opt-$name" "$name: Hash, Threads, Level accepted" '^info string'
    has "opt-$name" "$name: go with options" '^bestmove '

    (printf '%s\nposition startpos\ngo infinite\n' "$opt"; sleep 0.3; printf 'isready\n'; sleep 0.2
     printf 'stop\n') | u "inf-$name"
    before "inf-$name" "$name: go infinite: bestmove only after stop" '^readyok$' '^bestmove '
    has "inf-$name" "$name: stop gives bestmove" '^bestmove '
    (printf '%s\nposition startpos moves %s\ngo ponder wtime 1000 btime 1000\n' "$opt" "$legal"
     sleep 0.3; printf 'isready\nponderhit\n') | u "ph-$name"
    before "ph-$name" "$name: go ponder waits for ponderhit" '^readyok$' '^bestmove '
    (printf '%s\nposition startpos\ngo ponder movetime 100\n' "$opt"; sleep 0.2; printf 'stop\n') \
        | u "ps-$name"
    [ "$(count "ps-$name" '^bestmove')" = 1 ] && echo "ok $name: go ponder + stop: one bestmove" ||
        echo "FAIL $name: go ponder + stop: $(count "ps-$name" '^bestmove') bestmoves"

    # bad lines: info string, and nothing changes
    printf '%s\nposition startpos moves %s\nposition startpos moves %s %s\nposition fen nonsense\ngo depth x\nsetoption name Nope value 1\nsetoption name Hash value 0\nfrobnicate\nposition startpos moves %s\nponderhit\ngo depth 1\n' \
        "$opt" "$legal" "$legal" "$illegal" "$legal" | u "bad-$name"
    [ "$(count "bad-$name" '^info string')" -ge 6 ] && echo "ok $name: bad lines get info string" ||
        echo "FAIL $name: bad lines: $(count "bad-$name" '^info string') info strings"
    [ "$(count "bad-$name" '^bestmove')" = 1 ] && echo "ok $name: bad go changes nothing" ||
        echo "FAIL $name: bad lines: $(count "bad-$name" '^bestmove') bestmoves"
done

# position fen with moves, per variant's FEN
printf 'position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 moves g1f3 b8c6\ngo depth 2\n' | u fen1
hasnt fen1 "chess: position fen ... moves" '^info string'
printf 'setoption name UCI_Variant value snake-vs-mongoose\nposition fen 10/4k5/10/10/10/10/10/10/10/R3K5 w - - 0 1 moves a1a10 e9e8 a10a9\ngo depth 1\n' | u fen2
hasnt fen2 "snake-vs-mongoose: ranks from 1 (rank 10 exists)" '^info string'
printf 'setoption name UCI_Variant value hannibal\nposition fen rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[MFmf] w KQkq - 0 1 moves MbFh McFg b1c3 b9c7\ngo depth 1\n' | u fen3
hasnt fen3 "hannibal: set-up and gating moves" '^info string'
printf 'setoption name UCI_Variant value diamondback\nposition fen 3prnqk/4ppbb/5ppn/P3p1pr/RP1P3p/NPP5/QBPP4/KBNRP3 w - - 0 1\ngo depth 1\n' | u fen4
hasnt fen4 "diamondback: another set-up by FEN" '^info string'

# a long game: 1200 plies in one position command
long=$(for _ in $(seq 300); do printf ' g1f3 g8f6 f3g1 f6g8'; done)
printf 'position startpos moves%s\ngo depth 1\n' "$long" | u long
hasnt long "position with 1200 moves" '^info string'
has long "position with 1200 moves: bestmove" '^bestmove '

# mate: go mate, and a mate score
printf 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 1\n' | u mate
has mate "go mate finds the mate" '^bestmove a1a8'
has mate "mate score" 'score mate 1 '
(printf 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 2147483647\n'; sleep 0.5
 printf 'stop\n') | u matebig
has matebig "go mate 2147483647: no overflow, bestmove after stop" '^bestmove a1a8'
hasnt matebig "go mate 2147483647: no sanitizer report" 'runtime error'
# Hash: the advertised maximum is what the machine can give; more is capped and said so
cap=$(grep -oE '^option name Hash type spin default [0-9]+ min 1 max [0-9]+$' "$tmp/hello" | awk '{print $NF}')
printf 'setoption name Hash value %s\nsetoption name Hash value %s\nisready\n' "${cap:-1}" "$((${cap:-1} + 1))" | u hashcap
has hashcap "Hash above what the machine can give is capped to it" "^info string Hash capped to $cap MB"
if [ "$(count hashcap '^info string')" = 1 ]; then echo "ok Hash at the machine's maximum is accepted"
else echo "FAIL Hash at the machine's maximum is accepted"; fi
# SearchParams: the search's tunable numbers; a bad set is refused and the last good one kept
has hello "uci: SearchParams option" '^option name SearchParams type string default <empty>$'
d6nodes() { grep -E '^info depth 6 ' "$tmp/$1" | tail -1 | grep -oE ' nodes [0-9]+' | awk '{print $2}'; }
printf 'position startpos\ngo depth 6\n' | u sp0
printf 'setoption name SearchParams value rfp.margin:200,lmr.base:0\nposition startpos\ngo depth 6\n' | u sp1
printf 'setoption name SearchParams value rfp.margin:200,lmr.base:0\nsetoption name SearchParams value rfp.margin:200,lmr.bas:0\nsetoption name SearchParams value fut.mul:9999\nposition startpos\ngo depth 6\n' | u sp2
printf 'setoption name SearchParams value rfp.margin:200\nsetoption name SearchParams value <empty>\nposition startpos\ngo depth 6\n' | u sp3
long=$(printf 'fut.mul:80,%.0s' $(seq 100))fut.mul:80 # 1 110 characters
printf 'setoption name SearchParams value rfp.margin:200,lmr.base:0\nsetoption name SearchParams value %s\nposition startpos\ngo depth 6\n' "$long" | u sp4
printf 'position fen %s\nisready\n' "$(printf 'x%.0s' $(seq 1100))" | u longfen
hasnt sp1 "SearchParams accepted" '^info string'
has sp4 "SearchParams: a value too long is refused, not cut" '^info string option name or value too long \(at most 127 and 1023 characters\); nothing set$'
has longfen "position: a FEN too long is refused, not cut" '^info string bad position command: a FEN of more than 1023 characters; position unchanged$'
has sp2 "SearchParams: an unknown name is refused" "^info string no search parameter 'lmr.bas'"
has sp2 "SearchParams: a value out of bounds is refused" '^info string search parameter fut.mul must be a whole number 20..250'
n0=$(d6nodes sp0) n1=$(d6nodes sp1) n2=$(d6nodes sp2) n3=$(d6nodes sp3) n4=$(d6nodes sp4)
if [ -n "$n0" ] && [ -n "$n1" ] && [ "$n0" != "$n1" ]; then echo "ok SearchParams change the search ($n0 -> $n1 nodes at depth 6)"
else echo "FAIL SearchParams change the search ($n0 -> $n1 nodes at depth 6)"; fi
if [ -n "$n2" ] && [ "$n2" = "$n1" ]; then echo "ok SearchParams refused keep the last good set"
else echo "FAIL SearchParams refused keep the last good set ($n2, not $n1)"; fi
if [ -n "$n4" ] && [ "$n4" = "$n1" ]; then echo "ok SearchParams too long keep the last good set"
else echo "FAIL SearchParams too long keep the last good set ($n4, not $n1)"; fi
if [ -n "$n3" ] && [ "$n3" = "$n0" ]; then echo "ok SearchParams <empty> restores the defaults"
else echo "FAIL SearchParams <empty> restores the defaults ($n3, not $n0)"; fi

# eval: the static evaluation term by term, for developers
printf 'position startpos\neval\nposition fen 4r1k1/6nr/1R2p3/1P1pP2q/1B1P2p1/PN3pP1/2Q2P2/5RK1 b - - 1 42\neval\neval x\n' | u ev
has ev "eval: its terms" '^  material \| +-?[0-9]+ +-?[0-9]+$'
has ev "eval: the start is level but for the tempo" '^Total evaluation: ([0-9]+) \(side to move\), \1 \(White\)$'
has ev "eval: from the side to move's view and White's" '^Total evaluation: (-[0-9]+) \(side to move\), [0-9]+ \(White\)$'
has ev "eval: a bad command is refused" '^info string bad eval command: eval x$'

# UCI_LimitStrength + UCI_Elo: the level nearest the Elo, from the levels'
# measured figures (levels.c): the least Elo is level 1 (depth cap 1), the
# most level 20 (no cap), an Elo outside the range is refused
read -r elo_lo elo_hi < <(sed -n 's/^option name UCI_Elo type spin default [0-9]* min \([0-9]*\) max \([0-9]*\)$/\1 \2/p' "$tmp/hello")
if [ -n "${elo_lo:-}" ] && [ "$((elo_hi - elo_lo))" -ge 1500 ]; then
    echo "ok UCI_Elo spans the levels' measured range ($elo_lo..$elo_hi)"
else echo "FAIL UCI_Elo spans the levels' measured range (${elo_lo:-?}..${elo_hi:-?})"; fi
maxdepth() { sed -n 's/^info depth \([0-9]*\) .*/\1/p' "$tmp/$1" | sort -n | tail -1; }
for e in lo hi off; do
    case $e in
        lo) set -- true "$elo_lo" ;;
        hi) set -- true "$elo_hi" ;;
        off) set -- false "$elo_lo" ;;
    esac
    printf 'setoption name UCI_Elo value %s\nsetoption name UCI_LimitStrength value %s\nposition startpos\ngo depth 6 movetime 20000\n' \
        "$2" "$1" | u "elo-$e"
done
[ "$(maxdepth elo-lo)" = 1 ] && echo "ok UCI_Elo $elo_lo plays level 1: depth 1 only" ||
    { echo "FAIL UCI_Elo $elo_lo plays level 1: depth 1 only"; tail -3 "$tmp/elo-lo" | sed 's/^/    /'; }
[ "$(maxdepth elo-hi)" = 6 ] && echo "ok UCI_Elo $elo_hi plays full strength: depth 6" ||
    { echo "FAIL UCI_Elo $elo_hi plays full strength: depth 6"; tail -3 "$tmp/elo-hi" | sed 's/^/    /'; }
[ "$(maxdepth elo-off)" = 6 ] && echo "ok UCI_Elo counts only with UCI_LimitStrength" ||
    { echo "FAIL UCI_Elo counts only with UCI_LimitStrength"; tail -3 "$tmp/elo-off" | sed 's/^/    /'; }
printf 'setoption name UCI_Elo value %s\nsetoption name UCI_LimitStrength value maybe\n' "$((elo_hi + 1))" | u elo-bad
has elo-bad "UCI_Elo above the range is refused" "^info string unknown option or bad value: setoption name UCI_Elo value $((elo_hi + 1))\$"
has elo-bad "UCI_LimitStrength takes true or false" '^info string unknown option or bad value: setoption name UCI_LimitStrength value maybe$'

# UCI_ShowWDL: wdl W D L in permille after the score, summing to 1000; a
# side a queen up is likely to win, a mate is a win; no wdl by default
wdl='setoption name UCI_ShowWDL value true\nposition fen %s\ngo depth 4\n'
printf 'position fen 4k3/8/8/8/8/8/3QK3/8 w - - 0 1\ngo depth 4\n' | u wdl0
# shellcheck disable=SC2059 # (the format is $wdl)
{ printf "$wdl" '4k3/8/8/8/8/8/3QK3/8 w - - 0 1' | u wdl
  printf "$wdl" '4k3/8/8/8/8/8/q3K3/8 w - - 0 1' | u wdl2
  printf "$wdl" '7k/8/6K1/8/8/8/8/R7 w - - 0 1' | u wdl3; }
cat "$tmp/wdl2" "$tmp/wdl3" >> "$tmp/wdl"
has wdl "UCI_ShowWDL: wdl after the score" '^info depth [0-9]+ seldepth [0-9]+ multipv 1 score cp -?[0-9]+ wdl [0-9]+ [0-9]+ [0-9]+ nodes '
bad=$(awk '/ wdl / {for (i = 1; i < NF; i++) if ($i == "wdl" && $(i+1) + $(i+2) + $(i+3) != 1000) print}' "$tmp/wdl")
[ -z "$bad" ] && echo "ok UCI_ShowWDL: win, draw and loss sum to 1000" || echo "FAIL UCI_ShowWDL: not 1000: $bad"
has wdl0 "UCI_ShowWDL: info lines without it" '^info depth 4 '
! grep -q ' wdl ' "$tmp/wdl0" && echo "ok UCI_ShowWDL: no wdl before it is set" ||
    echo "FAIL UCI_ShowWDL: no wdl before it is set"
wdl_at() { grep '^info depth 4 .* wdl ' "$tmp/wdl" | sed -n "$1p" | sed 's/.* wdl \([0-9]*\) \([0-9]*\) \([0-9]*\) .*/\1 \3/'; }
read -r w l <<< "$(wdl_at 1)"
[ "${w:-0}" -gt 900 ] && [ "${l:-1000}" -lt 20 ] && echo "ok UCI_ShowWDL: a queen up wins ($w/1000, loses $l)" ||
    echo "FAIL UCI_ShowWDL: a queen up wins (${w:-?}/1000, loses ${l:-?})"
read -r w l <<< "$(wdl_at 2)"
[ "${l:-0}" -gt 900 ] && [ "${w:-1000}" -lt 20 ] && echo "ok UCI_ShowWDL: a queen down loses ($l/1000)" ||
    echo "FAIL UCI_ShowWDL: a queen down loses (${l:-?}/1000)"
has wdl "UCI_ShowWDL: a mate is won outright" '^info depth 4 .* score mate 1 wdl 1000 0 0 '

# hashfull: permille of the table used, rising as a search fills a small one
printf 'setoption name Hash value 1\nposition startpos\ngo nodes 300000\n' | u hash
hf=$(sed -n 's/^info .* hashfull \([0-9]*\) .*/\1/p' "$tmp/hash")
first=$(head -1 <<< "$hf") last=$(tail -1 <<< "$hf")
[ -n "$last" ] && [ "$first" -lt "$last" ] && [ "$last" -gt 100 ] && [ "$last" -le 1000 ] &&
    echo "ok hashfull rises as the search fills 1 MB ($first -> $last permille)" ||
    echo "FAIL hashfull rises as the search fills 1 MB (${first:-?} -> ${last:-?})"

# d: the board, its FEN and its key; the key is the position's: the same
# by two move orders, another for another position
printf 'position startpos moves g1f3 g8f6 b1c3\nd\nposition startpos moves b1c3 g8f6 g1f3\nd\nposition startpos\nd\nd x\nsetoption name UCI_Variant value capablanca\nd\n' | u d
has d "d: the board's top rank" '^ \| r \| n \| b \| q \| k \| b \|   \| r \| 8$'
has d "d: the board's files" '^   a   b   c   d   e   f   g   h *$'
has d "d: Fen line" '^Fen: r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3$|^Fen: rnbqkb1r/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R b KQkq - 3 2$'
keys=$(sed -n 's/^Key: //p' "$tmp/d")
k1=$(sed -n 1p <<< "$keys") k2=$(sed -n 2p <<< "$keys") k3=$(sed -n 3p <<< "$keys")
[[ $k1 =~ ^[0-9A-F]{16}$ ]] && [ "$k1" = "$k2" ] && [ "$k1" != "$k3" ] &&
    echo "ok d: Key, the same after a transposition ($k1), another at the start ($k3)" ||
    echo "FAIL d: Key: $k1 $k2 $k3"
has d "d: a bad d command is refused" '^info string bad d command: d x$'
has d "d: a 10-file board (capablanca)" '^   a   b   c   d   e   f   g   h   i   j *$'

# go perft: Stockfish's form, one "move: N" line per root move, a blank
# line, "Nodes searched: N"
printf 'position startpos moves e2e4\ngo perft 3\ngo perft 0\n' | u perft
[ "$(grep -cE '^[a-h][1-8][a-h][1-8]: [0-9]+$' "$tmp/perft")" = 20 ] && echo "ok go perft: a line per root move" ||
    echo "FAIL go perft: a line per root move"
has perft "go perft: a root move's count (as divide counts it)" '^e7e5: 835$'
sum=$(awk -F': ' '/^[a-h][1-8][a-h][1-8]: / {s += $2} END {print s}' "$tmp/perft")
if grep -A1 -xE '[a-h][1-8][a-h][1-8]: [0-9]+' "$tmp/perft" | tail -1 | grep -qx '' &&
    grep -qx "Nodes searched: 13160" "$tmp/perft" && [ "$sum" = 13160 ]; then
    echo "ok go perft: blank line, then Nodes searched: 13160, the lines' sum"
else echo "FAIL go perft: Nodes searched (sum $sum)"; tail -4 "$tmp/perft" | sed 's/^/    /'; fi
# a deep count ends on "stop" (the next command) or "quit" (anywhere), and
# the commands before a quit are answered
(printf 'go perft 12\n'; sleep 1; printf 'stop\nisready\n') | u perftstop
has perftstop "go perft: stop ends a deep count" '^info string go perft stopped'
has perftstop "go perft: the engine answers after the stop" '^readyok$'
hasnt perftstop "go perft: a stopped count gives no total" '^Nodes searched'
printf 'go perft 12\nisready\nquit\n' | u perftquit
has perftquit "go perft: quit ends a deep count, isready before it answered" '^readyok$'
has perft "go perft: a bad depth is refused" '^info string bad go perft command'

printf 'position fen 7k/5QQ1/8/8/8/8/8/6K1 b - - 0 1\ngo depth 2\n' | u none
has none "no legal move: bestmove (none)" '^bestmove \(none\)$'

printf 'debug on\ndebug off\nregister later\nquit\ngo depth 1\n' | u misc
hasnt misc "debug, register, quit" '^(info string|bestmove)'
printf 'uci\nquit\n' | timeout 20 "$M" > "$tmp/auto" 2>&1
has auto "no arguments + uci: UCI mode" '^uciok$'

# no sanitizer report in any session (ASan/UBSan builds)
if grep -D skip -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* 2>/dev/null; then
    echo "FAIL sanitizer reports:"; grep -D skip -hE -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* | head -30
else echo "ok no sanitizer reports"; fi
