"""Running ``ra serve`` for a club (issue 25): behind a real nginx with the shipped configuration
(a game played through it, WebSockets included), the client's address from trusted proxies only,
``/metrics`` for the operator, and JSON logs."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ra.web.testing import Server, free_port
from tests.web.client import Player, create, over
from tests.web.test_server import connect, play

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install -y nginx)")
pytestmark = pytest.mark.slow  # servers and a proxy started per test


def metric(text: str, name: str) -> float:
    """The value of one sample line of the Prometheus text (``name`` with its labels)."""
    found = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.M)
    assert found, f"{name} not in:\n{text}"
    return float(found.group(1))


def via(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (all of 127.0.0.0/8 is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


@pytest.fixture
def proxied(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> Iterator[tuple[Server, str]]:
    """``ra serve`` trusting 127.0.0.1, behind nginx on its own port with deploy/nginx's rules."""
    srv = server_factory(
        sqlite_url, tmp_path / "server.log", args=("--forwarded-allow-ips", "127.0.0.1")
    ).start()
    port = free_port()
    conf = tmp_path / "nginx.conf"
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(
        f"""{user}daemon off;
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log {tmp_path}/nginx-access.log;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    include {DEPLOY}/nginx/ra-upgrade.conf;
    upstream ra_backend {{ server 127.0.0.1:{srv.port}; }}
    server {{
        listen 127.0.0.1:{port};
        include {DEPLOY}/nginx/ra-locations.conf;
    }}
}}
"""
    )
    assert NGINX is not None
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(conf)], stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "nginx exited"
        assert time.monotonic() < deadline, "nginx did not answer"
        time.sleep(0.1)
    try:
        yield srv, base
    finally:
        proc.terminate()
        proc.wait(10)


@needs_nginx
def test_a_game_played_through_nginx(proxied: tuple[Server, str]) -> None:
    _, base = proxied
    made = create(base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    gid = made["game"]["id"]

    async def main() -> None:
        ann = Player(base.replace("http", "ws"), gid, made["token"], seed=3)
        spectator = Player(base.replace("http", "ws"), gid, None)
        await connect(ann, spectator)
        await asyncio.gather(play([ann]), spectator.until(over, timeout=120))
        await ann.close()
        await spectator.close()

    asyncio.run(main())
    assert httpx.get(f"{base}/api/games/{gid}").json()["status"] == "finished"
    page = httpx.get(base + "/g/" + gid)  # the pages and their static files through the proxy too
    build = re.search(r'src="(/static/[0-9a-f]{12}/table\.js)"', page.text)
    assert build and httpx.get(base + build.group(1)).status_code == 200
    assert httpx.get(base + "/metrics").status_code == 404  # not published through the proxy


@needs_nginx
def test_the_client_address_comes_from_trusted_proxies_only(
    proxied: tuple[Server, str], sqlite_url: str
) -> None:
    srv, base = proxied
    # Through nginx from 127.0.0.2: ra serve sees 127.0.0.2 (nginx's X-Forwarded-For), even when
    # the client sends a forged header of its own (nginx overwrites it).
    with via("127.0.0.2") as client:
        r = client.post(
            base + "/api/games",
            json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}], "name": "Ann"},
            headers={"X-Forwarded-For": "198.51.100.9"},
        )
    assert r.status_code == 200, r.text
    gid = r.json()["game"]["id"]
    db = sqlite_url.split("///", 1)[1]
    with sqlite3.connect(db) as conn:
        (addr,) = conn.execute("SELECT creator_addr FROM games WHERE id = ?", (gid,)).fetchone()
    assert addr == "127.0.0.2"
    # Straight to ra serve from an untrusted peer, a forged X-Forwarded-For is ignored: /metrics
    # (for 127.0.0.1 only) stays closed to 127.0.0.2 claiming to be 127.0.0.1 ...
    with via("127.0.0.2") as client:
        forged = client.get(srv.url + "/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
    assert forged.status_code == 403
    # ... while 127.0.0.1 itself reads it.
    assert httpx.get(srv.url + "/metrics").status_code == 200


def test_metrics_count_what_the_server_does(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "server.log").start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "bot", "level": "medium"}])
    gid = made["game"]["id"]

    async def main() -> None:
        ann = Player(srv.ws, gid, made["token"], seed=5)
        await connect(ann)
        r = httpx.get(srv.url + "/metrics")
        assert metric(r.text, "ra_websocket_connections") == 1
        await ann.send({"type": "action", "action": "pass", "n": ann.state["n"] if ann.state else 0})
        await ann.until(lambda m: m["type"] == "error")
        await play([ann])
        await ann.close()

    asyncio.run(main())
    r = httpx.get(srv.url + "/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    decisions = len(httpx.get(f"{srv.url}/api/games/{gid}/record").json()["decisions"])
    assert metric(text, "ra_decisions_total") == decisions
    assert metric(text, "ra_decision_seconds_count") == decisions
    assert metric(text, "ra_bot_think_seconds_count") > 0
    errors = re.findall(r'^ra_errors_total\{code="(\w+)"\} ([0-9.]+)$', text, re.M)
    assert errors and sum(float(n) for _, n in errors) >= 1, text  # the refused "pass", by its code
    assert metric(text, 'ra_games{status="finished"}') == 1
    assert metric(text, "ra_websocket_connections") == 0
    assert "ra_bot_queue" in text and "ra_hint_requests_total" in text


def test_metrics_only_for_the_allowed_addresses(
    server_factory: type[Server], sqlite_url: str, tmp_path: Path
) -> None:
    srv = server_factory(sqlite_url, tmp_path / "server.log", args=("--metrics-from", "10.0.0.0/8")).start()
    r = httpx.get(srv.url + "/metrics")
    assert r.status_code == 403 and "--metrics-from" in r.json()["message"]


def test_json_logs_one_object_a_line(server_factory: type[Server], sqlite_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    srv = server_factory(sqlite_url, log, args=("--log-format", "json"), log_level="info").start()
    made = create(srv.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    httpx.get(f"{srv.url}/g/{made['game']['id']}")
    srv.stop()
    lines = [line for line in log.read_text().splitlines() if line.strip().startswith("{")]
    assert lines, log.read_text()
    for line in lines:
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= entry.keys()
    assert made["token"] not in log.read_text()  # tokens stay out of the logs in JSON too


@needs_nginx
def test_the_shipped_tls_configuration_is_valid_nginx(tmp_path: Path) -> None:
    # deploy/nginx/ra.conf as an operator installs it, with a throwaway certificate.
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=ra.example.org",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    site = (DEPLOY / "nginx" / "ra.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/ra.example.org/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/ra.example.org/privkey.pem", str(key))
    site = site.replace("/etc/nginx/snippets/", f"{DEPLOY}/nginx/")
    site = re.sub(r"listen (\[::\]:)?(80|443)", lambda m: f"listen {m.group(1) or ''}{free_port()}", site)
    (tmp_path / "site.conf").write_text(site)
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{ access_log off; include {tmp_path}/site.conf; }}\n"
    )
    assert NGINX is not None
    test = [NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)]
    done = subprocess.run(test, check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
