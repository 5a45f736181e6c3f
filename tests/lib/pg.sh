# shellcheck shell=bash disable=SC2034 # (sets variables for the scripts that source it)
# tests/lib/pg.sh - a throw-away PostgreSQL cluster for the scripts that run
# `menagerie serve --db postgres://...` (tests/scripts/web_postgres.sh,
# tools/loadtest_pg.sh). pg_start DIR makes and starts one under DIR (initdb,
# pg_ctl; as root it runs as nobody), on a unix socket there with a database
# "menagerie", and sets PGBIN and PGURL; pg_stop stops it. PostgreSQL is installed
# with apt-get when root and missing; pg_start returns 2 when it is not there.

pg_bin() { find /usr/lib/postgresql/*/bin -maxdepth 1 -name initdb 2> /dev/null | sort -V | tail -1 | xargs -r dirname; }

pg_start() { # pg_start DIR [POSTGRES-OPTIONS]: 0 started, 1 failed (why on stdout), 2 none
    PGDIR=$1
    local opts=${2:-}
    PGBIN=$(pg_bin)
    if [ -z "$PGBIN" ] && [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql > /dev/null 2>&1
        PGBIN=$(pg_bin)
    fi
    [ -n "$PGBIN" ] || return 2
    mkdir -p "$PGDIR"
    PGAS=()
    if [ "$(id -u)" -eq 0 ]; then # the server refuses to run as root
        chmod 755 "$(dirname "$PGDIR")"
        chown nobody "$PGDIR"
        PGAS=(runuser -u nobody --)
    fi
    if ! "${PGAS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U menagerie --auth=trust -E UTF8 > "$PGDIR/initdb.log" 2>&1; then
        echo "initdb: $(tail -3 "$PGDIR/initdb.log")"
        return 1
    fi
    # shellcheck disable=SC2086 # opts are words
    if ! "${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 \
        -o "-k $PGDIR -c listen_addresses='' $opts" start > /dev/null 2>&1; then
        echo "the cluster did not start: $(tail -3 "$PGDIR/log")"
        return 1
    fi
    "${PGAS[@]}" "$PGBIN/createdb" -h "$PGDIR" -U menagerie menagerie || return 1
    PGURL="postgres://menagerie@/menagerie?host=$PGDIR"
}

pg_stop() {
    [ -n "${PGDIR:-}" ] && [ -f "$PGDIR/data/postmaster.pid" ] &&
        "${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop > /dev/null 2>&1
    return 0
}
