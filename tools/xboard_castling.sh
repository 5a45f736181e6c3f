#!/usr/bin/env bash
# How a real XBoard (headless, xvfb-run) draws Hannibal's and Diamondback's
# castlings in each move form an engine could send: a scripted engine plays
# one castling from a set position, XBoard saves its board, and a screenshot
# of XBoard's window is taken. For each case it prints XBoard's first rank
# against the one the rules give. Not part of `make test` (about 10 s a case);
# docs/xboard.md says what this shows.
#
# usage: tools/xboard_castling.sh [OUTDIR]   (default build/xboard-castling:
#        CASE.png, CASE.fen, CASE.debug). Installs xboard, xvfb, x11-apps
#        (xwd) and netpbm when missing.
set -u
if [ "${1:-}" = --engine ]; then # the scripted engine: --engine SETUP PIECES MOVE (SETUP -: none)
    setup=$2 pieces=$3 move=$4 done=0
    while read -r line; do
        case "$line" in
            protover*) echo 'feature myname="script" variants="hannibal,diamondback" setboard=1 usermove=1 sigint=0 ping=1 done=1' ;;
            "variant "*) [ "$setup" = - ] || { echo "$setup"; tr ';' '\n' <<< "$pieces"; } ;;
            ping*) echo "pong ${line#ping }" ;;
            go | usermove*) [ $done = 0 ] && [ "$move" != - ] && echo "move $move"; done=1 ;;
            quit) exit 0 ;;
        esac
    done
    exit 0
fi
cd "$(dirname "$0")/.."
out=${1:-build/xboard-castling}
mkdir -p "$out"
out=$(realpath "$out")
export PATH=$PATH:/usr/games
need=()
command -v xboard > /dev/null || need+=(xboard)
command -v xvfb-run > /dev/null || need+=(xvfb xauth)
command -v xwd > /dev/null || need+=(x11-apps)
command -v pnmtopng > /dev/null || need+=(netpbm)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" > /dev/null
fi
me=$(realpath "$0")
p2c_h='PNBRQFEM.............Kpnbrqfem.............k'
h_setup="setup ($p2c_h) 10x9+8_seirawan r4k3r/pppppppppp/10/10/10/10/10/PPPPPPPPPP/R4K3R[-] w KQkq - 0 1"
h_pieces='piece E& FA;piece M& WyafsW;piece K& KisO1'
d_setup='setup (PNBRQ................Kpnbrq................k) 8x8+0_fairy 3prnqk/4ppbb/5ppn/P3p1pr/RP1P3p/NPP5/BBPP4/K2RP3 w - - 0 1'
d_pieces='piece P& fWrWfrmFfrcFflcFbrcFflFbrF;piece K& KisO2'

# shot NAME VARIANT SETUP PIECES MOVE RIGHT-RANK-1 [XBOARD OPTIONS]
shot() {
    local name=$1 variant=$2 setup=$3 pieces=$4 move=$5 right=$6
    shift 6
    local eng1 eng2
    eng1="bash $me --engine '$setup' '$pieces' '$move'"
    eng2="bash $me --engine '$setup' '$pieces' -"
    rm -f "$out/$name.fen"
    HOME=$out timeout 60 xvfb-run -a -s "-screen 0 700x600x24" sh -c "
        xboard -fcp \"$eng1\" -scp \"$eng2\" -variant $variant -matchMode true -matchGames 1 \
            -timeControl 5 -debugMode true -nameOfDebugFile '$out/$name.debug' \
            -popupMoveErrors false -popupExitMessage false -saveSettingsOnExit false \
            -size medium -savePositionFile '$out/$name.fen' $* &
        sleep 6; xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > '$out/$name.png'
        kill \$!; sleep 1" > /dev/null 2>&1
    local got
    got=$(sed 's/[[ ].*//; s|.*/||' "$out/$name.fen" 2>/dev/null)
    if grep -q 'Forfeit' "$out/$name.debug" 2>/dev/null; then got="refused (forfeit)"; fi
    printf '%-28s %-10s XBoard: %-18s rules: %-10s %s\n' "$name" "$move" "${got:-?}" "$right" \
        "$([ "$got" = "$right" ] && echo as-the-rules || echo DIFFERS)"
}

shot hannibal-1sq-two-legs hannibal "$h_setup" "$h_pieces" 'f1j1,j1g1' R4RK3
shot hannibal-1sq-king-to-rook hannibal "$h_setup" "$h_pieces" f1j1 R4RK3
shot hannibal-fast-f1h1 hannibal "$h_setup" "$h_pieces" f1h1 R4R1K2
shot hannibal-fast-f1h1-nolegal hannibal "$h_setup" "$h_pieces" f1h1 R4R1K2 -testLegality false
shot diamondback-a1c1 diamondback "$d_setup" "$d_pieces" a1c1 1RK1P3
shot diamondback-a1c1-nolegal diamondback "$d_setup" "$d_pieces" a1c1 1RK1P3 -testLegality false
shot diamondback-a1c1-two-legs-nolegal diamondback "$d_setup" "$d_pieces" 'a1d1,d1c1' 1RK1P3 \
    -testLegality false
shot diamondback-a1d1-nolegal diamondback "$d_setup" "$d_pieces" a1d1 R2KP3 -testLegality false
echo "screenshots and XBoard's positions in $out"
