"""Hosting ``ra serve`` for a club (docs/hosting.md): a real nginx with the shipped
configuration (deploy/nginx/ra.conf) in front of a real server, TLS and WebSockets included;
the client's address from a trusted proxy only; ``/metrics``; JSON logs; online backups."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sqlite3
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from starlette.requests import Request
from websockets.typing import Origin

from ra.web.metrics import CONTENT_TYPE
from ra.web.routes.site import metrics_allowed
from ra.web.security import JsonLines, address_in, log_config, parse_networks
from ra.web.testing import Server, free_port
from tests.web.client import Player, create
from tests.web.test_server import play

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx" / "ra.conf"
CADDYFILE = ROOT / "deploy" / "caddy" / "Caddyfile"
UNIT = ROOT / "deploy" / "ra.service"
BACKUP = ROOT / "deploy" / "ra-backup.sh"
CLIENT = "127.0.0.2"
"""The club member's machine: loopback, but not the address nginx or the tests' own requests use."""
OTHER_CLIENT = "127.0.0.3"
STRANGER = "127.0.0.5"
"""A peer that reaches ``ra serve`` directly, not through the proxy (so is not trusted)."""


def _need(tool: str) -> str:
    path = shutil.which(tool) or (f"/usr/sbin/{tool}" if Path(f"/usr/sbin/{tool}").exists() else None)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is not installed in CI (.ci/run installs it)")
        pytest.skip(f"{tool} is not installed (apt-get install {tool})")
    return path


def nginx_site(https_port: int, http_port: int, upstream: int, cert: Path, key: Path) -> str:
    """deploy/nginx/ra.conf with this test's ports and certificate (everything else as shipped)."""
    text = NGINX_CONF.read_text()
    for old, new in {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        "/etc/letsencrypt/live/ra.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/ra.example.org/privkey.pem": str(key),
    }.items():
        assert text.count(old) == 1, f"deploy/nginx/ra.conf no longer has {old!r} (the test templates it)"
        text = text.replace(old, new)
    return text


def self_signed(cert: Path, key: Path) -> None:
    """A certificate for 127.0.0.1 valid for a day (the proxies' TLS in these tests)."""
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")
    files = ("-keyout", str(key), "-out", str(cert))
    subprocess.run(
        [_need("openssl"), "req", "-x509", *curve, "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", *files],
        check=True,
        capture_output=True,
    )


