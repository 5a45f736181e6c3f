#!/usr/bin/env bash
# The Python module (docs/python.md): libmenagerie is built and its C API
# tried by a C program (tests/python/capi_test.c), `pip install .` puts the
# module into a fresh virtual environment (Debian's python3, its setuptools,
# no network), and tests/python's unittests run there, with a user's variant
# file (horse-chess: chess with the Knight renamed Horse) by path and in
# $MENAGERIE_VARIANTS. For the sanitizer binary the library is built with
# ASan+UBSan (CFG=san-pic), the C test with them too, and Python runs with
# the sanitizers' runtime preloaded. Installs python3-dev,
# python3-setuptools and python3-venv when missing (as root). Prints
# "ok ..."/"FAIL ..." lines.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli.sh
top=$PWD
py=/usr/bin/python3 # Debian's, the one python3-dev is for
cfg=release-pic preload=
case "$bin" in *san*) cfg=san-pic ;; esac

need=()
for p in python3-dev python3-setuptools python3-venv; do
    dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "ok python: skipped, ${need[*]} missing (run as root to install them)"; exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } > /dev/null 2>&1 ||
        { echo "ok python: skipped, cannot install ${need[*]}"; exit 0; }
fi

if [ $cfg = san-pic ]; then
    preload=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
    [ -f "$preload" ] || { echo "FAIL python: no ASan runtime ($preload)"; exit 0; }
fi
if nice -n 10 make -s -j2 CFG=$cfg "build/$cfg/libmenagerie.so" > "$tmp/make.log" 2>&1; then
    echo "ok python: libmenagerie ($cfg) builds"
else
    echo "FAIL python: libmenagerie ($cfg) does not build"; tail -5 "$tmp/make.log" | sed 's/^/    /'
    exit 0
fi
# only the menagerie_ calls are exported
other=$(nm -D --defined-only "build/$cfg/libmenagerie.so" | awk '$2 == "T" && $3 !~ /^menagerie_/')
[ -z "$other" ] && echo "ok python: libmenagerie exports only menagerie_ calls" ||
    echo "FAIL python: libmenagerie exports more: $(head -3 <<< "$other" | tr '\n' ' ')"

# the C API as a C program of its own uses it
cc=gcc ccflags=
[ $cfg = san-pic ] && cc=clang ccflags=-fsanitize=address,undefined
if $cc -std=c11 -Wall -Wextra -Wpedantic -Werror $ccflags -Isrc/lib -o "$tmp/capi" \
        tests/python/capi_test.c -L"build/$cfg" -lmenagerie -Wl,-rpath,"$top/build/$cfg" \
        2> "$tmp/cc.log"; then
    ASAN_OPTIONS=detect_leaks=1 "$tmp/capi" || echo "FAIL python: the C API test exits with $?"
else
    echo "FAIL python: the C API test does not build"; head -5 "$tmp/cc.log" | sed 's/^/    /'
fi

# A copy of python/, so that two builds may run side by side; the Makefile's
# tree is named by MENAGERIE_TOP.
cp -r python "$tmp/src"
rm -rf "$tmp/src/build" "$tmp/src"/*.egg-info "$tmp/src/menagerie"/*.so
"$py" -m venv "$tmp/venv" > "$tmp/venv.log" 2>&1 ||
    { echo "FAIL python: python3 -m venv"; tail -3 "$tmp/venv.log" | sed 's/^/    /'; exit 0; }
if (cd "$tmp/src" && MENAGERIE_TOP=$top MENAGERIE_CFG=$cfg PIP_DISABLE_PIP_VERSION_CHECK=1 \
        nice -n 10 "$tmp/venv/bin/pip" install --no-index . ) > "$tmp/pip.log" 2>&1; then
    echo "ok python: pip install . (into a virtual environment)"
else
    echo "FAIL python: pip install ."; tail -8 "$tmp/pip.log" | sed 's/^/    /'; exit 0
fi

mkdir "$tmp/variants"
cp tests/data/horse-chess.var "$tmp/variants/"
# (from a folder of its own: `import menagerie` finds the installed module)
(cd "$tmp" && MENAGERIE_VARIANTS=$tmp/variants HORSE_CHESS=$tmp/variants/horse-chess.var \
    LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0 \
    "$tmp/venv/bin/python" "$top/tests/python/test_menagerie.py") > "$tmp/test.log" 2>&1
rc=$?
cat "$tmp/test.log"
grep -q '^ok python: ' "$tmp/test.log" && ! grep -q '^FAIL' "$tmp/test.log" && [ $rc -eq 0 ] ||
    { grep -q '^FAIL' "$tmp/test.log" || { echo "FAIL python: the tests exit with $rc";
                                            tail -12 "$tmp/test.log" | sed 's/^/    /'; }; }
