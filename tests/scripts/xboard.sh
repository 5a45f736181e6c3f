#!/usr/bin/env bash
# Scripted XBoard/CECP sessions: every command, in every chess variant.
# Prints one "ok ..." or "FAIL ..." line per check. MENAGERIE picks the
# binary (default ./menagerie). Searches are depth-limited to stay fast.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
M=$bin

# xb NAME: runs a session with stdin as the commands, output in $tmp/NAME.
xb() { timeout 60 "$M" xboard > "$tmp/$1" 2>&1; }

# variant (XBoard name), size, a legal first move, an illegal one, a legal reply
variants=(
    "normal|8x8|e2e4|e2e5|e7e5"
    "snake-vs-mongoose|10x10|e2e4|e3e5|e7e5"
    "team-mate|8x8|e2e4|e2e5|e7e5"
    "diamondback|8x8|e1e2|e1e3|h4h3"
    "hannibal|10x9|MbFh|e2e5|McFg"
)

printf 'xboard\nprotover 2\n' | xb features
has features "features: done=1" '^feature done=1$'
has features "features: usermove setboard ping playother highlight" \
    'usermove=1.*setboard=1|setboard=1.*usermove=1'
has features "features: highlight, memory, smp" 'highlight=1'
has features "features: SearchParams option" '^feature option="SearchParams -string "$'
# SearchParams: the search's tunable numbers; a bad set is refused and the last good one kept
sd6nodes() { grep -E '^ *6 ' "$tmp/$1" | tail -1 | awk '{print $4}'; }
printf 'xboard\nprotover 2\npost\nsd 6\ngo\n' | xb sp0
printf 'xboard\nprotover 2\noption SearchParams=rfp.margin:200,lmr.base:0\noption SearchParams=nmp.div:x\npost\nsd 6\ngo\n' | xb sp1
has sp1 "SearchParams: a bad value is refused" "^Error \\(search parameter nmp.div must be a whole number 50..600, not 'x'\\)"
n0=$(sd6nodes sp0) n1=$(sd6nodes sp1)
if [ -n "$n0" ] && [ -n "$n1" ] && [ "$n0" != "$n1" ]; then echo "ok SearchParams change the search ($n0 -> $n1 nodes at depth 6)"
else echo "FAIL SearchParams change the search ($n0 -> $n1 nodes at depth 6)"; fi
printf 'xboard\nprotover 2\nmemory 99999999\nmemory 8\nping 1\n' | xb memcap
has memcap "memory beyond what the machine can give is capped and said so" '^# memory capped to [0-9]+ MB'
has memcap "memory cap: the session goes on" '^pong 1$'
for v in "${variants[@]}"; do
    IFS='|' read -r name size legal illegal reply <<< "$v"
    has features "features: variants lists $name" "variants=\"([a-z-]+,)*$name(,[a-z-]+)*\""
done

