#!/usr/bin/env bash
# Installs the Debian packages the build needs, when missing; with --tests
# the commands the test scripts use instead (each script installs its own
# when run alone; tests/run.sh installs them all first, one apt-get at a time).
set -eu
missing=()
if [ "${1:-}" = --tests ]; then
    export PATH=$PATH:/usr/games
    for cp in node:nodejs npm:npm chromium:chromium xboard:xboard xvfb-run:xvfb xauth:xauth \
        fairymax:fairymax dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian \
        pybuild:dh-python python3-config:python3-dev clang-format:clang-format sqlite3:sqlite3; do
        command -v "${cp%%:*}" >/dev/null 2>&1 || missing+=("${cp#*:}")
    done
    # the PostgreSQL server (web_postgres.sh): initdb is not on PATH
    initdb=(/usr/lib/postgresql/*/bin/initdb)
    [ -x "${initdb[0]}" ] || command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
else
    for p in gcc clang libclang-rt-dev make pkg-config libmicrohttpd-dev libcjson-dev \
        libsodium-dev libsqlite3-dev libpq-dev curl; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: need root to install ${missing[*]} (or install them yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
