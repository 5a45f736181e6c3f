#!/usr/bin/env bash
# A real XBoard (Debian's xboard, headless under xvfb-run, match mode) plays
# complete games: Team-Mate Chess between Menagerie and Fairy-Max, and Snake
# vs. Mongoose, Hannibal and Diamondback between Menagerie and itself
# (Hannibal from a set-up given as an engine option: XBoard has no form for
# the set-up move; see src/app/proto/xboard.c; Diamondback with the flags of
# docs/xboard.md). Checks that every game ends with a result and that no
# engine or XBoard complains of an illegal move or forfeits one. Two scripted
# Diamondback positions check what XBoard makes of a move (a forfeited King
# move, a two-leg castling).
# Installs xboard, xvfb and fairymax with apt-get when missing. Skipped for
# the sanitizer binary (MENAGERIE=build/san/...): it takes minutes, and the
# protocol scripts already run that binary. Prints "ok ..."/"FAIL ..." lines.
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}
case "$M" in
    *san*) echo "ok xboard gui: skipped for the sanitizer build (minutes of games; xboard.sh covers it)"
           exit 0 ;;
esac
export PATH=$PATH:/usr/games
need=()
command -v xboard >/dev/null || need+=(xboard)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
command -v fairymax >/dev/null || need+=(fairymax)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "FAIL xboard gui: need ${need[*]} (run as root to install them)"; exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } > /dev/null 2>&1 ||
        { echo "FAIL xboard gui: cannot install ${need[*]}"; exit 0; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
me="$(realpath "$M") xboard"

# run NAME VARIANT SECOND-ENGINE [XBOARD OPTIONS...]: two games, 3 s + 0.1 s.
# Fairy-Max runs through tools/fairymax_peer.sh (it crashes on a command
# XBoard sends it). Should the peer, not Menagerie, still fail, XBoard ends
# the match, and it is played again, at most three times.
run() {
    local name=$1 variant=$2 second=$3
    shift 3
    local pgn=$tmp/$name/games.pgn dbg=$tmp/$name/xboard.debug
    local attempt
    for attempt in 1 2 3; do
        rm -rf "$tmp/$name"
        mkdir -p "$tmp/$name"
        HOME=$tmp timeout 600 xvfb-run -a xboard -fcp "$me" -fd "$tmp/$name" -scp "$second" \
            -sd "$tmp/$name" -variant "$variant" -matchMode true -matchGames 2 \
            -timeControl 0:03 -timeIncrement 0.1 -saveGameFile "$pgn" \
            -debugMode true -nameOfDebugFile "$dbg" -popupExitMessage false \
            -popupMoveErrors false -ponderNextMove false -saveSettingsOnExit false "$@" \
            > "$tmp/$name/xboard.out" 2>&1
        [ "$second" != "$me" ] &&
            grep -qs 'second chess program' "$pgn" "$tmp/$name/xboard.out" || break
        echo "    # attempt $attempt of 3: the second engine (${second##*/}) failed:"
        grep -hs 'second chess program' "$pgn" "$tmp/$name/xboard.out" | head -2 | sed 's/^/    #   /'
    done
    local n
    n=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" 2>/dev/null)
    [ "${n:-0}" = 2 ] && echo "ok xboard gui $name: 2 complete games" ||
        { echo "FAIL xboard gui $name: ${n:-0} complete games"; tail -5 "$tmp/$name/xboard.out"; }
    if grep -qiE 'illegal|forfeit' "$pgn" "$dbg" 2>/dev/null; then
        echo "FAIL xboard gui $name: illegal-move complaint or forfeit:"
        grep -hiE 'illegal|forfeit' "$pgn" "$dbg" | head -5 | sed 's/^/    /'
    else echo "ok xboard gui $name: no illegal-move complaint, no forfeit"; fi
    local who='<first ?:'
    [ "$second" = "$me" ] && who='<(first ?|second):'
    if grep -qE "$who Error" "$dbg" 2>/dev/null; then
        echo "FAIL xboard gui $name: Menagerie answered Error:"
        grep -E "$who Error" "$dbg" | head -3 | sed 's/^/    /'
    else echo "ok xboard gui $name: Menagerie understood every command"; fi
    if [ "$second" != "$me" ]; then # an unknown command may crash Fairy-Max
        if grep -qE '<second: Error' "$dbg" 2>/dev/null; then
            echo "FAIL xboard gui $name: the peer was sent a command it does not know:"
            grep -E '<second: Error' "$dbg" | head -3 | sed 's/^/    /'
        else echo "ok xboard gui $name: the peer knew every command it was sent"; fi
    fi
    grep -hE '\{[^}]*\} *(1-0|0-1|1/2-1/2)$' "$pgn" 2>/dev/null | sed 's/^/    # /'
    grep -E '^\[(White|Black|Result|Termination) ' "$pgn" 2>/dev/null | paste - - - | sed 's/^/    # /'
}

# scripted NAME FEN MOVE SECOND [XBOARD OPTIONS...]: XBoard plays MOVE for
# White from the Diamondback position FEN, told the game as Menagerie tells
# it (its own setup and piece lines) by a scripted first engine
# (tools/xboard_castling.sh --engine); SECOND plays Black. Waits until
# XBoard has passed White's move on and Black has answered (or a forfeit).
scripted() {
    local name=$1 fen=$2 move=$3 second=$4
    shift 4
    local d=$tmp/$name lines setup pieces
    mkdir -p "$d"
    lines=$(printf 'xboard\nprotover 2\nvariant diamondback\nquit\n' | "$M" xboard)
    setup=$(grep '^setup ' <<< "$lines" | sed "s|\(_fairy \).*|\1$fen|")
    pieces=$(grep '^piece ' <<< "$lines" | paste -sd';')
    HOME=$tmp timeout 60 xvfb-run -a xboard \
        -fcp "bash $(realpath tools/xboard_castling.sh) --engine '$setup' '$pieces' '$move'" \
        -scp "$second" -sd "$d" -variant diamondback -matchMode true -matchGames 1 \
        -timeControl 0:10 -debugMode true -nameOfDebugFile "$d/xboard.debug" \
        -popupExitMessage false -popupMoveErrors false -saveSettingsOnExit false "$@" \
        > "$d/xboard.out" 2>&1 &
    local pid=$! i
    for i in $(seq 100); do
        sleep 0.2
        grep -qE 'Forfeit|>first : usermove' "$d/xboard.debug" 2> /dev/null && break
    done
    sleep 0.5
    kill "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
}
db_flags=(-testClaims false -materialDraws false -ruleMoves 0 -testLegality false)

# The forfeit of h7g6 in 8/3b3k/P4b2/2rn2p1/3p1p1p/2P5/BBPPP3/1K4R1: with
# legality testing XBoard 4.9 takes a Pawn's step to an empty square off its
# file in the far half for an en-passant capture and removes the piece behind
# it (here f5-g6 removes g5, so XBoard sees the Rook g1 attack g6). Without
# it (the flags of docs/xboard.md) XBoard passes h7xg6 on.
scripted db-ep '8/3b3k/P4b2/2rn1Pp1/3p1p1p/2P5/BBPPP3/1K4R1 w - - 0 1' f5g6 \
    "bash $(realpath tools/xboard_castling.sh) --engine - - h7g6" "${db_flags[@]}"
if grep -q '>first : usermove' "$tmp/db-ep/xboard.debug" && grep -q 'h7g6' "$tmp/db-ep/xboard.debug" &&
    ! grep -q Forfeit "$tmp/db-ep/xboard.debug"; then
    echo "ok xboard gui diamondback: h7g6 after f5g6 accepted (the forfeited move)"
else
    echo "FAIL xboard gui diamondback: h7g6 after f5g6:"
    grep -hE 'Forfeit|<(first|second) ?: move' "$tmp/db-ep/xboard.debug" | head -3 | sed 's/^/    /'
fi
# Menagerie reads XBoard's echo of a two-leg castling (King c1, Rook b1)
scripted db-castle '3p3k/4ppbb/5ppn/P3p1pr/RP1P3p/NPP5/2PP4/K2RP3 w - - 0 1' a1d1,d1c1 \
    "$me" "${db_flags[@]}"
if grep -qE '>second: (usermove )?a1c1,d1b1' "$tmp/db-castle/xboard.debug" &&
    grep -q '>first : usermove' "$tmp/db-castle/xboard.debug" &&
    ! grep -qE 'Forfeit|<second: (Illegal|Error)' "$tmp/db-castle/xboard.debug"; then
    echo "ok xboard gui diamondback: Menagerie read XBoard's two-leg castling a1c1,d1b1 and answered"
else
    echo "FAIL xboard gui diamondback: two-leg castling:"
    grep -hE 'Forfeit|usermove|<second: (move|Illegal|Error)' "$tmp/db-castle/xboard.debug" |
        head -4 | sed 's/^/    /'
fi
# Diamondback, two games at 1 s + 0.05 s, played while the others are (each
# match keeps one core busy): its lines are printed at the end
run diamondback diamondback "$me" "${db_flags[@]}" -timeControl 0:01 -timeIncrement 0.05 \
    > "$tmp/db-games.out" 2>&1 &
db_games=$!

# XBoard does not know Team-Mate's 64-move rule or mating potential: it
# leaves claims and draws to the engines (see src/app/proto/xboard.c).
fm=$(realpath tools/fairymax_peer.sh)
run team-mate team-mate "$fm" -testClaims false -materialDraws false -ruleMoves 0 \
    -secondOptions "Claim draw after=64"
run snake-vs-mongoose snake-vs-mongoose "$me"
# Hannibal: the set-up by option, gating in XBoard's seirawan form
hs="Hannibal set-up=MbFh mcfg"
run hannibal hannibal "$me" -testClaims false -materialDraws false -ruleMoves 0 \
    -firstOptions "$hs" -secondOptions "$hs"
n=$(grep -v '^\[' "$tmp/hannibal/games.pgn" 2>/dev/null | grep -oE '/[MF]' | wc -l)
[ "$n" -gt 0 ] && echo "ok xboard gui hannibal: $n gating moves played" ||
    echo "FAIL xboard gui hannibal: no gating move in the games"
wait "$db_games"
cat "$tmp/db-games.out"
