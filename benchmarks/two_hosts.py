"""The soak across two hosts: how the site grows past one machine (issue 40, finding 7).

Two network namespaces stand for two machines, each with its own address (10.231.1.2 and
10.231.2.2, on a veth link to this machine) and its own ``ra serve --workers 2``; one nginx on
this machine spreads the players over both (round robin, WebSockets included: the players of
one table land on different hosts); one PostgreSQL holds the games (each host reaches it through
a socket this script relays to it).  Every ``--kill-every`` seconds host A is killed whole
(SIGKILL to every process in it), its pages reconnect through nginx to host B, and host A is
started again.  The tables and the numbers are ``benchmarks/soak.py``'s.

Needs root (``ip netns``), nginx and PostgreSQL (``bash .ci/postgres.sh`` starts one; the
database is made and dropped here).

    sudo python benchmarks/two_hosts.py --games 200 --parallel 12 --kill-every 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from ra.web.testing import free_port

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("soak", HERE / "soak.py")
assert _spec is not None and _spec.loader is not None
soak = sys.modules["soak"] = importlib.util.module_from_spec(_spec)  # its dataclasses look it up
_spec.loader.exec_module(soak)

HOSTS = {"ra-host-a": "10.231.1", "ra-host-b": "10.231.2"}
"""Each host's namespace and its link's network (this machine is .1, the host .2)."""
PORT = 8000
PG = "postgresql+psycopg://ra:ra@127.0.0.1:5432/{db}"
"""The PostgreSQL that .ci/postgres.sh starts (role ra, password ra)."""


def sh(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True)


@contextlib.contextmanager
def network() -> Iterator[None]:
    """The two hosts' namespaces and links; removed at the end, whatever happened."""
    try:
        for ns, net in HOSTS.items():
            with contextlib.suppress(subprocess.CalledProcessError):
                sh("ip", "netns", "del", ns)
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "add", f"{ns[-1]}-out", "type", "veth", "peer", "name", f"{ns[-1]}-in")
            sh("ip", "link", "set", f"{ns[-1]}-in", "netns", ns)
            sh("ip", "addr", "add", f"{net}.1/24", "dev", f"{ns[-1]}-out")
            sh("ip", "link", "set", f"{ns[-1]}-out", "up")
            sh("ip", "netns", "exec", ns, "ip", "addr", "add", f"{net}.2/24", "dev", f"{ns[-1]}-in")
            sh("ip", "netns", "exec", ns, "ip", "link", "set", f"{ns[-1]}-in", "up")
            sh("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
        yield
    finally:
        for ns in HOSTS:
            kill_host(ns)
            with contextlib.suppress(subprocess.CalledProcessError):
                sh("ip", "link", "del", f"{ns[-1]}-out")
            with contextlib.suppress(subprocess.CalledProcessError):
                sh("ip", "netns", "del", ns)


def kill_host(ns: str) -> None:
    """Every process of the host at once, as a power cut would."""
    found = subprocess.run(["ip", "netns", "pids", ns], check=False, capture_output=True, text=True)
    pids = found.stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


async def relay(socket_dir: Path) -> asyncio.AbstractServer:
    """PostgreSQL for the hosts: its Unix socket (the file system crosses namespaces) relayed to
    this machine's TCP port, so each host connects as to a database on its own machine."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, ConnectionError, asyncio.CancelledError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", 5432)
        except OSError:
            writer.close()
            return
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    return await asyncio.start_unix_server(connect, path=str(socket_dir / ".s.PGSQL.5432"))


class Host:
    """``ra serve --workers 2`` in one namespace, on the shared database."""

    def __init__(self, ns: str, db_url: str, log: Path) -> None:
        self.ns, self.db_url, self.log = ns, db_url, log
        self.address = f"{HOSTS[ns]}.2"

    def start(self) -> Host:
        env = {**os.environ, **soak.SOAK_ENV}
        cmd = ["ip", "netns", "exec", self.ns, sys.executable, "-c", "from ra.cli import main; main()"]
        cmd += ["serve", "--host", self.address, "--port", str(PORT), "--db", self.db_url, "--workers", "2"]
        cmd += ["--allowed-host", "127.0.0.1", "--log-level", "warning"]
        with open(self.log, "ab") as log:
            subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            check = ["ip", "netns", "exec", self.ns, "curl", "-sf", f"http://{self.address}:{PORT}/health"]
            if subprocess.run(check, check=False, capture_output=True).returncode == 0:
                return self
            time.sleep(0.3)
        raise RuntimeError(f"host {self.ns} did not answer within 60 s: {self.log.read_text()[-1500:]}")


class Site:
    """The two hosts behind nginx: what the players reach; a crash takes host A down."""

    def __init__(self, hosts: list[Host], port: int) -> None:
        self.hosts, self.port = hosts, port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill9(self) -> None:
        kill_host(self.hosts[0].ns)

    def start(self) -> Site:
        self.hosts[0].start()
        return self


def nginx_conf(root: Path, port: int) -> str:
    upstreams = "\n".join(f"    server {net}.2:{PORT} max_fails=1 fail_timeout=3s;" for net in HOSTS.values())
    return f"""daemon off;
pid {root / "nginx.pid"};
error_log {root / "error.log"};
events {{ worker_connections 4096; }}
http {{
  log_format hosts '$request_uri $upstream_addr';
  access_log {root / "access.log"} hosts;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream ra_hosts {{
{upstreams}
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://ra_hosts;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $host;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 3600s;
    }}
  }}
}}
"""


def database(name: str, create: bool) -> None:
    import psycopg

    with psycopg.connect(PG.format(db="postgres").replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if create:
            conn.execute(f"CREATE DATABASE {name}")


async def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    name = f"ra_two_hosts_{os.getpid()}"
    database(name, create=True)
    pg_relay = await relay(work)
    db_url = f"postgresql+psycopg://ra:ra@/{name}?host={work}"
    nginx = None
    try:
        with network():
            hosts = [Host(ns, db_url, work / f"{ns}.log") for ns in HOSTS]
            for host in hosts:  # one after the other: the first makes the database's tables
                await asyncio.to_thread(host.start)
            port = free_port()
            (work / "nginx.conf").write_text(nginx_conf(work, port))
            nginx = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf")], stderr=subprocess.DEVNULL)
            await wait_for(f"http://127.0.0.1:{port}/health")
            result: dict[str, Any] = await soak.play_all(Site(hosts, port), args, work)
            result["hosts"] = {h.ns: h.address for h in hosts}
            result["tables_on_both_hosts"] = both_hosts(work / "access.log")
            return result
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        pg_relay.close()
        database(name, create=False)


def both_hosts(access_log: Path) -> str:
    """How many tables had their players' sockets on both hosts (nginx's log of each opening)."""
    seen: dict[str, set[str]] = {}
    for line in access_log.read_text().splitlines():
        uri, _, upstream = line.partition(" ")
        if uri.startswith("/ws/games/"):
            seen.setdefault(uri, set()).update(u.strip().rpartition(":")[0] for u in upstream.split(","))
    return f"{sum(len(h) > 1 for h in seen.values())}/{len(seen)}"


async def wait_for(url: str) -> None:
    async with httpx.AsyncClient(timeout=2) as http:
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(url)).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise RuntimeError(f"{url} did not answer through nginx")


def main(argv: list[str] | None = None) -> int:
    args = soak.options(__doc__.split("\n\n")[0]).parse_args(argv)
    missing = [tool for tool in ("ip", "nginx", "curl") if shutil.which(tool) is None]
    if os.geteuid() != 0 or missing:
        print(f"two_hosts: needs root and {', '.join(missing) or 'ip, nginx, curl'}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="ra-two-hosts-"))
    try:
        result = asyncio.run(run(args, work))
    except (RuntimeError, OSError, subprocess.CalledProcessError) as err:
        print(f"two_hosts: {err}", file=sys.stderr)
        return 2
    status = int(soak.show(result, args))
    if not args.json:
        print(f"tables whose players were on both hosts: {result['tables_on_both_hosts']}")
    return status


if __name__ == "__main__":
    sys.exit(main())
