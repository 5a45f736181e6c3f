#!/usr/bin/env bash
# A new game forgets what earlier searches learnt: after `ucinewgame` (UCI)
# or `new` (XBoard) the same fixed-depth search counts the same nodes as the
# first one, while without it the hash table makes the repeat cheaper.
# Prints "ok ..." or "FAIL ...". MENAGERIE picks the binary.
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}

# nodes of the last "info depth D ... nodes N" before the reply line
search_nodes() { # $1 = reply prefix (bestmove|move)
    local line nodes=""
    while IFS= read -r -t 120 line <&"${E[0]}"; do
        case "$line" in
            *" nodes "*) nodes=$(sed -E 's/.* nodes ([0-9]+).*/\1/' <<< "$line") ;;
            "$1"*) echo "$nodes"; return ;;
        esac
    done
    echo "none"
}

coproc E { "$M" uci 2>&1; }
pid=$E_PID # bash unsets E_PID as soon as the engine exits
echo uci >&"${E[1]}"
while IFS= read -r -t 60 l <&"${E[0]}"; do [ "$l" = uciok ] && break; done
echo "position startpos" >&"${E[1]}"; echo "go depth 7" >&"${E[1]}"
n1=$(search_nodes bestmove)
echo "position startpos" >&"${E[1]}"; echo "go depth 7" >&"${E[1]}"
n2=$(search_nodes bestmove)
echo ucinewgame >&"${E[1]}"; echo "position startpos" >&"${E[1]}"; echo "go depth 7" >&"${E[1]}"
n3=$(search_nodes bestmove)
echo quit >&"${E[1]}"
wait "$pid" 2>/dev/null
[ "$n1" != none ] && [ "$n2" != "$n1" ] && echo "ok uci: a repeated search reuses the tables ($n1 then $n2 nodes)" ||
    echo "FAIL uci: repeated search $n1 / $n2 nodes"
[ "$n3" = "$n1" ] && echo "ok uci: ucinewgame clears the tables ($n3 nodes again)" ||
    echo "FAIL uci: after ucinewgame $n3 nodes, first search $n1"

coproc E { "$M" xboard 2>&1; }
pid=$E_PID
printf 'xboard\nprotover 2\npost\nforce\nsd 7\n' >&"${E[1]}"
xb_nodes() { # CECP post lines: depth score time nodes pv
    local line nodes=""
    while IFS= read -r -t 120 line <&"${E[0]}"; do
        case "$line" in
            "move "*) echo "$nodes"; return ;;
            [0-9]*) nodes=$(awk '{print $4}' <<< "$line") ;;
        esac
    done
    echo "none"
}
printf 'go\n' >&"${E[1]}"; x1=$(xb_nodes)
printf 'new\nforce\nsd 7\npost\ngo\n' >&"${E[1]}"; x2=$(xb_nodes)
echo quit >&"${E[1]}"
wait "$pid" 2>/dev/null
[ "$x1" != none ] && [ "$x2" = "$x1" ] && echo "ok xboard: new clears the tables ($x1 nodes twice)" ||
    echo "FAIL xboard: after new $x2 nodes, first search $x1"