for v in "${variants[@]}"; do
    IFS='|' read -r name size legal illegal reply <<< "$v"
    vcmd="variant $name"
    [ "$name" = normal ] && vcmd=""

    printf 'protover 2\n%s\nping 1\nusermove %s\nusermove %s\nping 2\n' \
        "$vcmd" "$legal" "$illegal" | xb "s-$name"
    if [ "$name" != normal ]; then
        has "s-$name" "$name: setup with board size $size" "^setup \\([A-Za-z.]+\\) ${size}\\+[0-9]+_[a-z]+ "
        has "s-$name" "$name: piece lines (XBetza)" '^piece [A-Z]& [A-Za-z0-9]+$'
    fi
    has "s-$name" "$name: ping answered" '^pong 1$'
    has "s-$name" "$name: illegal move rejected" "^Illegal move.*: $illegal\$"
    hasnt "s-$name" "$name: legal move accepted" "^Illegal move.*: $legal\$"
    has "s-$name" "$name: pong after the moves" '^pong 2$'

    # go: the engine moves for the side to move; its move must be legal
    printf 'protover 2\n%s\nsd 2\nusermove %s\ngo\n' "$vcmd" "$legal" | xb "go-$name"
    mv=$(grep -E '^move ' "$tmp/go-$name" | head -1 | cut -d' ' -f2)
    if [ -n "$mv" ]; then echo "ok $name: go gives a move ($mv)"; else
        echo "FAIL $name: go gives no move"; tail -5 "$tmp/go-$name"; fi
    printf 'protover 2\n%s\nforce\nusermove %s\nusermove %s\n' "$vcmd" "$legal" "$mv" \
        | xb "replay-$name"
    hasnt "replay-$name" "$name: the engine's move is legal in XBoard's notation" '^Illegal'

    # force, undo, remove, playother, new
    printf 'protover 2\n%s\nforce\nusermove %s\nusermove %s\nundo\nusermove %s\nremove\nusermove %s\nusermove %s\nping 3\n' \
        "$vcmd" "$legal" "$reply" "$reply" "$legal" "$reply" | xb "undo-$name"
    hasnt "undo-$name" "$name: force/undo/remove take moves back" '^(Illegal|Error)'
    has "undo-$name" "$name: force mode does not think" '^pong 3$'
    hasnt "undo-$name" "$name: no move in force mode" '^move '
    printf 'protover 2\n%s\nsd 1\nforce\nusermove %s\nplayother\nping 4\nusermove %s\n' \
        "$vcmd" "$legal" "$reply" | xb "other-$name"
    has "other-$name" "$name: playother waits, then answers the next move" '^move '
    [ "$(count "other-$name" '^move ')" = 1 ] && echo "ok $name: playother: one move" ||
        echo "FAIL $name: playother: $(count "other-$name" '^move ') moves"
    printf 'protover 2\n%s\nnew\nforce\nusermove e2e4\n' "$vcmd" | xb "new-$name"
    hasnt "new-$name" "$name: new starts orthodox chess again" '^Illegal'

    # time controls, post/nopost, ping while thinking
    printf 'protover 2\n%s\nlevel 40 0:30 0\ntime 3000\notim 3000\npost\nsd 2\ngo\nping 5\n' \
        "$vcmd" | xb "level-$name"
    has "level-$name" "$name: level/time/otim: moves" '^move '
    has "level-$name" "$name: post shows thinking" $'^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ .*\t'
    if awk '/^move /{m=NR} /^pong 5$/{p=NR} END{exit !(m && p > m)}' "$tmp/level-$name"; then
        echo "ok $name: pong held until the move is out"; else echo "FAIL $name: pong before move"; fi
    printf 'protover 2\n%s\nst 0.2\nnopost\ngo\n' "$vcmd" | xb "st-$name"
    has "st-$name" "$name: st: moves" '^move '
    hasnt "st-$name" "$name: nopost: no thinking" $'^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+'
    printf 'protover 2\n%s\nlevel 0 1 0\nnps 2000\nst 1\ngo\n' "$vcmd" | xb "nps-$name"
    has "nps-$name" "$name: nps: moves" '^move '
    printf 'protover 2\n%s\nlevel 0 0:20 1.5\nsd 3\nmemory 32\ncores 1\noption Level=3\ngo\n' \
        "$vcmd" | xb "mem-$name"
    has "mem-$name" "$name: memory/cores/option/level with increment" '^move '
    hasnt "mem-$name" "$name: memory/cores/option accepted" '^Error'
    printf 'protover 2\n%s\nst 30\ngo\n?\n' "$vcmd" | xb "now-$name"
    has "now-$name" "$name: ? moves now" '^move '

    # analyze / exit, hint, bk, draw, result
    (printf 'protover 2\n%s\npost\nanalyze\n' "$vcmd"; sleep 0.4
     printf '.\nusermove %s\n' "$legal"; sleep 0.3; printf 'exit\nping 6\n') | xb "an-$name"
    has "an-$name" "$name: analyze shows thinking" $'^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ .*\t'
    has "an-$name" "$name: analyze/exit" '^pong 6$'
    has "an-$name" "$name: . gives stat01" '^stat01: [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ '
    hasnt "an-$name" "$name: analyze makes no move" '^move '
    printf 'protover 2\n%s\nsd 2\ngo\nhint\nbk\ndraw\nresult 1/2-1/2 {agreed}\nping 7\n' "$vcmd" \
        | xb "misc-$name"
    has "misc-$name" "$name: bk answers" '^ .*book'
    has "misc-$name" "$name: hint/draw/result then ping" '^pong 7$'
    hasnt "misc-$name" "$name: hint/draw/result: no errors" '^Error'

    # bad lines: an error, and nothing changes
    printf 'protover 2\n%s\nlevel x y z\nsd -1\nusermov e2e4\nfrobnicate\nsetboard not a fen\nlift z99\nforce\nusermove %s\n' \
        "$vcmd" "$legal" | xb "bad-$name"
    [ "$(count "bad-$name" '^Error')" -ge 6 ] && echo "ok $name: bad lines get Error" ||
        echo "FAIL $name: bad lines: $(count "bad-$name" '^Error') errors"
    hasnt "bad-$name" "$name: bad lines change nothing" '^Illegal'
