#!/usr/bin/env bash
# Install and start a local PostgreSQL 15 for the web tests; a role ra/ra that may create databases.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 30); do
  su postgres -c "psql -qAtc 'SELECT 1'" >/dev/null 2>&1 && break
  sleep 1
done
# The suite runs several servers against this one PostgreSQL at once (two-worker tests, soaks,
# whole events), each with a pool of up to 30 connections: the default 100 ran out in CI (a
# burst test's creations got "remaining connection slots are reserved").
if [ "$(su postgres -c "psql -qAtc 'SHOW max_connections'")" -lt 400 ]; then
  su postgres -c "psql -qAtc 'ALTER SYSTEM SET max_connections = 400'" >/dev/null
  pg_ctlcluster "$version" main restart
  for _ in $(seq 30); do
    su postgres -c "psql -qAtc 'SELECT 1'" >/dev/null 2>&1 && break
    sleep 1
  done
fi
su postgres -c "psql -qAtc \"SELECT 1 FROM pg_roles WHERE rolname='ra'\"" | grep -q 1 \
  || su postgres -c "psql -qc \"CREATE ROLE ra LOGIN PASSWORD 'ra' CREATEDB\""
echo "PostgreSQL $version is up (role ra)"
