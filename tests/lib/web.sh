# shellcheck shell=bash disable=SC2034 # (sets variables for the scripts that source it)
# tests/lib/web.sh - the shell helpers of every script that drives `menagerie serve`
# on loopback (tests/scripts/web_*.sh, new_variant.sh, tools/loadfault.sh). The
# caller sets BIN (the binary) and calls scratch (a scratch folder T) first; the
# server helpers set PID, PORT, B (the base URL) and CODE, and leave each reply in
# $T/body.

# scratch: a scratch folder T, removed on exit with the server (PID) and any
# tmpfs mounted at MNT.
scratch() {
    T=$(mktemp -d)
    PID=
    MNT=
    trap scratch_cleanup EXIT
}
scratch_cleanup() {
    if [ -n "$PID" ]; then kill -9 "$PID" 2> /dev/null; wait "$PID" 2> /dev/null; fi
    [ -n "$MNT" ] && umount "$MNT" 2> /dev/null
    rm -rf "$T"
}

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; }
check() { # check NAME EXIT-CODE [DETAIL]: DETAIL is shown on failure
    if [ "$2" -eq 0 ]; then ok "$1"; else fail "$1${3:+: $3}"; fi
}

need_node() { # node reads the JSON replies
    command -v node > /dev/null 2>&1 && return 0
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs > /dev/null
    fi
    command -v node > /dev/null 2>&1 || { fail "$0: node is missing (apt-get install nodejs)"; exit 1; }
}

# start_server DATA [ARGS...]: starts the server on a free port; fails with PORT
# empty when it did not start (its stderr is in $T/err).
start_server() {
    local data=$1
    shift
    rm -f "$T/out" "$T/err" # else the loop may read the address of the last server
    "$BIN" serve --port 0 --data "$data" "$@" > "$T/out" 2> "$T/err" &
    PID=$!
    PORT=
    for _ in $(seq 400); do # 40 s: a sanitizer build on a loaded machine
        PORT=$(grep -o 'http://[^ ]*:[0-9]*/' "$T/out" 2> /dev/null | head -1 | sed 's|.*:\([0-9]*\)/|\1|')
        [ -n "$PORT" ] && break
        kill -0 "$PID" 2> /dev/null || break
        sleep 0.1
    done
    B=http://${HOSTADDR:-127.0.0.1}:$PORT
    [ -n "$PORT" ]
}

must_start_server() { # must_start_server DATA [ARGS...]: start_server, or FAIL and exit
    start_server "$@" || { fail "$0: the server did not start: $(cat "$T/err")"; exit 1; }
}

stop_server() { # sets RC to the exit code
    kill -TERM "$PID" 2> /dev/null
    RC=0
    wait "$PID" || RC=$?
    PID=
}

# req METHOD PATH [BODY [CONTENT-TYPE]]: sets CODE; the reply is in $T/body. A
# request that finds the server gone is a failure that ends the script.
req() {
    local args=(-s --noproxy '*' --max-time 30 -o "$T/body" -w '%{http_code}' -X "$1")
    if [ $# -ge 3 ]; then
        args+=(-H "Content-Type: ${4:-application/json}" --data-binary "$3")
    elif [ "$1" != GET ]; then
        args+=(-H "Content-Type: application/json")
    fi
    CODE=$(curl "${args[@]}" "$B$2")
    if [ "$CODE" = 000 ] && ! kill -0 "$PID" 2> /dev/null; then
        fail "the server died on $1 $2: $(head -c 2000 "$T/err")"
        exit 1
    fi
}

# as JAR METHOD PATH [BODY [HEADER...]]: a request with the cookie jar $T/JAR (a
# browser's session: the server's cookie kept); sets CODE, the reply in $T/body,
# its headers in $T/head.
as() {
    local jar=$T/$1 m=$2 p=$3 body=${4:-}
    shift 4 2> /dev/null || shift $#
    local args=(-s --noproxy '*' --max-time 30 -o "$T/body" -D "$T/head" -w '%{http_code}'
        -b "$jar" -c "$jar" -X "$m")
    [ "$m" = GET ] || args+=(-H "Content-Type: application/json" --data-binary "${body:-{\}}")
    for h in "$@"; do args+=(-H "$h"); done
    CODE=$(curl "${args[@]}" "$B$p")
}

js() { # js EXPR: prints EXPR with d = the last JSON reply
    node -e "const d = JSON.parse(require('fs').readFileSync('$T/body', 'utf8')); console.log($1)" 2> /dev/null
}

holds() { # holds CONDITION: CONDITION (JavaScript, on d) is true of the last reply
    [ "$(js "!!($1)")" = true ]
}

poll() { # poll PATH CONDITION [TRIES]: GET PATH every 0.1 s until CONDITION holds
    for _ in $(seq "${3:-100}"); do
        req GET "$1"
        holds "$2" && return 0
        sleep 0.1
    done
    return 1
}

expect() { # expect NAME CODE [CONDITION]: the last reply has status CODE and CONDITION
    local name=$1 want=$2 cond=${3:-true}
    if [ "$CODE" != "$want" ]; then
        fail "$name: status $CODE, wanted $want ($(head -c 200 "$T/body"))"
    elif ! holds "$cond"; then
        fail "$name: $cond is false ($(head -c 300 "$T/body"))"
    else
        ok "$name"
    fi
}