done

# mating material (rules.md): K+N v K+N plays on; taking the last knight claims the draw
printf 'protover 2\nvariant snake-vs-mongoose\nsetboard 8k1/10/10/10/4n5/10/3N6/10/10/K9 w - - 0 60\nforce\nusermove a0b0\nping 1\n' | xb kn
hasnt kn "snake-vs-mongoose: K+N v K+N plays on, no claim" '^(1/2-1/2|Illegal)'
printf 'protover 2\nvariant snake-vs-mongoose\nsetboard 8k1/10/10/10/4n5/10/3N6/10/10/K9 w - - 0 60\nforce\nusermove d3e5\nping 1\n' | xb knx
has knx "snake-vs-mongoose: K+N v K claims the draw" '^1/2-1/2 \{Draw: insufficient mating material\}$'
printf 'protover 2\nvariant hannibal\nsetboard 8k1/10/10/10/10/10/10/K9/1N8[Mb] w - - 0 60\nforce\nusermove b1c3m\nping 1\n' | xb gate
hasnt gate "hannibal: a Manticore at a gate is material, no claim" '^(1/2-1/2|Illegal)'

# found by fuzzing: an 11-digit rank in a move overflowed the rank shift
printf 'protover 2\nvariant snake-vs-mongoose\nforce\nusermove e11111111111e4\nping 2\n' | xb bigrank
has bigrank "a move with an 11-digit rank is refused" '^Illegal move'
hasnt bigrank "a move with an 11-digit rank: no sanitizer report" 'runtime error'
has bigrank "a move with an 11-digit rank: the session goes on" '^pong 2$'

# setboard, in each variant's own FEN form (XBoard ranks on 10-rank boards)
printf 'protover 2\nsetboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\nforce\nusermove g1f3\n' | xb sb1
hasnt sb1 "normal: setboard" '^(Illegal|Error)'
printf 'protover 2\nvariant snake-vs-mongoose\nsetboard rnbgqkgbnr/ns1s2s1sn/ppp1pppppp/10/3pP5/10/10/PPPP1PPPPP/NM1M2M1MN/RNBGQKGBNR w KQkq d6 0 3\nforce\nusermove e5d6\n' | xb sb2
hasnt sb2 "snake-vs-mongoose: setboard with en passant in XBoard ranks" '^(Illegal|Error)'

