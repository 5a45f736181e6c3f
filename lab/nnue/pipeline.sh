#!/usr/bin/env bash
# The network of one chess game, from self-play to a tested net (docs/nnue.md).
#   lab/nnue/pipeline.sh VARIANT [data] [train] [test] [install]
# (no step named: data, train and test). Every step goes on where a stopped
# run left it. The state lives outside the repository, in
#   ${MENAGERIE_NNUE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/menagerie-nnue}/VARIANT/
# as genG.bin (positions), genG.state and genG.nnue (the trainer's state and
# network), genG.curve (epoch, training and validation loss) and genG.test
# (the match). Generation 0's positions are scored by the variant's own
# evaluation; generation G > 0's by the searches of generation G-1's network
# (the usual bootstrap), and it trains on every generation's positions.
#   data     menagerie datagen to POSITIONS positions (NODES a move, THREADS)
#   train    build/release/train: HIDDEN neurons, EPOCHS epochs, LAMBDA,
#            MIRROR=1 adds each position reflected as the variant's reflect= says
#   test     a fixed-node SPRT (TEST_NODES a move, [0, 10] Elo, at most
#            GAMES games) of the network against the hand-made evaluation
#   install  the network into src/variants/nets/VARIANT.nnue (built in)
# Settings (environment): GEN (0), POSITIONS (2000000), NODES (3000),
# THREADS (the cores), HIDDEN (128), EPOCHS (16), LAMBDA (1), MIRROR (1),
# TEST_NODES (5000), GAMES (2000), MENAGERIE (./menagerie).
set -eu
cd "$(dirname "$0")/../.."
variant=${1:?usage: lab/nnue/pipeline.sh VARIANT [data] [train] [test] [install]}
shift
steps=${*:-data train test}
M=${MENAGERIE:-./menagerie}
G=${GEN:-0}
threads=${THREADS:-$(nproc)}
dir=${MENAGERIE_NNUE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/menagerie-nnue}/$variant
mkdir -p "$dir"
net=$dir/gen$G.nnue
prev=$dir/gen$((G - 1)).nnue
for step in $steps; do
    case $step in
    data)
        scored=()
        if [ "$G" -gt 0 ]; then scored=(--eval-file "$prev"); fi
        "$M" datagen "$variant" --out "$dir/gen$G.bin" --positions "${POSITIONS:-2000000}" \
            --nodes "${NODES:-3000}" --threads "$threads" "${scored[@]}"
        ;;
    train)
        make -s train
        data=()
        for g in $(seq 0 "$G"); do data+=("$dir/gen$g.bin"); done
        if [ "${MIRROR:-1}" = 1 ]; then data+=(--mirror); fi
        build/release/train "$variant" "${data[@]}" --out "$net" --state "$dir/gen$G.state" \
            --hidden "${HIDDEN:-128}" --epochs "${EPOCHS:-16}" --lambda "${LAMBDA:-1}" \
            --threads "$threads" | tee -a "$dir/gen$G.curve"
        ;;
    test)
        "$M" match --variant "$variant" --nodes "${TEST_NODES:-5000}" --games "${GAMES:-2000}" \
            --sprt 0,10 --concurrency "$threads" --quiet --pgn "$dir/gen$G.pgn" \
            --opt1 "EvalFile=$(realpath "$net")" --opt2 "EvalFile=<hand>" self self |
            tee "$dir/gen$G.test"
        ;;
    install)
        mkdir -p src/variants/nets
        cp "$net" "src/variants/nets/$variant.nnue"
        echo "src/variants/nets/$variant.nnue: generation $G; rebuild (make) to build it in"
        ;;
    *)
        echo "lab/nnue/pipeline.sh: no step $step (data, train, test, install)" >&2
        exit 2
        ;;
    esac
done
