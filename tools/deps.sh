#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when missing.
set -eu
need=(gcc clang libclang-rt-dev make pkg-config libmicrohttpd-dev libcjson-dev curl)
missing=()
for p in "${need[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: need root to install ${missing[*]} (or install them yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