# highlight: lift/put/hover
printf 'protover 2\nlift e2\nlift e4\n' | xb hl1
has hl1 "normal: lift shows a pawn's targets" '^highlight 8/8/8/8/4y3/4y3/8/8$'
has hl1 "normal: lift on an empty square marks nothing" '^highlight 8/8/8/8/8/8/8/8$'
printf 'protover 2\nsetboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\nlift a7\nput a8\n' | xb hl2
has hl2 "normal: promotion square magenta" '^highlight m7/8/8/8/8/8/8/8$'
has hl2 "normal: put on a promotion square offers the choice" '^choice [QRBN]{4}$'
printf 'protover 2\nsetboard 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\nlift e5\nhover d6\n' | xb hl3
has hl3 "normal: en-passant capture red" '^highlight 8/8/3r4/8/8/8/8/8$|^highlight 8/8/3ry3/8/8/8/8/8$'
has hl3 "normal: hover shows the en-passant victim green" '^highlight 8/8/3ry3/3g4/8/8/8/8$'
printf 'protover 2\nvariant snake-vs-mongoose\nlift b1\n' | xb hl4
has hl4 "snake-vs-mongoose: lift in XBoard ranks (mongoose b1)" '^highlight 10/10/10/10/10/10/10/10/2y7/10$'
printf 'protover 2\nvariant team-mate\nsetboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\nlift a7\nput a8\n' | xb hl5
has hl5 "team-mate: promotion choice is CUFNEMJ" '^choice [CUFNEMJ]{7}$'
printf 'protover 2\nvariant diamondback\nlift c2\n' | xb hl6
has hl6 "diamondback: pawn targets (XBoard cannot compute them)" '^highlight 8/8/8/8/8/3y4/8/8$'
printf 'protover 2\nvariant hannibal\nusermove MbFh\nusermove McFg\nsetboard 4k5/10/10/10/10/10/10/10/R4K4[] w Q - 0 1\nlift f1\n' | xb hl7
has hl7 "hannibal: fast castling targets highlighted" '^highlight .*/[y.0-9]*y[y.0-9]*$'

# Diamondback in XBoard 4.9 (docs/xboard.md): piece lines in the modifier
# order XBoard reads (directions, then modes: XBoard reads "mfrF" as mF);
# castlings XBoard cannot draw never chosen, the one it draws (a1c1, rook
# d1-b1) sent in two legs and read in both orders, none highlighted for a
# person (XBoard would draw it wrong).
printf 'protover 2\nvariant diamondback\n' | xb dbp
has dbp "diamondback: pawn line in XBoard's modifier order" '^piece P& fWrWfrmFfrcFflcFbrcFflFbrF$'
has dbp "diamondback: King line with castling for XBoard's two-leg form" '^piece K& KisO2$'
dbc='3p3k/4ppbb/5ppn/P3p1pr/RP1P3p/NPP5/2PP4/K2RP3 w - - 0 1'
for legs in a1c1,d1b1 a1d1,d1c1; do
    printf 'protover 2\nvariant diamondback\nforce\nsetboard %s\nusermove %s\nusermove h7g8\nlift b1\nlift c1\n' \
        "$dbc" "$legs" | xb "dbl-$legs"
    hasnt "dbl-$legs" "diamondback: two-leg castling $legs read" '^Illegal'
    has "dbl-$legs" "diamondback: after $legs the Rook is on b1, the King on c1" \
        '^highlight 8/8/8/8/8/8/1y6/y7$'
done
printf 'protover 2\nvariant diamondback\nforce\nsetboard %s\nlift a1\n' "$dbc" | xb dbh
has dbh "diamondback: no castling highlighted for a person" '^highlight 8/8/8/8/8/8/yy6/1y6$'
# the swap a1d1 (King d1, Rook a1) mates, but XBoard cannot draw it
dbm='k7/8/2NN4/8/8/8/3P4/K2R4 w - - 0 1'
{ printf 'protover 2\nvariant diamondback\nforce\nsetboard %s\nsd 4\ngo\n' "$dbm"; sleep 2
  echo quit; } | xb dbm
has dbm "diamondback: the engine moves" '^move '
hasnt dbm "diamondback: no castling XBoard cannot draw (a1d1 mates)" '^move a1(d1|a3|a4)'
printf 'uci\nsetoption name UCI_Variant value diamondback\nposition fen %s\ngo depth 4\n' "$dbm" |
    timeout 30 "$M" uci > "$tmp/dbmu" 2>&1