class Nginx:
    """Debian's nginx in the foreground, its files in ``root``, serving deploy/nginx/ra.conf."""

    def __init__(self, binary: str, root: Path, upstream: int) -> None:
        self.binary, self.root = binary, root
        self.https_port, self.http_port = free_port(), free_port()
        cert, key = root / "cert.pem", root / "key.pem"
        self_signed(cert, key)
        (root / "ra.conf").write_text(nginx_site(self.https_port, self.http_port, upstream, cert, key))
        temp = "\n".join(
            f"    {k}_temp_path {root / k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (root / "nginx.conf").write_text(
            f"""daemon off;
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {root / "nginx.pid"};
error_log {root / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    access_log {root / "access.log"};
{temp}
    include {root / "ra.conf"};
}}
"""
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def start(self) -> Nginx:
        args = [
            self.binary,
            "-p",
            str(self.root),
            "-c",
            str(self.root / "nginx.conf"),
            "-e",
            str(self.root / "error.log"),
        ]
        check = subprocess.run([*args, "-t"], capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stderr
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (self.root / "error.log").read_text()
            try:
                httpx.get(self.url + "/health", verify=False, timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not answer within 20 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Caddy:
    """Debian's caddy in the foreground serving deploy/caddy/Caddyfile, on this test's port with
    its own local certificate authority (``tls internal``) and no admin endpoint."""

    def __init__(self, binary: str, root: Path, upstream: int) -> None:
        self.binary, self.root, self.port = binary, root, free_port()
        text = CADDYFILE.read_text()
        for old, new in {
            "ra.example.org {": f"https://127.0.0.1:{self.port} {{\n\ttls internal",
            "reverse_proxy 127.0.0.1:8000": f"reverse_proxy 127.0.0.1:{upstream}",
        }.items():
            assert text.count(old) == 1, (
                f"deploy/caddy/Caddyfile no longer has {old!r} (the test templates it)"
            )
            text = text.replace(old, new)
        options = "{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n}\n"
        (root / "Caddyfile").write_text(options + text)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> Caddy:
        env = {
            **os.environ,
            "XDG_DATA_HOME": str(self.root / "data"),
            "XDG_CONFIG_HOME": str(self.root / "cfg"),
        }
        cmd = [self.binary, "run", "--adapter", "caddyfile", "--config", str(self.root / "Caddyfile")]
        log = open(self.root / "caddy.log", "ab")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (self.root / "caddy.log").read_text()[-2000:]
            try:
                if httpx.get(self.url + "/health", verify=False, timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("caddy did not answer within 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def client_from(address: str) -> httpx.Client:
    """HTTP from ``address`` (a loopback address of its own), trusting the test's certificate."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address, verify=False), timeout=10)


class PlayerFrom(Player):
    """A WebSocket player connecting from ``address``, through TLS with the test's certificate."""

    def __init__(self, ws_base: str, game_id: str, token: str | None, address: str) -> None:
        super().__init__(ws_base, game_id, token, seed=7)
        self.address = address

    async def connect_raw(self) -> None:
        tls = ssl.create_default_context()
        tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
        self.ws = await websockets.connect(
            self.url,
            ssl=tls,
            local_addr=(self.address, 0),
            origin=Origin(self.url.split("/ws/")[0].replace("wss://", "https://")),
        )


def creators(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT creator_addr FROM games ORDER BY created_at")]


def metrics(
    server: Server, headers: dict[str, str] | None = None
) -> dict[tuple[str, tuple[str, ...]], float]:
    """``/metrics`` asked directly from the machine: each sample's value by name and labels."""
    r = httpx.get(server.url + "/metrics", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == CONTENT_TYPE  # the text format
    return {
        (s.name, tuple(f"{k}={v}" for k, v in sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


@pytest.fixture
def nginx_binary() -> str:
    return _need("nginx")


@pytest.fixture
def behind_nginx(
    server_factory: type[Server], tmp_path: Path, nginx_binary: str
) -> Iterator[tuple[Server, Nginx]]:
    """``ra serve --forwarded-allow-ips 127.0.0.1`` (one open game an address) behind nginx."""
    server = server_factory(
        f"sqlite:///{tmp_path / 'ra.db'}",
        tmp_path / "server.log",
        env={"RA_MAX_OPEN_GAMES": "1"},
        args=("--forwarded-allow-ips", "127.0.0.1"),
    ).start()
    (tmp_path / "nginx").mkdir()
    proxy = Nginx(nginx_binary, tmp_path / "nginx", server.port).start()
    yield server, proxy
    proxy.stop()


def test_a_game_is_played_through_nginx_with_the_clients_own_address(
    behind_nginx: tuple[Server, Nginx], tmp_path: Path
) -> None:
    server, proxy = behind_nginx
    db = tmp_path / "ra.db"
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "greedy"}]
    with client_from(CLIENT) as ann:
        plain = ann.get(f"http://127.0.0.1:{proxy.http_port}/rules")
        assert plain.status_code == 301 and plain.headers["location"] == "https://127.0.0.1/rules"
        assert ann.get(proxy.url + "/").status_code == 200
        # A claim in the request's own X-Forwarded-For is replaced by nginx with the peer's address.
        r = ann.post(
            proxy.url + "/api/games",
            json={"seats": seats, "name": "Ann", "bot_delay": 0, "hints": True},
            headers={"X-Forwarded-For": "203.0.113.9"},
        )
        assert r.status_code == 200, r.text
        made = r.json()
        assert creators(db) == [CLIENT]
        # The per-address limit (one game here) counts Ann's games, not everyone's behind the proxy.
        again = ann.post(proxy.url + "/api/games", json={"seats": [{"kind": "human"}] * 2, "name": "Ann"})
        assert again.status_code == 429, again.text
    with client_from(OTHER_CLIENT) as bea:
        r = bea.post(proxy.url + "/api/games", json={"seats": [{"kind": "human"}] * 2, "name": "Bea"})
        assert r.status_code == 200, r.text
    # Straight to ra serve from a peer that is no trusted proxy: its X-Forwarded-For is ignored.
    with httpx.Client(transport=httpx.HTTPTransport(local_address=STRANGER), timeout=10) as stranger:
        r = stranger.post(
            server.url + "/api/games",
            json={"seats": [{"kind": "human"}] * 2, "name": "Cy"},
            headers={"X-Forwarded-For": "198.51.100.7, 127.0.0.2"},
        )
        assert r.status_code == 200, r.text
    assert creators(db) == [CLIENT, OTHER_CLIENT, STRANGER]

    async def game() -> None:
        wss = proxy.url.replace("https://", "wss://")
        p = PlayerFrom(wss, made["game"]["id"], made["token"], CLIENT)
        await p.connect()
        state = await p.until(lambda m: m["type"] == "state")
        assert metrics(server)[("ra_websocket_connections", ())] == 1
        await p.send("not json")  # counted as an error
        await p.send({"type": "hint", "n": state["n"]})  # counted, whoever is to move
        await p.until(lambda m: m["type"] in ("hint", "error") and m.get("code") != "bad_message")
        await play([p])
        await p.close()

    asyncio.run(game())
    final = httpx.get(f"{server.url}/api/games/{made['game']['id']}", timeout=10).json()
    assert final["status"] == "finished"

    seen = metrics(server)
    person, bots = seen[("ra_decisions_total", ("by=person",))], seen[("ra_decisions_total", ("by=bot",))]
    assert person >= 1 and bots >= 1 and person + bots == final["decisions"]
    latencies = seen[("ra_decision_latency_seconds_count", ("by=person",))]
    assert latencies == person and seen[("ra_decision_latency_seconds_sum", ("by=person",))] > 0
    assert seen[("ra_hint_requests_total", ())] == 1
    assert seen[("ra_errors_total", ("code=bad_message",))] == 1
    assert seen[("ra_errors_total", ("code=too_many_games",))] == 1  # Ann's second game
    assert seen[("ra_games", ("status=open",))] == 2 and seen[("ra_games", ("status=running",))] == 0
    assert seen[("ra_bot_queue_length", ())] == 0

    # /metrics is not for the world: nginx hides it, and ra serve refuses it through any proxy.
    with client_from(CLIENT) as ann:
        assert ann.get(proxy.url + "/metrics").status_code == 404
    r = httpx.get(server.url + "/metrics", headers={"X-Forwarded-For": "127.0.0.1"}, timeout=10)
    assert r.status_code == 403 and "--metrics-from" in r.json()["message"]

    # docs/hosting.md's online backups, taken while the server runs.
    backups = tmp_path / "backups"
    done = subprocess.run(
        ["sh", str(BACKUP), str(db), str(backups)], capture_output=True, text=True, check=True, timeout=60
    )
    copy = Path(done.stdout.strip())
    assert copy.parent == backups and creators(copy) == [CLIENT, OTHER_CLIENT, STRANGER]
    if shutil.which("sqlite3"):
        cli_copy = tmp_path / "cli-copy.db"
        subprocess.run(["sqlite3", str(db), f".backup '{cli_copy}'"], check=True, timeout=60)
        assert creators(cli_copy) == creators(copy)


def test_caddy_instead_of_nginx_passes_the_client_and_its_websocket(
    server_factory: type[Server], tmp_path: Path
) -> None:
    server = server_factory(
        f"sqlite:///{tmp_path / 'ra.db'}",
        tmp_path / "server.log",
        args=("--forwarded-allow-ips", "127.0.0.1"),
    ).start()
    (tmp_path / "caddy").mkdir()
    proxy = Caddy(_need("caddy"), tmp_path / "caddy", server.port).start()
    try:
        with client_from(CLIENT) as ann:
            r = ann.post(
                proxy.url + "/api/games",
                json={
                    "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                    "name": "Ann",
                    "bot_delay": 0,
                },
                headers={"X-Forwarded-For": "203.0.113.9"},
            )
            assert r.status_code == 200, r.text
            assert ann.get(proxy.url + "/metrics").status_code == 404
        assert creators(tmp_path / "ra.db") == [CLIENT]
        made = r.json()

        async def hello() -> None:
            p = PlayerFrom(proxy.url.replace("https://", "wss://"), made["game"]["id"], made["token"], CLIENT)
            await p.connect()
            state = await p.until(lambda m: m["type"] == "state")
            assert state["view"] is not None
            await p.close()

        asyncio.run(hello())
    finally:
        proxy.stop()


def test_without_forwarded_allow_ips_no_peer_is_trusted(server: Server) -> None:
    # Uvicorn alone would trust 127.0.0.1; ra serve trusts no proxy unless told.
    r = httpx.post(
        server.url + "/api/games",
        json={"seats": [{"kind": "human"}] * 2, "name": "Ann"},
        headers={"X-Forwarded-For": "198.51.100.7"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    db = Path(server.db_url.removeprefix("sqlite:///"))
    assert creators(db) == ["127.0.0.1"]


def test_json_logs_are_one_object_a_line_without_tokens(server_factory: type[Server], tmp_path: Path) -> None:
    log = tmp_path / "json.log"
    s = server_factory(
        f"sqlite:///{tmp_path / 'ra.db'}", log, args=("--log-format", "json"), log_level="debug"
    ).start()
    made = create(s.url, [{"kind": "human"}, {"kind": "human"}])
    httpx.get(s.url + made["link"], timeout=10)  # the seat link, token and all, as a browser opens it

    async def hello() -> None:
        p = Player(s.ws, made["game"]["id"], made["token"])
        await p.connect()
        await p.until(lambda m: m["type"] == "state")
        await p.close()

    asyncio.run(hello())
    s.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert {"time", "level", "logger", "message"} <= set(lines[0])
    assert any(e["logger"] == "uvicorn.access" and "/g/" in e["message"] for e in lines)
    text = log.read_text()
    assert made["token"] not in text and made["token"][:12] not in text
    assert "[redacted]" in text


def test_a_json_line_redacts_a_token_in_a_traceback_too() -> None:
    try:
        raise ValueError("bad hello: {'type': 'hello', 'token': 'abcdef123456'}")
    except ValueError:
        record = logging.LogRecord(
            "ra.web", logging.ERROR, __file__, 1, "token=%s failed", ("zyx987654",), sys.exc_info()
        )
    entry = json.loads(JsonLines().format(record))
    assert entry["level"] == "error" and entry["logger"] == "ra.web"
    assert entry["message"] == "token=[redacted] failed"
    assert "abcdef123456" not in entry["exception"] and "ValueError" in entry["exception"]
    with pytest.raises(ValueError, match="unknown log format 'xml'"):
        log_config("info", "xml")


def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (the systemd package)")
    ra = Path(sys.executable).with_name("ra")
    unit = tmp_path / "ra.service"
    text = UNIT.read_text()
    assert text.count("/opt/ra/venv/bin/ra serve") == 1
    unit.write_text(text.replace("/opt/ra/venv/bin/ra", str(ra)))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr  # an unknown key is only a warning
    line = next(x for x in text.replace("\\\n", " ").splitlines() if x.startswith("ExecStart="))
    args = line.split("ra serve ", 1)[1].split()
    from typer.main import get_command

    from ra.cli import app

    get_command(app).commands["serve"].make_context("ra serve", args)  # type: ignore[attr-defined]


def test_addresses_and_networks_are_parsed_and_matched() -> None:
    nets = parse_networks(" 127.0.0.1, 10.0.0.0/8 ,::1,")
    assert [str(n) for n in nets] == ["127.0.0.1/32", "10.0.0.0/8", "::1/128"]
    assert address_in("10.2.3.4", nets) and address_in("::ffff:127.0.0.1", nets) and address_in("::1", nets)
    assert not address_in("11.0.0.1", nets) and not address_in("unix:/run/ra.sock", nets)
    with pytest.raises(ValueError, match="'nginx' is not an IP address or network"):
        parse_networks("127.0.0.1,nginx")


@pytest.mark.parametrize(
    ("peer", "headers", "allowed"),
    [
        ("127.0.0.1", [], True),
        ("10.0.0.7", [], False),  # not in --metrics-from
        ("127.0.0.1", [(b"x-forwarded-for", b"127.0.0.1")], False),  # through a proxy, whoever it claims
    ],
)
def test_metrics_are_for_the_machine_asking_directly(
    peer: str, headers: list[tuple[bytes, bytes]], allowed: bool
) -> None:
    request = Request({"type": "http", "client": (peer, 5000), "headers": headers, "path": "/metrics"})
    assert metrics_allowed(request, parse_networks("127.0.0.1,::1")) is allowed


def test_metrics_add_up_every_worker(server_factory: type[Server], pg_url: str, tmp_path: Path) -> None:
    s = server_factory(pg_url, tmp_path / "s.log", workers=2).start()
    for _ in range(12):  # each on its own connection, so both workers get some
        assert httpx.post(s.url + "/api/games", json={"seats": []}, timeout=10).status_code == 422
    gid = create(s.url, [{"kind": "human"}, {"kind": "human"}])["game"]["id"]

    async def watch() -> None:
        spectators = [Player(s.ws, gid, None) for _ in range(4)]
        for p in spectators:
            await p.connect()
            await p.until(lambda m: m["type"] == "state")
        for _ in range(6):  # whichever worker answers, it counts them all
            seen = metrics(s)
            assert seen[("ra_errors_total", ("code=bad_request",))] == 12
            assert seen[("ra_websocket_connections", ())] == 4
            assert seen[("ra_games", ("status=open",))] == 1
        for p in spectators:
            await p.close()

    asyncio.run(watch())
