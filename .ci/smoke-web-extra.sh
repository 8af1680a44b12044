#!/usr/bin/env bash
# `ra serve` with only the [web] extra (what docs/getting-started.md installs for the browser):
# check that it starts and answers (the test extra pulls in more, which could hide a missing one).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d)/venv
python3 -m venv "$venv"
"$venv/bin/pip" install -q -e '.[web]' 2>"$(dirname "$venv")/pip.log" || { cat "$(dirname "$venv")/pip.log"; exit 1; }
home=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOME="$home" "$venv/bin/ra" serve --port "$port" > "$home/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
if python3 - "$port" <<'PY'
import sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(60):
    try:
        ok = urllib.request.urlopen(base + "/health", timeout=2).status == 200
        page = urllib.request.urlopen(base + "/", timeout=2).read().decode()
        metrics = urllib.request.urlopen(base + "/metrics", timeout=2).read().decode()
        sys.exit(0 if ok and "<html" in page.lower() and "ra_games" in metrics else 1)
    except OSError:
        time.sleep(1)
sys.exit(1)
PY
then
  echo "smoke: ra serve with only the [web] extra answers"
  exit 0
fi
cat "$home/serve.log"
echo "smoke: ra serve with only the [web] extra did not start" >&2
exit 1