has dbmu "diamondback: over UCI the mating swap is played" '^bestmove a1d1'

# claims of results XBoard cannot see
printf 'protover 2\nvariant diamondback\nforce\nsetboard 8/6P1/7k/8/8/8/8/K7 w - - 0 1\nusermove g7h8\n' | xb c1
has c1 "diamondback: corner win claimed" '^1-0 \{White wins: .*\}$'
printf 'protover 2\nvariant team-mate\nforce\nsetboard 4k3/p7/8/8/8/8/P7/4K1N1 w - - 127 80\nusermove e1d1\n' | xb c2
has c2 "team-mate: 64-move rule claimed" '^1/2-1/2 \{Draw: 64-move rule\}$'
printf 'protover 2\nvariant team-mate\nforce\nsetboard 4k3/8/8/8/8/2c5/3n4/4K1N1 w - - 0 1\nusermove e1d2\n' | xb c3
has c3 "team-mate: mating-potential draw claimed" '^1/2-1/2 \{Draw: .*(material|mating).*\}$'
printf 'protover 2\nvariant hannibal\nforce\nsetboard 4k5/p9/10/10/10/10/10/P9/5K4[] w - - 149 90\nusermove f1e1\n' | xb c4
has c4 "hannibal: 75-move rule claimed" '^1/2-1/2 \{Draw: 75-move rule\}$'
printf 'protover 2\nvariant snake-vs-mongoose\nforce\nsetboard k9/2K7/10/1Q8/10/10/10/10/10/10 w - - 0 1\nusermove b6b8\n' | xb c5
has c5 "snake-vs-mongoose: checkmate claimed" '^1-0 \{White wins: checkmate\}$'

# Hannibal gating: seirawan-style suffix accepted, a wrong one refused
printf 'protover 2\nvariant hannibal\nforce\nusermove MbFh\nusermove McFg\nusermove b1c3m\nundo\nusermove b1c3f\nusermove b1c3\n' | xb g1
[ "$(count g1 '^Illegal')" = 1 ] && echo "ok hannibal: gating suffix m accepted, f refused" ||
    echo "FAIL hannibal: gating: $(count g1 '^Illegal') refusals"
printf 'protover 2\nvariant hannibal\nforce\nusermove MbFh\nusermove McFg\nsetboard rn1bqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[MbFhmcfg] w KQkq - 0 2\nsd 1\nusermove b1c3\nusermove b9c7\nforce\n' | xb g2
hasnt g2 "hannibal: setboard with waiting pieces" '^(Illegal|Error)'

# Hannibal set-up by option: the game starts after it; XBoard sees the
# pieces in hand without files and the gate files in the castling field;
# its setboard gets the files back; a bad value is refused and changes nothing
printf 'protover 2\noption Hannibal set-up=MbFh mcfg\nvariant hannibal\nforce\nusermove b1c3m\nusermove c9e7m\n' | xb hs1
has hs1 "hannibal set-up option: offered" '^feature option="Hannibal set-up -string move"'
has hs1 "hannibal set-up option: XBoard's start position" \
    '^setup \(.*\) 10x9\+8_seirawan rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR\[MFmf\] w KQBHkqcg '
hasnt hs1 "hannibal set-up option: gating moves accepted at once" '^(Illegal|Error)'
printf 'protover 2\noption Hannibal set-up=MbFi mcfh\nvariant hannibal\nsetboard rnebqkbenr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNEBQKBENR[FMfm] w KQBIkqch - 0 1\nforce\nusermove i1h3f\nusermove h9f7f\nusermove b1c3m\nusermove c9e7m\n' | xb hs2
hasnt hs2 "hannibal set-up option: XBoard's setboard gets the gate files back" '^(Illegal|Error)'
printf 'protover 2\noption Hannibal set-up=MfFh mcfg\noption Hannibal set-up=MbMb mcfg\noption Hannibal set-up=MbFh\noption Hannibal set-up=MbFh mcfg\nvariant hannibal\nusermove MbFh\n' | xb hs3
[ "$(count hs3 '^Error \(.*\): option Hannibal set-up')" = 3 ] && has hs3 "hannibal set-up option: bad values refused, a good one kept" '^Illegal move.*MbFh' ||
    { echo "FAIL hannibal set-up option: bad values: $(count hs3 '^Error') errors"; cat "$tmp/hs3" | grep -v '^feature\|^piece' | head; }
