# server.sh - sourced by the web test scripts: a scratch folder, `menagerie serve`
# on a free loopback port with an empty data folder, and helpers for the checks.
# Needs BIN (the binary) set; installs node (to read JSON replies) when missing.
if ! command -v node > /dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs > /dev/null
    fi
    command -v node > /dev/null 2>&1 || { echo "FAIL $0: node is missing (apt-get install nodejs)"; exit 1; }
fi
T=$(mktemp -d)
PID=
trap 'if [ -n "$PID" ]; then kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; fi; rm -rf "$T"' EXIT

check() { if [ "$2" -eq 0 ]; then echo "ok $1"; else echo "FAIL $1${3:+: $3}"; fi; }

# starts the server on $T/data (kept across restarts); sets PID, PORT and B
start_server() {
    : > "$T/out"
    "$BIN" serve --port 0 --data "$T/data" > "$T/out" 2> "$T/err" &
    PID=$!
    PORT=
    for _ in $(seq 100); do
        PORT=$(grep -o '127\.0\.0\.1:[0-9]*' "$T/out" 2>/dev/null | head -1 | cut -d: -f2)
        [ -n "$PORT" ] && break
        sleep 0.1
    done
    B=http://127.0.0.1:$PORT
    [ -n "$PORT" ] || { echo "FAIL $0: the server did not start: $(cat "$T/err")"; exit 1; }
}
stop_server() { kill -TERM "$PID"; RC=0; wait "$PID" || RC=$?; PID=; } # sets RC

# requests: the body goes to $T/body, the HTTP status to stdout
post() { curl -s -o "$T/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$2" "$B$1"; }
get() { curl -s -o "$T/body" -w '%{http_code}' "$B$1"; }
# runs JavaScript on the last reply, parsed as d
js() { node -e "const d=JSON.parse(require('fs').readFileSync('$T/body','utf8')); $1"; }
