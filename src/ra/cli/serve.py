"""``ra serve``: the game server for playing Ra in the browser with friends."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer

from ra.bots.advisor import HINT_BUDGET
from ra.cli.common import HELP, budget_error, error_text, fail, w


def default_db() -> str:
    """A SQLite file in the user's data folder (nothing to install)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('ra', appauthor=False)) / 'ra.db'}"


def serve_command(
    host: Annotated[str, typer.Option(help=HELP("cli.serve.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=HELP("cli.serve.port"))] = 8000,
    db: Annotated[str | None, typer.Option(help=HELP("cli.serve.db"))] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, help=HELP("cli.serve.workers"))] = 1,
    bot_processes: Annotated[
        int | None, typer.Option(min=1, max=64, help=HELP("cli.serve.bot_processes"))
    ] = None,
    bot_backend: Annotated[str, typer.Option(help=HELP("cli.serve.bot_backend"))] = "process",
    ray_address: Annotated[str | None, typer.Option(help=HELP("cli.serve.ray_address"))] = None,
    hint_budget: Annotated[
        str, typer.Option(envvar="RA_HINT_BUDGET", help=HELP("cli.serve.hint_budget"))
    ] = HINT_BUDGET,
    analysis_budget: Annotated[
        str, typer.Option(envvar="RA_ANALYSIS_BUDGET", help=HELP("cli.serve.analysis_budget"))
    ] = "hard",
    smtp: Annotated[str | None, typer.Option(envvar="RA_SMTP_URL", help=HELP("cli.serve.smtp"))] = None,
    public_url: Annotated[
        str | None, typer.Option(envvar="RA_PUBLIC_URL", help=HELP("cli.serve.public_url"))
    ] = None,
    log_level: Annotated[str, typer.Option(help=HELP("cli.serve.log_level"))] = "info",
    log_format: Annotated[str, typer.Option(help=HELP("cli.serve.log_format"))] = "text",
    forwarded_allow_ips: Annotated[str, typer.Option(help=HELP("cli.serve.forwarded"))] = "",
    metrics_from: Annotated[str, typer.Option(help=HELP("cli.serve.metrics_from"))] = "127.0.0.1,::1",
    allowed_origin: Annotated[list[str] | None, typer.Option(help=HELP("cli.serve.allowed_origin"))] = None,
    allowed_host: Annotated[list[str] | None, typer.Option(help=HELP("cli.serve.allowed_host"))] = None,
) -> None:
    """Serve the lobby and the game tables: play Ra in the browser with friends and bots."""
    uvicorn = import_web()
    url = db or default_db()
    check_database(url, workers)
    check_logging(log_level, log_format, forwarded_allow_ips, metrics_from)
    check_bot_backend(bot_backend, ray_address)
    check_budgets(hint_budget, analysis_budget)
    problem = _port_problem(host, port)
    if problem:
        raise fail(w()("serve.err.listen", host=host, port=port, why=problem)) from None
    check_mail(smtp, public_url)
    upgrade_database(url)
    warning = connections_warning(url, workers)
    if warning:
        typer.echo(warning, err=True)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    os.environ.update(
        RA_DB_URL=url,
        RA_BOT_PROCESSES=str(bot_processes or len(os.sched_getaffinity(0))),
        RA_HINT_BUDGET=hint_budget,
        RA_ANALYSIS_BUDGET=analysis_budget,
        RA_SMTP_URL=smtp or "",
        RA_PUBLIC_URL=public_url or f"http://{shown}:{port}",
        RA_BOT_BACKEND=bot_backend,
        RA_RAY_ADDRESS=ray_address or "",
    )
    export_network(host, forwarded_allow_ips, metrics_from, allowed_origin or [], allowed_host or [])
    if log_format == "text":  # in JSON, uvicorn's own first lines say where it listens
        typer.echo(w()("serve.started", address=f"http://{shown}:{port}/", db=_safe(url)))
    if host in ("0.0.0.0", "::") and not allowed_host and log_format == "text":
        typer.echo(w()("serve.other_machines", example="--allowed-host 192.168.1.20"))
    shared = _metrics_folder(workers)
    try:
        _run(uvicorn, host, port, workers, log_level, log_format)
    finally:
        if shared is not None:
            shutil.rmtree(shared, ignore_errors=True)


def import_web() -> ModuleType:
    """uvicorn and the server's modules, or a clear error naming the ``[web]`` extra."""
    try:
        import uvicorn

        import ra.web.app  # noqa: F401 - everything the workers import, checked here
    except ImportError as err:
        missing = err.name or str(err).splitlines()[0]
        raise fail(w()("cli.err.web_extra", command="ra serve", missing=missing)) from None
    return uvicorn


def check_database(url: str, workers: int) -> None:
    """Refuse a database address that cannot work, or several workers on one SQLite file."""
    from ra.web import db as database

    try:
        database.check_url(url)
    except ValueError as err:
        raise fail(error_text(err)) from None
    if workers > 1 and database.is_sqlite(url):
        raise fail(w()("serve.err.workers")) from None


def upgrade_database(url: str) -> None:
    """Bring the database's tables up to date (Alembic), or say why it cannot be reached."""
    from ra.web import db as database

    try:
        database.upgrade(url)
    except Exception as err:
        reason = str(getattr(err, "orig", None) or err).strip().splitlines()[0]
        raise fail(w()("cli.err.database", url=_safe(url), why=reason)) from None


def connections_warning(url: str, workers: int) -> str | None:
    """What to tell the operator when PostgreSQL allows fewer connections than these workers may
    keep (:data:`ra.web.store.games.WORKER_CONNECTIONS` each); a warning, not a refusal: the
    pools open connections only as the load asks. None when there is room, or nothing to ask."""
    from ra.web import db as database
    from ra.web.store.games import WORKER_CONNECTIONS

    try:
        limits = database.connection_limits(url)
    except Exception:  # the server then says what is wrong with its database itself
        return None
    needed = workers * WORKER_CONNECTIONS
    if limits is None or needed <= limits[1]:
        return None
    most, room = limits
    enough = -(-(most + needed - room + 10) // 50) * 50  # a round number, with ten to spare
    return w()(
        "serve.connections", room=room, workers=workers, needed=needed, each=WORKER_CONNECTIONS, enough=enough
    )


def check_logging(log_level: str, log_format: str, forwarded_allow_ips: str, metrics_from: str) -> None:
    """Refuse an unknown log level or format, or a network list that does not parse."""
    from ra.web.security import LOG_FORMATS, parse_networks

    levels = ("critical", "error", "warning", "info", "debug")  # uvicorn's, which the error lists
    if log_level not in levels:
        raise fail(w()("serve.err.log_level", level=repr(log_level), levels=", ".join(levels)))
    if log_format not in LOG_FORMATS:
        raise fail(w()("serve.err.log_format", format=repr(log_format), formats=", ".join(LOG_FORMATS)))
    for option, value in (("--forwarded-allow-ips", forwarded_allow_ips), ("--metrics-from", metrics_from)):
        try:
            parse_networks(value)
        except ValueError as err:
            raise fail(f"{option}: {error_text(err)}") from None


def check_bot_backend(bot_backend: str, ray_address: str | None) -> None:
    """Refuse an unknown bot backend, an address without Ray, or a Ray cluster out of reach."""
    if bot_backend not in ("process", "ray"):
        raise fail(w()("cli.err.backend", option="--bot-backend", backend=repr(bot_backend))) from None
    if ray_address is not None and bot_backend != "ray":
        raise fail(w()("cli.err.address", option="--ray-address", backend="--bot-backend")) from None
    if bot_backend == "ray":
        from ra.arena.ray_backend import check_reachable
        from ra.web.ray_bots import check_ray

        try:
            check_ray()
            if ray_address:
                check_reachable(ray_address)
        except (ValueError, ConnectionError) as err:
            raise fail(error_text(err)) from None


def check_budgets(hint_budget: str, analysis_budget: str) -> None:
    """Refuse a hint or analysis budget that is neither a level nor a number of iterations or seconds."""
    from ra.bots.evaluate import Budget

    for option, value in (("--hint-budget", hint_budget), ("--analysis-budget", analysis_budget)):
        try:
            Budget.parse(value)
        except ValueError:
            raise budget_error(option, value) from None


def check_mail(smtp: str | None, public_url: str | None) -> None:
    """Refuse a mail server address or a public address that does not parse."""
    if smtp:
        from ra.web.mail import parse_smtp

        try:
            parse_smtp(smtp)
        except ValueError as err:
            raise fail(f"--smtp: {error_text(err)}") from None
    if public_url and not public_url.startswith(("http://", "https://")):
        raise fail(w()("serve.err.public_url", url=repr(public_url)))


def export_network(
    host: str, forwarded_allow_ips: str, metrics_from: str, allowed_origin: list[str], allowed_host: list[str]
) -> None:
    """Hand the network settings to the workers (new processes) through the environment."""
    from ra.web.security import allowed_hosts, parse_networks

    os.environ["RA_FORWARDED_ALLOW_IPS"] = ",".join(str(n) for n in parse_networks(forwarded_allow_ips))
    os.environ["RA_METRICS_FROM"] = ",".join(str(n) for n in parse_networks(metrics_from))
    os.environ["RA_ALLOWED_ORIGINS"] = " ".join(allowed_origin)
    os.environ["RA_ALLOWED_HOSTS"] = " ".join(allowed_hosts(host, allowed_host))


def _metrics_folder(workers: int) -> str | None:
    """With several workers, a fresh folder where they share their /metrics numbers."""
    from ra.web.metrics import MULTIPROCESS_ENV

    os.environ.pop(MULTIPROCESS_ENV, None)
    if workers == 1:
        return None
    folder = tempfile.mkdtemp(prefix="ra-metrics-")
    os.environ[MULTIPROCESS_ENV] = folder  # the workers are new processes: they read it on import
    return folder


def _run(uvicorn: ModuleType, host: str, port: int, workers: int, log_level: str, log_format: str) -> None:
    from ra.web.security import log_config

    uvicorn.run(
        "ra.web.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        log_config=log_config(log_level, log_format),
        # The app believes X-Forwarded-For only from --forwarded-allow-ips (ra.web.security.client_address);
        # uvicorn's own would trust 127.0.0.1 by default.
        proxy_headers=False,
        ws_max_size=16 * 1024,
        # A state message is a few KiB a move: compressing it costs more CPU than it saves.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=3,
        access_log=log_level == "debug",
    )


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _port_problem(host: str, port: int) -> str | None:
    """Why the address cannot be listened on (in use, no such address), or None."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as err:
        return w()("serve.err.unknown_host", why=str(err.strerror))
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as err:
            return w()("serve.err.port_in_use") if err.errno == 98 else str(err.strerror)
    return None
