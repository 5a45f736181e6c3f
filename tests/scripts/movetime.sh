#!/usr/bin/env bash
# A fixed time per move is honoured: UCI `go movetime` thinks for (nearly)
# all of it and never much longer; it ends sooner only for a forced move or
# a mate found. Wall time from the go line to bestmove: the search stops by
# the wall clock, so load can only make it later; the upper margin is wide.
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# timed NAME SETUP MS: runs `go movetime MS` after the SETUP lines in a UCI
# session and sets ELAPSED (ms from go to bestmove) and BEST (the move).
timed() {
    local name=$1 setup=$2 ms=$3 line t0 pid
    ELAPSED=-1 BEST=
    coproc ENG { timeout 60 "$M" uci 2>&1; }
    pid=$ENG_PID # bash unsets ENG_PID as soon as the engine exits
    printf '%b\nisready\n' "$setup" >&"${ENG[1]}"
    while IFS= read -r -t 30 line <&"${ENG[0]}"; do [ "$line" = readyok ] && break; done
    t0=$(now_ms)
    printf 'go movetime %d\n' "$ms" >&"${ENG[1]}"
    while IFS= read -r -t 30 line <&"${ENG[0]}"; do
        case "$line" in bestmove*) ELAPSED=$(($(now_ms) - t0)) BEST=${line#bestmove }; break ;; esac
    done
    printf 'quit\n' >&"${ENG[1]}" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ -n "$BEST" ] || echo "FAIL $name: no bestmove"
}

# within NAME LO HI: ELAPSED is in [LO, HI]
within() {
    if [ "$ELAPSED" -ge "$2" ] && [ "$ELAPSED" -le "$3" ]; then
        echo "ok $1 ($ELAPSED ms)"
    else echo "FAIL $1: $ELAPSED ms, wanted $2..$3"; fi
}

timed chess 'position startpos moves e2e4 e7e5' 2000
within "chess: go movetime 2000 uses the time" 1800 3000
timed snake 'setoption name UCI_Variant value snake-vs-mongoose\nposition startpos' 1500
within "snake-vs-mongoose: go movetime 1500 uses the time" 1350 2500

# one legal move (the king's only square): played at once
timed forced 'position fen k5r1/8/8/8/8/8/8/1r5K w - - 0 1' 3000
within "a forced move does not wait for the time" 0 1500
case "$BEST" in h1h2*) true ;; *) false ;; esac && echo "ok the forced move" ||
    echo "FAIL forced move: $BEST"
# a mate in one is found and played well before the time
timed mate 'position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' 3000
within "a mate found ends the search" 0 1500
case "$BEST" in a1a8*) echo "ok the mating move" ;; *) echo "FAIL mate: $BEST" ;; esac
