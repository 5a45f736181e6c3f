#!/usr/bin/env bash
# End-to-end tests of the web app in headless Chromium (Debian's chromium, driven by
# playwright-core from tests/web): installs what is missing, starts `menagerie serve`
# on a free loopback port with an empty data folder, plays every game and saves a
# screenshot of each board under build/screenshots/. Prints ok/FAIL lines.
# Runs for the release binary only: tests/run.sh runs every script again with the
# sanitizer build, where a browser session adds minutes and nothing that
# web_api.sh (which does run under ASan+UBSan) does not already cover.
set -u
cd "$(dirname "$0")/../.."
BIN=${MENAGERIE:-./menagerie}
case "$BIN" in
    *san*) echo "skipped: browser tests run with the release binary only ($BIN)"; exit 0 ;;
esac
export DEBIAN_FRONTEND=noninteractive
apt_updated=
need_pkg() { # need_pkg COMMAND PACKAGE...
    command -v "$1" > /dev/null 2>&1 && return 0
    [ "$(id -u)" -eq 0 ] || { echo "FAIL web e2e: $1 is missing (apt-get install ${*:2})"; exit 1; }
    [ -n "$apt_updated" ] || { apt-get update -qq > /dev/null; apt_updated=1; }
    apt-get install -y -qq "${@:2}" > /dev/null || { echo "FAIL web e2e: cannot install ${*:2}"; exit 1; }
}
[ -x /usr/bin/chromium ] || need_pkg /usr/bin/chromium chromium
need_pkg node nodejs
need_pkg npm npm
if [ ! -f tests/web/node_modules/playwright-core/package.json ]; then
    (cd tests/web && (npm ci --no-audit --no-fund > /dev/null 2>&1 || npm install --no-audit --no-fund > /dev/null 2>&1)) ||
        { echo "FAIL web e2e: npm could not install playwright-core"; exit 1; }
fi

. tests/lib/web.sh
scratch
must_start_server "$T/data"
mkdir -p build/screenshots
rm -f build/screenshots/failed-*.png
timeout 300 node tests/web/e2e.mjs "$B" build/screenshots
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || echo "FAIL web e2e: the browser run ended with code $rc"
stop_server
[ "$RC" -eq 0 ]; check "web e2e: the server stopped cleanly" $? "exit code $RC"