printf 'protover 2\noption Hannibal set-up=random\nvariant hannibal\noption Hannibal set-up=move\nvariant hannibal\nusermove MbFh\n' | xb hs4
has hs4 "hannibal set-up option: random starts after a set-up" '^setup .*\[MFmf\] w KQ[A-J]{2}kq[a-j]{2} '
hasnt hs4 "hannibal set-up option: move restores the set-up move" '^(Illegal|Error)'

# Hannibal one-square castling in XBoard's two-leg forms, both orders,
# next to ours (king-to-rook) and the plain King step; the King's XBetza
# tells XBoard about it
printf 'protover 2\nvariant hannibal\nforce\nsetboard r4k3r/pppppppppp/10/10/10/10/10/PPPPPPPPPP/R4K3R[] w KQkq - 0 1\nusermove f1g1,j1f1\nusermove f9a9,a9e9\nundo\nundo\nusermove f1j1,j1g1\nusermove f9e9,a9f9\nundo\nundo\nusermove f1j1\nusermove f9e9\nusermove g1h1,j1i1\n' | xb hc1
has hc1 "hannibal: XBoard's King can castle one square" '^piece K& KisO1$'
[ "$(count hc1 '^Illegal')" = 1 ] && has hc1 "hannibal: two-leg castlings read, a two-leg non-castling refused" '^Illegal move .*: g1h1,j1i1$' ||
    { echo "FAIL hannibal: two-leg castlings: $(count hc1 '^Illegal') refusals"; grep Illegal "$tmp/hc1" | head -3; }

# a one-square castling that mates goes out in XBoard's two-leg form under
# a set-up option, as our token otherwise (for drivers that read ours)
mate='setboard 4rkr3/4p1p3/10/10/10/10/10/9P/5K1EER[] w K - 0 1\nsd 3\ngo\n'
printf "protover 2\noption Hannibal set-up=MbFh mcfg\nvariant hannibal\nforce\n$mate" | xb hc2
has hc2 "hannibal: one-square castling sent as XBoard's two legs" '^move f1j1,j1g1$'
printf "protover 2\nvariant hannibal\nforce\n$mate" | xb hc3
has hc3 "hannibal: one-square castling sent as our token without a set-up option" '^move f1j1$'

# a longer fast castling that mates is not chosen under a set-up option
# (XBoard cannot draw it), and is without one
long='setboard 4rkr3/4p1p3/10/10/10/10/10/9P/5KE2R[] w K - 0 1\nsd 3\ngo\n'
printf "protover 2\noption Hannibal set-up=MbFh mcfg\nvariant hannibal\nforce\n$long" | xb hc4
has hc4 "hannibal: no longer castling chosen under a set-up option" '^move [a-j][0-9]'
hasnt hc4 "hannibal: (not f1h1 or f1i1)" '^move f1[hi]1'
printf "protover 2\nvariant hannibal\nforce\n$long" | xb hc5
has hc5 "hannibal: the mating castling without one" '^move f1[hi]1$'

# XBoard promotes every pawn reaching the last rank; a Diamondback pawn on c8
# stays a pawn, so the suffix is dropped there (and kept where it counts)
printf 'protover 2\nvariant diamondback\nforce\nsetboard 7k/1P6/8/8/8/8/8/K7 w - - 0 1\nusermove b7c8q\nundo\nusermove b7c8\nundo\nusermove b7b8r\n' | xb dbq
[ "$(count dbq '^Illegal')" = 0 ] && echo "ok diamondback: XBoard's automatic promotion suffix tolerated" ||
    { echo "FAIL diamondback: promotion suffix"; grep Illegal "$tmp/dbq"; }

