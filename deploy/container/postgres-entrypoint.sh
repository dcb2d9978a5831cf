#!/bin/sh
# Entry point of the test's PostgreSQL stand-in (test-services.sh): like the official image, a
# first start makes the cluster in $PGDATA with POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB,
# password authentication from other hosts; then PostgreSQL runs as the postgres user.
set -eu
if [ "${1:-}" != postgres ]; then exec "$@"; fi
shift
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
USER_NAME="${POSTGRES_USER:-postgres}"
DB_NAME="${POSTGRES_DB:-$USER_NAME}"
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  PWFILE="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" > "$PWFILE"
  chown postgres "$PWFILE"
  as_postgres initdb -D "$PGDATA" -U "$USER_NAME" --pwfile="$PWFILE" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$PWFILE"
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "$DB_NAME" != postgres ]; then
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres psql -q -U "$USER_NAME" -d postgres -c "CREATE DATABASE \"$DB_NAME\""
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
