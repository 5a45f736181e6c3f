#!/usr/bin/env bash
# Checks perft counts from an EPD file: lines "FEN ;D1 n ;D2 n ...", or for
# the mancala "RULES | POSITION ;D1 n ..." (RULES: base, a, b, ab).
# usage: tests/perft.sh VARIANT FILE.epd [MAX_LEAVES]
# Counts above MAX_LEAVES (default 2,000,000) are skipped to keep tests fast.
# Prints one "ok"/"FAIL" line per check and exits non-zero on any failure.
set -u
variant=$1 file=$2 max=${3:-2000000}
bin=${MENAGERIE:-./menagerie}
fails=0 n=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    v=$variant
    if [[ "$line" == *'|'* ]]; then
        rules=${line%%|*}; rules=${rules// /}
        case "$rules" in base) v=slangenspel ;; *) v=slangenspel-$rules ;; esac
        line=${line#*|}
    fi
    # (bash alone: no process per field but the perft itself)
    fen=${line%%;*}
    [[ "$fen" =~ ^\ *(.*[^ ])\ *$ ]] && fen=${BASH_REMATCH[1]}
    rest=${line#*;}
    IFS=';' read -ra fields <<< "$rest"
    for f in "${fields[@]}"; do
        [[ "$f" =~ ^\ *D([0-9]+)\ +([0-9]+)\ *$ ]] || continue
        d=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
        [ "$want" -gt "$max" ] && continue
        got=$("$bin" perft "$v" "$d" --fen "$fen" 2>/dev/null)
        got=${got##*$'\n'} # the last line
        n=$((n + 1))
        if [ "$got" = "$want" ]; then
            echo "ok $v D$d $fen"
        else
            echo "FAIL $v D$d $fen: got $got, want $want"
            fails=$((fails + 1))
        fi
    done
done < "$file"
[ "$n" -gt 0 ] || { echo "FAIL $file: no checks"; exit 1; }
exit $((fails > 0))