# pondering: hard, hint, and a ponder hit answered from the ponder search
waitfor() { # waitfor FILE PATTERN COUNT: up to 15 s for COUNT matching lines
    for _ in $(seq 150); do
        [ "$(grep -cE -- "$2" "$1")" -ge "$3" ] && return 0
        sleep 0.1
    done
    return 1
}
mkfifo "$tmp/fifo"
timeout 60 "$M" xboard < "$tmp/fifo" > "$tmp/ponder" 2>&1 &
exec 7> "$tmp/fifo"
printf 'protover 2\nvariant team-mate\nhard\nlevel 0 0:30 0\ntime 3000\notim 3000\nsd 6\ngo\n' >&7
waitfor "$tmp/ponder" '^move ' 1
sleep 0.3
printf 'hint\n' >&7
waitfor "$tmp/ponder" '^Hint: ' 1
h=$(grep -m1 '^Hint: ' "$tmp/ponder" | cut -d' ' -f2)
printf 'time 2900\notim 2950\nusermove %s\n' "${h:-e7e6}" >&7
waitfor "$tmp/ponder" '^move ' 2
printf 'time 2800\notim 2900\nusermove a7a6\n' >&7 # most likely a ponder miss
waitfor "$tmp/ponder" '^move ' 3
printf 'easy\nquit\n' >&7
exec 7>&-
wait
rm -f "$tmp/fifo"
has ponder "hard: hint names the expected reply" '^Hint: [a-h][1-8][a-h][1-8]'
[ "$(count ponder '^move ')" = 3 ] && echo "ok hard: ponder hit and miss answered with moves" ||
    echo "FAIL hard: $(count ponder '^move ') moves after a ponder hit and a miss"
hasnt ponder "hard: no illegal move in the ponder session" '^(Illegal|Error)'

# the GUI's floor: when XBoard charges a move far more than its search took
# (it was busy drawing the move, say), later moves think about that long
# even on a short clock: the time is charged anyway
mkfifo "$tmp/fifo"
timeout 60 "$M" xboard < "$tmp/fifo" > "$tmp/floor" 2>&1 &
exec 7> "$tmp/fifo"
printf 'protover 2\nvariant team-mate\nlevel 0 0:05 0.05\ntime 500\notim 500\ngo\n' >&7
waitfor "$tmp/floor" '^move ' 1
# 5 s + 0.05 s - 4.1 s: 0.95 s charged; then a clock of 0.2 s
printf 'time 410\ntime 20\notim 500\n' >&7
t0=$(date +%s%N)
printf 'usermove e7e6\n' >&7
waitfor "$tmp/floor" '^move ' 2
ms=$((($(date +%s%N) - t0) / 1000000))
printf 'quit\n' >&7
exec 7>&-
wait
rm -f "$tmp/fifo"
[ "$ms" -ge 700 ] && echo "ok time: a measured GUI floor of 0.95 s: the next move thinks $ms ms" ||
    echo "FAIL time: a measured GUI floor of 0.95 s, yet the next move took $ms ms"
hasnt floor "time: no error in the floor session" '^(Illegal|Error)'

# auto-selection when started without arguments
printf 'xboard\nprotover 2\nquit\n' | timeout 20 "$M" > "$tmp/auto1" 2>&1
has auto1 "no arguments + xboard: CECP mode" '^feature done=1$'
printf 'protover 2\nquit\n' | timeout 20 "$M" > "$tmp/auto2" 2>&1
has auto2 "no arguments + protover: CECP mode" '^feature done=1$'
printf 'quit\n' | xb quit
hasnt quit "quit ends the session cleanly" 'Error'

# no sanitizer report in any session (ASan/UBSan builds)
if grep -D skip -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* 2>/dev/null; then
    echo "FAIL sanitizer reports:"; grep -D skip -hE -A5 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp"/* | head -30
else echo "ok no sanitizer reports"; fi
