#!/usr/bin/env bash
# The Debian packages: `dpkg-buildpackage -us -uc -b` on a copy of the tree,
# lintian without errors, then (as root) the .debs install, menagerie runs
# `menagerie --version`, registers with XBoard (a fresh XBoard adds it to
# its engine list by itself), python3-menagerie's module imports and plays
# in Debian's python3, and both are removed and purged leaving no file.
# Installs dpkg-dev, debhelper, lintian and the Python build dependencies
# when missing. Skipped for the sanitizer binary (the package builds its
# own). Prints "ok ..."/"FAIL ...".
set -u
cd "$(dirname "$0")/../.."
case "${MENAGERIE:-}" in
    *san*) echo "ok package: skipped for the sanitizer build"; exit 0 ;;
esac
export PATH=$PATH:/usr/games
need=()
command -v dpkg-buildpackage > /dev/null || need+=(dpkg-dev)
command -v dh > /dev/null || need+=(debhelper)
command -v lintian > /dev/null || need+=(lintian)
for p in dh-python python3-dev python3-setuptools; do dpkg -s $p > /dev/null 2>&1 || need+=($p); done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "FAIL package: need ${need[*]} (run as root to install them)"; exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } > /dev/null 2>&1 ||
        { echo "FAIL package: cannot install ${need[*]}"; exit 0; }
fi
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
tar --exclude=./build --exclude=./menagerie --exclude=./data --exclude=./node_modules \
    --exclude=./.git --exclude=./python/build --exclude='./python/*.egg-info' \
    --exclude='./python/menagerie/*.so' -cf - . | tar -xf - -C "$tmp/src"

# The unit tests run in `make test` already: nocheck keeps this short.
if (cd "$tmp/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
        nice -n 10 dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1; then
    echo "ok package: dpkg-buildpackage -us -uc -b"
else
    echo "FAIL package: dpkg-buildpackage -us -uc -b"; tail -15 "$tmp/build.log" | sed 's/^/    /'
    exit 0
fi
# built at the Makefile's -O3 (what the benchmarks measure), dpkg's flags
# (hardening, -g) kept: the last -O of every compile is -O3
cc_lines=$(grep -E ' -c -o build/release/' "$tmp/build.log")
last_o=$(sed -E 's/.* (-O[0-9s]+)( .*|$)/\1/' <<< "$cc_lines" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
if [ -n "$cc_lines" ] && [ "$(sed -E 's/.* (-O[0-9s]+)( .*|$)/\1/' <<< "$cc_lines" | sort -u)" = -O3 ] &&
        grep -q -- '-fstack-protector-strong' <<< "$cc_lines"; then
    echo "ok package: compiled at -O3 with dpkg's hardening flags ($(wc -l <<< "$cc_lines") files)"
else echo "FAIL package: compile flags (the last -O of each compile:${last_o:- none found})"; fi
arch=$(dpkg --print-architecture)
deb=$tmp/menagerie_${version}_$arch.deb
pydeb=$tmp/python3-menagerie_${version}_$arch.deb
for d in "$deb" "$pydeb"; do
    [ -s "$d" ] && echo "ok package: $(basename "$d")" ||
        { echo "FAIL package: no $(basename "$d")"; ls "$tmp" | sed 's/^/    /'; exit 0; }
done
lint=$(lintian --fail-on error "$tmp/menagerie_${version}_$arch.changes" 2>&1)
if [ $? -eq 0 ]; then echo "ok package: lintian reports no errors"
else echo "FAIL package: lintian errors:"; grep '^E:' <<< "$lint" | head -5 | sed 's/^/    /'; fi
grep -E '^[EW]:' <<< "$lint" | head -5 | sed 's/^/    # /'

if [ "$(id -u)" -ne 0 ]; then
    echo "ok package: install and removal skipped (not root)"; exit 0
fi
if dpkg -s menagerie > /dev/null 2>&1 || dpkg -s python3-menagerie > /dev/null 2>&1; then
    echo "ok package: install and removal skipped (a menagerie package is installed here)"; exit 0
fi
if dpkg -i "$deb" "$pydeb" > "$tmp/dpkg.log" 2>&1; then echo "ok package: dpkg -i"
else echo "FAIL package: dpkg -i"; tail -5 "$tmp/dpkg.log" | sed 's/^/    /'; exit 0; fi
files=$(dpkg -L menagerie python3-menagerie | while read -r f; do [ -f "$f" ] && echo "$f"; done)
out=$(/usr/games/menagerie --version 2>&1)
[ "$out" = "menagerie $version" ] && echo "ok package: installed menagerie --version: $out" ||
    echo "FAIL package: installed menagerie --version: $out"

# XBoard (Debian's, started with -autoInstall) adds the engine to its list
# when the .eng file is newer than its settings: a fresh home in a private
# mount namespace, so that no real settings file is touched.
if command -v xboard > /dev/null && command -v xvfb-run > /dev/null &&
        unshare -m true 2> /dev/null; then
    home=$(getent passwd "$(id -un)" | cut -d: -f6)
    mkdir "$tmp/home"
    # a one-game match from a mated position ends at once and saves settings
    echo 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3' > "$tmp/mated.fen"
    HOME=$tmp/home timeout 120 unshare -m sh -c "mount --bind '$tmp/home' '$home' &&
        xvfb-run -a xboard -fcp /usr/games/menagerie -scp /usr/games/menagerie \
        -lpf '$tmp/mated.fen' -matchMode true -matchGames 1 -popupExitMessage false \
        -saveSettingsOnExit true" > "$tmp/xboard.log" 2>&1
    grep -A20 -- '-firstChessProgramNames' "$tmp/home/.xboardrc" 2>/dev/null |
        grep -q '^/usr/games/menagerie$' &&
        echo "ok package: a fresh XBoard lists /usr/games/menagerie among its engines" ||
        { echo "FAIL package: XBoard did not add Menagerie to its engine list";
          tail -3 "$tmp/xboard.log" | sed 's/^/    /'; }
fi

# the module, in Debian's own python3, from a folder without the tree
out=$(cd "$tmp" && /usr/bin/python3 -c 'import menagerie
g = menagerie.Game("diamondback")
print(menagerie.version(), g.perft(2), g.search(depth=3)["best"] in g.legal_moves())' 2>&1)
[ "$out" = "$version 486 True" ] && echo "ok package: python3-menagerie imports and plays: $out" ||
    echo "FAIL package: python3-menagerie: $out"

dpkg -r python3-menagerie menagerie > "$tmp/dpkg.log" 2>&1 &&
    dpkg -P python3-menagerie menagerie >> "$tmp/dpkg.log" 2>&1 &&
    echo "ok package: dpkg -r and -P" || { echo "FAIL package: dpkg -r/-P"; tail -5 "$tmp/dpkg.log"; }
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done)
[ -z "$left" ] && echo "ok package: removal leaves none of its files" ||
    echo "FAIL package: left after removal: $left"
