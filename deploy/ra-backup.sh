#!/bin/sh
# An online backup of ra serve's SQLite database (docs/hosting.md): a consistent copy taken
# while the server runs (SQLite's backup API), checked, then copies older than 14 days removed.
# Usage: ra-backup.sh [DATABASE] [FOLDER]   (defaults: /var/lib/ra/ra.db /var/backups/ra)
set -eu
db=${1:-/var/lib/ra/ra.db}
folder=${2:-/var/backups/ra}
mkdir -p "$folder"
copy="$folder/ra-$(date -u +%Y%m%dT%H%M%SZ).db"
python3 - "$db" "$copy" <<'PY'
import sqlite3
import sys

source, target = sys.argv[1], sys.argv[2]
with sqlite3.connect(f"file:{source}?mode=rw", uri=True) as src, sqlite3.connect(target) as dst:
    src.backup(dst)
    status = dst.execute("PRAGMA integrity_check").fetchone()[0]
if status != "ok":
    sys.exit(f"ra-backup: the copy {target} failed its integrity check: {status}")
PY
find "$folder" -name 'ra-*.db' -mtime +14 -delete
echo "$copy"
