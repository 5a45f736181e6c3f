#!/usr/bin/env bash
# `make install` and `make uninstall` into a temporary DESTDIR, checked file
# by file: the binary and its version, the manual page (renders without
# warnings, names every command), the documentation, XBoard's engine
# registration and logo; then uninstall leaves nothing behind. The sanitizer
# run (MENAGERIE=build/san/...) checks the version only: `make install`
# installs the optimised ./menagerie. Prints "ok ..."/"FAIL ..." lines.
set -u
cd "$(dirname "$0")/../.."
M=${MENAGERIE:-./menagerie}
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)

check() { # check NAME CONDITION-EXIT-CODE
    if [ "$2" = 0 ]; then echo "ok install: $1"; else echo "FAIL install: $1"; fi
}

out=$("$M" --version 2>&1)
[ "$out" = "menagerie $version" ]
check "--version prints the changelog's version ($out)" $?
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# serve_dir BIN HOME XDG_DATA_HOME [ARGS...]: the folder serve says it keeps games in
serve_dir() {
    local b=$1 h=$2 x=$3
    shift 3
    (cd "$tmp" && HOME=$h XDG_DATA_HOME=$x timeout 2 "$b" serve --port 0 "$@" > "$tmp/serve.out" 2>&1)
    sed -n 's/.*(games saved in \(.*\); Ctrl-C stops)$/\1/p' "$tmp/serve.out"
}
# run from the source tree (make run, the tests), games stay in ./data
case "$M" in /*) here=$M ;; *) here=$PWD/${M#./} ;; esac
d=$(serve_dir "$here" "$tmp/h0" "")
[ "$d" = data ]
check "serve from the source tree keeps games in ./data (${d:-nothing said})" $?

case "$M" in
    *san*) echo "ok install: the rest skipped for the sanitizer build (installs ./menagerie)"
           exit 0 ;;
esac
for prefix in /usr /opt/menagerie; do
    d=$tmp/root
    rm -rf "$d"
    if ! make -s install DESTDIR="$d" PREFIX="$prefix" > "$tmp/log" 2>&1; then
        echo "FAIL install: make install PREFIX=$prefix"; sed 's/^/    /' "$tmp/log" | tail -5
        continue
    fi
    p=$d$prefix
    bin=$p/games/menagerie
    [ -x "$bin" ] && [ "$("$bin" --version)" = "menagerie $version" ]
    check "PREFIX=$prefix: $prefix/games/menagerie runs" $?

    man=$p/share/man/man6/menagerie.6.gz
    page=$(gzip -dc "$man" 2>/dev/null)
    [ -n "$page" ] && grep -q "menagerie $version" <<< "$page"
    check "PREFIX=$prefix: manual page with the version" $?
    if [ "$prefix" = /usr ]; then
        if command -v man > /dev/null; then
            warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man" 2>&1 > "$tmp/man.txt")
            [ -z "$warn" ] && [ -s "$tmp/man.txt" ]
            check "man -l renders the page without warnings" $?
            [ -n "$warn" ] && echo "$warn" | head -3 | sed 's/^/    /'
        else
            gzip -dc "$man" | sed 's/\\-/-/g' > "$tmp/man.txt"
        fi
        # every command of `menagerie help`, every option in the usage of
        # the commands that take options, and the variant file keys
        missing=""
        for c in $("$bin" help | awk '/^  [a-z-]/ {print $1}') startFen castling gating=setup; do
            grep -q -- "$c" "$tmp/man.txt" || missing="$missing $c"
        done
        for c in serve play match openings; do
            for o in $("$bin" $c --help 2>&1 | grep -oE -- '--[a-z0-9-]+' | sort -u); do
                [ "$o" = --help ] || grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" "$tmp/man.txt" ||
                    missing="$missing $c$o"
            done
        done
        [ -z "$missing" ]
        check "manual page names every command, option and file key${missing:+ (missing:$missing)}" $?
    fi

    doc=$p/share/doc/menagerie
    links=$(grep -oE '\]\(docs/[^)#]+\.md' "$doc/README.md" | sed 's/^](//' | sort -u)
    missing=
    for f in $links; do [ -s "$doc/$f" ] || missing="$missing $f"; done
    [ -s "$doc/README.md" ] && [ -n "$links" ] && [ -z "$missing" ] && [ -s "$doc/docs/web.md" ] &&
        grep -q '^## Rules, positions and moves' "$doc/rules.md" &&
        grep -q '^## Variant definition files' "$doc/rules.md" && ! grep -q '^## Layout' "$doc/rules.md"
    check "PREFIX=$prefix: README, the pages it links${missing:+ (missing:$missing)} and the rules summary in share/doc/menagerie" $?

    # installed, serve keeps games in the user's data folder, made on first use
    if [ "$prefix" = /usr ]; then
        sd=$(serve_dir "$bin" "$tmp/h1" "")
        [ "$sd" = "$tmp/h1/.local/share/menagerie" ] && [ -d "$sd" ]
        check "installed serve keeps games in ~/.local/share/menagerie (${sd:-nothing said})" $?
        sd=$(serve_dir "$bin" "$tmp/h1" "$tmp/xdg")
        [ "$sd" = "$tmp/xdg/menagerie" ] && [ -d "$sd" ]
        check "installed serve keeps games in \$XDG_DATA_HOME/menagerie (${sd:-nothing said})" $?
        sd=$(serve_dir "$bin" "$tmp/h1" "relative/x")
        [ "$sd" = "$tmp/h1/.local/share/menagerie" ]
        check "a relative XDG_DATA_HOME is ignored, as the XDG spec says (${sd:-nothing said})" $?
        sd=$(serve_dir "$bin" "$tmp/h1" "$tmp/xdg" --data "$tmp/mine")
        [ "$sd" = "$tmp/mine" ] && [ -d "$sd" ]
        check "installed serve --data DIR still keeps games in DIR (${sd:-nothing said})" $?
        (cd "$tmp" && HOME=$tmp/h1 XDG_DATA_HOME='' "$bin" egdb check > "$tmp/egdb.out" 2>&1)
        grep -q "cannot open $tmp/h1/.local/share/menagerie/egdb/" "$tmp/egdb.out"
        check "installed egdb reads its tables from the same folder" $?
    fi

    eng=$p/share/games/plugins/xboard/menagerie.eng
    [ "$(sed -n 1p "$eng")" = "plugin spec 0.0" ] && [ "$(sed -n 2p "$eng")" = "$prefix/games/menagerie" ] &&
        [ "$(wc -l < "$eng")" = 3 ]
    check "PREFIX=$prefix: XBoard plugin file names the installed binary" $?
    logo=$p/share/games/plugins/logos/menagerie.png
    [ "$(head -c 8 "$logo" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
    check "PREFIX=$prefix: XBoard logo is a PNG" $?

    make -s uninstall DESTDIR="$d" PREFIX="$prefix" > "$tmp/log" 2>&1
    left=$(find "$d" -type f)
    [ -z "$left" ]
    check "PREFIX=$prefix: make uninstall removes every file${left:+ (left: $left)}" $?
done
