# shellcheck shell=bash
# tests/lib/cli.sh - the helpers of the command-line test scripts (cli.sh, egdb.sh),
# sourced from the folder they are run in: bin (the binary), a scratch folder tmp
# removed on exit, and expect.
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
