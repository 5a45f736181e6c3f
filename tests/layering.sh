#!/usr/bin/env bash
# The layers of the source, checked on its #include lines. From the ground
# up: core; variants and search; mancala; engine; the product's front ends
# (src/app, src/front) and the library (src/lib); the lab (lab/) on top. A
# file includes only its own layer and those below it, so nothing in src/
# reaches into lab/. Front ends and the lab see the layers below the engine
# only through engine/engine.h. The one exception is named in ALLOW with
# its reason. Prints one "ok"/"FAIL" line per rule, with the includes that
# break it.
set -u
cd "$(dirname "$0")/.."

# layer FILE: the floor of a source file or an included path (0: unknown).
layer() {
    case "$1" in
        src/core/* | core/*) echo 1 ;;
        src/variants/* | variants/* | src/search/* | search/*) echo 2 ;;
        src/mancala/* | mancala/*) echo 3 ;;
        src/engine/* | engine/*) echo 4 ;;
        src/app/* | app/* | src/front/* | front/* | src/lib/* | lib/*) echo 5 ;;
        lab/*) echo 6 ;;
        *) echo 0 ;;
    esac
}

# The Texel tuner fits the evaluation's own weights over positions it
# generates: it needs the evaluation's internals, which no engine call
# offers, and it is a program of its own, not part of the product. The
# networks' trainer likewise needs the network's features and file format.
ALLOW=" lab/tune/tune.c lab/nnue/train.c "

up=() leak=()
while IFS= read -r f; do
    lf=$(layer "$f")
    while IFS= read -r inc; do
        li=$(layer "$inc")
        [ "$li" -gt 0 ] || continue
        [ "$li" -le "$lf" ] || up+=("$f -> $inc")
        if [ "$lf" -ge 5 ] && [ "$li" -lt 5 ] && [ "$inc" != engine/engine.h ] &&
            [[ "$ALLOW" != *" $f "* ]]; then
            leak+=("$f -> $inc")
        fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(find src lab -name '*.[ch]' | sort)

if [ ${#up[@]} -eq 0 ]; then
    echo "ok layering: no include runs up a layer (nothing in src/ includes lab/)"
else
    echo "FAIL layering: includes that run up a layer"
    printf '    %s\n' "${up[@]}"
fi
if [ ${#leak[@]} -eq 0 ]; then
    echo "ok layering: front ends and the lab include only engine/engine.h below them"
else
    echo "FAIL layering: front ends or the lab include a lower layer beside engine/engine.h"
    printf '    %s\n' "${leak[@]}"
fi
