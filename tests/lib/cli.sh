# shellcheck shell=bash disable=SC2034 # (sets variables for the scripts that source it)
# tests/lib/cli.sh - the helpers of the scripts that run the binary and read its
# output (cli.sh, egdb.sh, uci.sh, xboard.sh, match.sh), sourced from the folder
# they are run in: bin (the binary), a scratch folder tmp removed on exit, expect
# for one command, and has/hasnt/count for an output kept in $tmp.
bin=${MENAGERIE:-./menagerie}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME WANT_EXIT PATTERN COMMAND...: exit code and output (grep -E); a
# failure shows the output's start and end on its one line.
expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -Eq -- "$pat"; then
        echo "ok $name"
        return
    fi
    out=${out//$'\n'/ / }
    if [ ${#out} -le 600 ]; then
        echo "FAIL $name: exit $rc (want $want), output: $out"
    else
        echo "FAIL $name: exit $rc (want $want), output: ${out:0:300} ... ${out: -300}"
    fi
}

# has FILE CHECK PATTERN: $tmp/FILE has a line matching PATTERN (grep -E)
has() {
    if grep -qE -- "$3" "$tmp/$1"; then echo "ok $2"; else
        echo "FAIL $2 (no /$3/ in output:)"; tail -n 15 "$tmp/$1" | sed 's/^/    /'; fi
}
hasnt() { # hasnt FILE CHECK PATTERN
    if grep -qE -- "$3" "$tmp/$1"; then
        echo "FAIL $2 (unexpected /$3/:)"; grep -E -- "$3" "$tmp/$1" | head -5 | sed 's/^/    /'
    else echo "ok $2"; fi
}
count() { grep -cE -- "$2" "$tmp/$1"; } # count FILE PATTERN: prints the matching lines' number
