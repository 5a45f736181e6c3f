#!/usr/bin/env bash
# The C sources are in the style of .clang-format (`make format` applies
# it): one "ok"/"FAIL" line, with the first places out of style.
set -u
cd "$(dirname "$0")/.."
if ! command -v clang-format > /dev/null; then
    echo "FAIL format: clang-format is not installed (tools/deps.sh --tests installs it)"
    exit 0
fi
out=$(make -s format-check 2>&1)
if [ $? -eq 0 ]; then
    echo "ok format: every C file as clang-format writes it"
else
    echo "FAIL format: files out of style (make format mends them)"
    grep -m 10 -E 'warning:|error:' <<< "$out" | sed 's/^/    /'
fi
