"""Events on the site (issue 55): create, join, withdraw, start, cancel, remove, and form rounds.

The rules of play are :mod:`ra.tournament`'s (pure: the standings and each round's tables are
functions of the stored results and a stored seed); this service decides who may do what on the
site and the limits, and stores through :class:`ra.web.store.events.EventStorage`
(``store.events``).  Signed-in accounts create and play; guests watch only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from ra.setup import new_seed
from ra.tournament import (
    Bye,
    Entrant,
    FinishedTable,
    Kind,
    Result,
    Round,
    Seat,
    Settings,
    TournamentError,
    is_open,
    pair_round,
    schedule,
    seat_free,
    standings,
)
from ra.tournament.kinds import ROUND_ROBIN_MAX
from ra.web.copies import Copies
from ra.web.db import as_utc, now
from ra.web.event_mail import EventMailer, ReadyGame
from ra.web.lobby import ApiError, Lobby, NewGame, SeatSpec
from ra.web.mail import BY_TURNS_SECONDS
from ra.web.store import hash_token, new_id
from ra.web.store.events import EventLimitError, EventStorage, TableTakenError

log = logging.getLogger("ra.web")

MAX_LIVE_EVENTS = 3
"""How many events one account may have open or running at once."""


def max_event_players(max_open_games: int) -> int:
    """How many players one event holds: a round's tables are made under the lobby's cap on the
    games one creator has waiting or running (``RA_MAX_OPEN_GAMES``, 20 by default), so as many
    players as that many tables of 2 seat (40 by default)."""
    return 2 * max_open_games


MAX_EVENT_PLAYERS = max_event_players(20)
"""The players an event holds with the default cap."""
MIN_EVENT_PLAYERS = 2
"""The fewest players an event starts with."""
VIEW_SECONDS = 2.0
"""How long a worker reuses an event's page data (its pages ask every few seconds each)."""
VIEWS_KEPT = 1000
"""Past this many events' page data kept, the stale ones are dropped."""
SWEEP_SECONDS = 3.0
"""How often each worker looks for events to start and rounds to form (or to finish forming)."""
FORM_LEASE_SECONDS = 5.0
"""How long a worker's claim on forming a round holds unless renewed (each table it makes
renews it): past it, another worker's sweep takes the round over, so a worker that died between
claiming a round and making its games delays the round by seconds, never stops it."""
MAKING_AT_ONCE = 4
"""Tables of one round a worker makes at once (each a transaction on a connection of its pool)."""
ARENA_MINUTES = 7 * 24 * 60
"""The longest arena: a week."""
MOVE_SECONDS = (10, 3 * 24 * 3600)
"""The clock per decision an organiser may choose: 10 s (live) to 3 days (by turns)."""


class NewEvent(BaseModel):
    """What the organiser chooses (docs/online.md, "Events")."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["swiss", "arena", "round-robin"] = "swiss"
    table_size: int = Field(default=3, ge=2, le=5)
    rounds: int = Field(default=4, ge=1, le=100)
    minutes: int = Field(default=60, ge=1, le=ARENA_MINUTES)
    """An arena's length: new games start until it is up (a Swiss event plays its rounds)."""
    bots: bool = False
    """Bots may fill a table's empty seats (they never score in the standings)."""
    byes: bool = False
    """The players a round's tables leave over sit out with a bye (one a player at most)
    instead of playing at a table of another size."""
    move_seconds: int | None = Field(default=None, ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1])
    rated: bool = True
    invitation: bool = False
    start_in: int = Field(default=3600, ge=0, le=30 * 24 * 3600)
    """Seconds from now until the event starts (the organiser may start it earlier)."""


class JoinEvent(BaseModel):
    invite: str | None = None
    """The invitation link's token, for an event by invitation."""


class Events:
    """The events of one site: its rules over the stored rows."""

    def __init__(
        self, store: EventStorage, lobby: Lobby, worker: str, mailer: EventMailer | None = None
    ) -> None:
        self.store, self.lobby, self.worker = store, lobby, worker
        self.mailer = mailer
        self._mailing: set[asyncio.Task[int]] = set()
        self._pages: Copies[dict[str, Any]] = Copies(VIEW_SECONDS, VIEWS_KEPT)
        self.changed: Callable[[str], Awaitable[None]] = _unfollowed
        """Told each change made here (its live pages on every worker: :mod:`ra.web.event_feed`)."""

    async def _changed(self, event_id: str) -> None:
        self.forget(event_id)  # this worker's next read is fresh
        await self.changed(event_id)

    def forget(self, event_id: str) -> None:
        """Drop this worker's copy of the event's page data (changed here, or on another worker:
        its note; a copy kept past a start elsewhere showed the event still open for 2 s)."""
        self._pages.forget(event_id)

    async def create(self, body: NewEvent, organiser: tuple[str, str]) -> dict[str, Any]:
        """A new open event; its invitation token (shown once, stored hashed) when by invitation."""
        name = " ".join(body.name.split())
        if not name:
            raise ApiError(422, "bad_request", "name: give the event a name")
        invite = secrets.token_urlsafe(16) if body.invitation else None
        event_id = new_id()
        values = {
            "id": event_id,
            "name": name,
            "kind": body.kind,
            "table_size": body.table_size,
            "rounds": body.rounds,
            "minutes": body.minutes if body.kind == Kind.ARENA.value else None,
            "bots": body.bots,
            "byes": body.byes,
            "move_seconds": body.move_seconds,
            "rated": body.rated,
            "invite_hash": None if invite is None else hash_token(invite),
            "starts_at": now() + timedelta(seconds=body.start_in),
            "status": "open",
            "organiser_id": organiser[0],
            "organiser_name": organiser[1],
            "seed": new_seed(),
        }
        try:
            await self.store.create(values, MAX_LIVE_EVENTS)
        except EventLimitError:
            raise ApiError(
                429, "event_limit", f"you already run {MAX_LIVE_EVENTS} events: finish or cancel one first"
            ) from None
        return {"event": await self.view(event_id, fresh=True), "invite": invite}

    async def row(self, event_id: str) -> dict[str, Any]:
        row = await self.store.event(event_id)
        if row is None:
            raise ApiError(404, "not_found", f"no event {event_id!r}")
        return row

    async def join(self, event_id: str, body: JoinEvent, account: tuple[str, str]) -> dict[str, Any]:
        """Enter the event, before it starts or while it runs (seated from the next round)."""
        row = await self.row(event_id)
        if row["status"] not in ("open", "running"):
            raise ApiError(409, "event_over", "the event is over: it takes no more players")
        if row["invite_hash"] is not None and (
            body.invite is None or not secrets.compare_digest(hash_token(body.invite), row["invite_hash"])
        ):
            raise ApiError(403, "invitation", "this event is by invitation: open the link its organiser sent")
        if await self._removed(event_id, account[0]):
            raise ApiError(403, "removed", "the organiser removed you from this event")
        fixed_field(row)
        most = (
            ROUND_ROBIN_MAX
            if row["kind"] == Kind.ROUND_ROBIN.value
            else max_event_players(self.lobby.settings.max_open_games_per_addr)
        )
        try:
            await self.store.join(event_id, account[0], account[1], most)
        except EventLimitError:
            raise ApiError(409, "event_full", f"the event is full ({most} players)") from None
        await self._changed(event_id)
        if row["kind"] == Kind.ARENA.value and row["status"] == "running":
            await self._seat_now(event_id)  # an arena seats a player who comes (back) at once
        return await self.view(event_id, fresh=True)

    async def _seat_now(self, event_id: str) -> None:
        """Seat the free players now if they fill a table (the sweep would, within seconds)."""
        try:
            await self.form_round(event_id)
        except ApiError as err:  # a table refused (the lobby's caps): the next sweep tries again
            log.info("event %s: %s", event_id, err.message)

    async def _removed(self, event_id: str, account_id: str) -> bool:
        return any(p["account_id"] == account_id and p["removed"] for p in await self.store.players(event_id))

    async def withdraw(self, event_id: str, account: tuple[str, str]) -> dict[str, Any]:
        """Leave the event: not seated in the rounds formed from now on; the line stays."""
        fixed_field(await self.row(event_id))
        if not await self.store.mark(event_id, account[0], withdrawn=True):
            raise ApiError(409, "not_in_event", "you are not in this event")
        await self._changed(event_id)
        return await self.view(event_id, fresh=True)

    async def remove(self, event_id: str, player: str, account: tuple[str, str]) -> dict[str, Any]:
        """The organiser takes a player out of the event (they may not join again)."""
        fixed_field(await self._organiser(event_id, account))
        if not await self.store.mark(event_id, player, withdrawn=True, removed=True):
            raise ApiError(404, "not_in_event", f"no player {player!r} in this event")
        await self._changed(event_id)
        return await self.view(event_id, fresh=True)

    async def cancel(self, event_id: str, account: tuple[str, str]) -> dict[str, Any]:
        """The organiser calls the event off before it is over."""
        await self._organiser(event_id, account)
        if not await self.store.move(event_id, ("open", "running"), "cancelled"):
            raise ApiError(409, "event_over", "the event is already over")
        await self._changed(event_id)
        return await self.view(event_id, fresh=True)

    async def start(self, event_id: str, account: tuple[str, str]) -> dict[str, Any]:
        """The organiser starts the event now (before its start time): the first round is formed."""
        await self._organiser(event_id, account)
        await self.begin(event_id)
        return await self.view(event_id, fresh=True)

    async def _organiser(self, event_id: str, account: tuple[str, str]) -> dict[str, Any]:
        row = await self.row(event_id)
        if row["organiser_id"] != account[0]:  # by id: a name may change hands after a deletion
            raise ApiError(403, "not_organiser", "only the event's organiser may do that")
        return row

    async def begin(self, event_id: str) -> None:
        """Start an open event with its first round (enough players needed)."""
        active = [p for p in await self.store.players(event_id) if not p["withdrawn"]]
        if len(active) < MIN_EVENT_PLAYERS:
            raise ApiError(409, "too_few", f"an event starts with {MIN_EVENT_PLAYERS} players or more")
        if not await self.store.move(event_id, ("open",), "running", started_at=now()):
            raise ApiError(409, "event_started", "the event has already started or is over")
        await self._changed(event_id)
        await self.form_round(event_id)

    async def form_round(self, event_id: str) -> bool:
        """Form the event's next round once every table of the last one has finished, if this
        worker claims it first (then its games are made); whether it did.  A round claimed but
        not wholly made (its worker died) is finished by the worker that takes its claim over.  A
        Swiss event that has played its rounds (or a round robin with no pairs left) finishes."""
        try:
            return await self._form_round(event_id)
        finally:
            self.forget(event_id)  # its page shows what this worker did at once

    async def _form_round(self, event_id: str) -> bool:
        row = await self.row(event_id)
        if row["status"] != "running":
            return False
        played = await self.store.played(event_id)
        for t in played:  # made, but its worker stopped before starting it
            if t["status"] == "open":
                await self.lobby.maybe_start(t["game_id"])
        unmade = [t for t in played if len(t["players"]) > 1 and t["game_id"] is None]
        if unmade:
            finished = await self._finish_round(row, unmade[0]["round"])
            if finished or row["kind"] != Kind.ARENA.value:
                return finished  # an arena seats its other free players meanwhile (those are busy)
        next_no = max((t["round"] for t in played), default=0) + 1
        players = await self.store.players(event_id)
        seed = (row["seed"] + next_no) % (2**62)
        if row["kind"] == Kind.ARENA.value:
            tables = arena_tables(row, players, played, seed, now())
        elif any(len(t["players"]) > 1 and t["status"] != "finished" for t in played):
            return False  # the round is still being played
        else:
            paired = next_round(row, players, played, next_no, seed)
            tables = None if paired is None else [*paired.tables, *((b,) for b in paired.byes)]
        if tables is None:
            if await self.store.move(event_id, ("running",), "finished"):
                await self._changed(event_id)
            return False
        if not tables:
            return False
        if not await self.store.claim_round(event_id, next_no, seed, self.worker, tables):
            return False
        await self._make_games(row, next_no)
        return True

    async def _finish_round(self, row: dict[str, Any], round_no: int) -> bool:
        """Make the games a round still lacks if this worker takes its claim over from a worker
        that has not renewed it for :data:`FORM_LEASE_SECONDS` (one that died, or whose tables
        the lobby refused); whether it did."""
        if not await self.store.take_over(row["id"], round_no, self.worker, FORM_LEASE_SECONDS):
            return False
        log.warning("event %s: worker %s forms the rest of round %d", row["id"], self.worker, round_no)
        await self._make_games(row, round_no)
        return True

    async def _make_games(self, row: dict[str, Any], round_no: int) -> None:
        """Each table of the round without a game gets one (:func:`make_game`), linked to its
        table in the same transaction, so a worker's death leaves no game without its table;
        :data:`MAKING_AT_ONCE` at a time, not each after every table before it (issue 55)."""
        names = {p["account_id"]: p["name"] for p in await self.store.players(row["id"])}
        tables = [
            t
            for t in await self.store.tables(row["id"])
            if t["round"] == round_no and t["game_id"] is None and len(t["players"]) > 1
        ]
        slots = asyncio.Semaphore(MAKING_AT_ONCE)
        made = await asyncio.gather(
            *(
                make_game(
                    self.lobby,
                    self.store,
                    self.worker,
                    row,
                    (round_no, t["table_no"]),
                    t["players"],
                    names,
                    slots,
                )
                for t in tables
            ),
            return_exceptions=True,
        )
        await self._changed(row["id"])  # its pages see the round at once
        self._mail_ready(row, [r for m in made if isinstance(m, list) for r in m])
        for m in made:
            if isinstance(m, BaseException):
                raise m  # a table refused (a cap on bots): the caller logs it, the sweep tries again

    def _mail_ready(self, row: dict[str, Any], ready: list[ReadyGame]) -> None:
        """In an event by turns, mail the players of the games this worker made (so once: a
        game is made by one worker), in the background: forming never waits on mail."""
        by_turns = row["move_seconds"] is not None and row["move_seconds"] >= BY_TURNS_SECONDS
        if self.mailer is None or not by_turns or not ready:
            return
        task = asyncio.create_task(self.mailer(row["id"], row["name"], ready))
        self._mailing.add(task)
        task.add_done_callback(self._mailing.discard)

    async def game_finished(self, game_id: str) -> None:
        """A game ended: if it was an event's, that event may form its next round."""
        event_id = await self.store.event_of_game(game_id)
        if event_id is None:
            return
        await self._changed(event_id)  # its standings
        try:
            await self.form_round(event_id)
        except ApiError as err:  # a table refused (the lobby's caps): logged, the round stays short
            log.error("event %s: the next round's tables were refused: %s", event_id, err.message)

    async def sweep(self) -> None:
        """Start the events whose start time has come and form any round a missed game end left
        unformed (a worker that stopped between a game's end and the next round): every worker
        sweeps, the claims in the database let one act."""
        for due in await self.store.due():
            try:
                if due["status"] == "open":
                    await self.begin(due["id"])
                else:
                    await self.form_round(due["id"])
            except ApiError as err:  # too few players, or a refused table: the next sweep tries again
                log.info("event %s: %s", due["id"], err.message)

    async def sweeping(self, every: float = SWEEP_SECONDS) -> None:
        """Sweep every few seconds until cancelled (the services' background task)."""
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("the events' sweep failed")
            await asyncio.sleep(every)

    async def view(self, event_id: str, fresh: bool = False) -> dict[str, Any]:
        """The event as its page shows it, worked out at most every :data:`VIEW_SECONDS` on
        this worker however many pages ask (the standings are the costly part; a change made
        here, or a round formed here, is seen at once: ``fresh``, or the copy is dropped)."""
        return await self._pages.get(event_id, lambda: self._view(event_id), fresh)

    async def _view(self, event_id: str) -> dict[str, Any]:
        """The event as its page shows it: settings, players, standings and each round's tables."""
        row = await self.row(event_id)
        players = await self.store.players(event_id)
        return event_page(row, players, await self.store.played(event_id))

    async def listed(self) -> list[dict[str, Any]]:
        """Events open or running, soonest first (the lobby's list)."""
        return [
            {
                "id": r["id"],
                "name": r["name"],
                "kind": r["kind"],
                "status": r["status"],
                "starts_at": _iso(r["starts_at"]),
            }
            for r in await self.store.listed()
        ]


async def _unfollowed(event_id: str) -> None:
    """Nobody follows the events (a service without a site around it)."""


def event_page(
    row: dict[str, Any], players: list[dict[str, Any]], played: list[dict[str, Any]]
) -> dict[str, Any]:
    """The event as its page shows it, from its stored rows: settings, players, the standings
    (ra.tournament's, of the stored results) and each round's tables."""
    names = {p["account_id"]: p["name"] for p in players}
    lines = standings(entrants_of(players), results_of(played), settings_of(row))
    return {
        "id": row["id"],
        "name": row["name"],
        "kind": row["kind"],
        "table_size": row["table_size"],
        "rounds": row["rounds"],
        "minutes": row["minutes"],
        "bots": row["bots"],
        "byes": row["byes"],
        "move_seconds": row["move_seconds"],
        "rated": row["rated"],
        "by_invitation": row["invite_hash"] is not None,
        "starts_at": _iso(row["starts_at"]),
        "started_at": _iso(row["started_at"]),
        "ends_at": _iso(ends_at(row)),
        "status": row["status"],
        "organiser": row["organiser_name"],
        "players": [_player(p) for p in players],
        "standings": [
            {
                "rank": s.rank,
                "player": s.player,
                "name": names[s.player],
                "points": str(s.points),
                "games": s.games,
                "byes": s.byes,
                "missed": s.missed,
                "left": s.left,  # missed twice: out of the event (docs/tournaments.md)
            }
            for s in lines
        ],
        "tables": [
            {"round": t["round"], "table": t["table_no"], "players": t["players"], "game": t["game_id"]}
            for t in played
        ],
    }


def ends_at(row: dict[str, Any]) -> datetime | None:
    """When a running arena stops starting games (None for other kinds, or before the start)."""
    started: datetime | None = as_utc(row["started_at"])
    if row["kind"] != Kind.ARENA.value or started is None:
        return None
    return started + timedelta(minutes=row["minutes"])


async def make_game(
    lobby: Lobby,
    store: EventStorage,
    worker: str,
    row: dict[str, Any],
    at: tuple[int, int],
    table: list[str | None],
    names: dict[str, str],
    slots: asyncio.Semaphore,
) -> list[ReadyGame]:
    """Make and start the game of event ``row``'s table ``at`` (round, table number) through the
    lobby (its checks) and, in the same transaction, link it to its table with its seats given to
    their players' accounts (:meth:`EventStorage.linker`), ``worker`` holding the round's
    claim; its players, to tell (none: another worker took the round over, and makes the rest)."""
    body = NewGame(
        seats=[SeatSpec(kind="human" if p is not None else "bot") for p in table],
        rated=row["rated"],
        move_seconds=row["move_seconds"],
        join=False,
    )
    given = [(i, p, names[p]) for i, p in enumerate(table) if p is not None]
    link = store.linker((row["id"], *at), worker, given)
    try:
        async with slots:
            made = await lobby.create(body, f"event:{row['id']}", then=link, capped=capped(table))
    except TableTakenError:
        return []
    return [ReadyGame(p, made["game"]["id"]) for _, p, _ in given]


def capped(table: Sequence[str | None]) -> bool:
    """Whether making ``table``'s game counts against the lobby's caps on what one creator (here
    the event) has running: only a table with bot seats does (bots cost the site's CPU: the cap
    on bot seats).  A table of people alone is bounded by the event itself — every player at
    one table at a time (a round's claim in the database sees to it), at most
    :func:`max_event_players` players, at most :data:`MAX_LIVE_EVENTS` events an organiser —
    so it is not counted, and its creation takes no lock: the caps' count was one advisory lock
    an event, which made a big arena's tables one at a time across every worker.  A lobby's
    tables keep their caps (issue 52: 60 creations at once pass none)."""
    return None in table


def fixed_field(row: dict[str, Any]) -> None:
    """Refuse a change of players in a running round robin: its schedule was fixed at the start."""
    if row["kind"] == Kind.ROUND_ROBIN.value and row["status"] == "running":
        raise ApiError(409, "round_robin_running", "a round robin's players are fixed once it has started")


def settings_of(row: dict[str, Any]) -> Settings:
    """The tournament rules of a stored event."""
    return Settings(
        kind=Kind(row["kind"]),
        table_size=row["table_size"],
        rounds=row["rounds"],
        minutes=row["minutes"] or 60,
        bots=row["bots"],
        byes=row["byes"],
    )


def entrants_of(players: list[dict[str, Any]]) -> list[Entrant]:
    """The event's players as ra.tournament reads them, with their ratings."""
    return [Entrant(p["account_id"], p["rating"]) for p in players]


def arena_tables(
    row: dict[str, Any], players: list[dict[str, Any]], played: list[dict[str, Any]], seed: int, at: datetime
) -> list[tuple[str | None, ...]] | None:
    """An arena's new tables for its free players (ra.tournament.seat_free: by points and
    rating, the first to come free first), none while too few are free; None once its time is
    up and its last games have finished (the games running at the end still count)."""
    busy = {p for t in played if len(t["players"]) > 1 and t["status"] != "finished" for p in t["players"]}
    started = as_utc(row["started_at"])
    assert started is not None  # a running event has started
    if not is_open(settings_of(row), started, at):
        return [] if busy else None
    came_free = {p["account_id"]: as_utc(p["joined_at"]) for p in players}
    for t in played:
        if t["status"] == "finished":
            came_free.update((p, as_utc(t["ended"])) for p in t["players"] if p is not None)
    free = [
        p["account_id"]
        for p in sorted(players, key=lambda p: (came_free[p["account_id"]], p["joined_at"]))
        if not p["withdrawn"] and p["account_id"] not in busy
    ]
    seating = seat_free(entrants_of(players), results_of(played), settings_of(row), free, seed, started, at)
    return list(seating.tables)


def next_round(
    row: dict[str, Any], players: list[dict[str, Any]], played: list[dict[str, Any]], next_no: int, seed: int
) -> Round | None:
    """Round ``next_no``'s tables, or None when the event has no more: a Swiss round from the
    standings so far (ra.tournament.pair_round, the players who withdrew left out); a round
    robin's from its whole schedule, fixed at the start (ra.tournament.schedule)."""
    settings = settings_of(row)
    try:
        if settings.kind is Kind.ROUND_ROBIN:
            field = entrants_of([p for p in players if not p["withdrawn"]])
            rounds = schedule(field, settings, row["seed"])
            return rounds[next_no - 1] if next_no <= len(rounds) else None
        absent = {p["account_id"] for p in players if p["withdrawn"]}
        return pair_round(entrants_of(players), results_of(played), settings, seed, absent)
    except TournamentError:
        return None


def results_of(played: list[dict[str, Any]]) -> list[Result]:
    """The event's results as ra.tournament reads them: each finished game's seats with their
    final Ra points (R8) and forfeits, and each bye (a table of one)."""
    results: list[Result] = []
    for t in played:
        if len(t["players"]) == 1:
            results.append(Bye(t["round"], t["players"][0]))
        elif t["status"] == "finished" and t["scores"] is not None:
            scores = t["scores"] if isinstance(t["scores"], list) else json.loads(t["scores"])
            seats = zip(t["players"], scores, t["forfeits"], strict=True)
            results.append(FinishedTable(t["round"], tuple(Seat(p, int(s), f) for p, s, f in seats)))
    return results


def _player(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "account": p["account_id"],
        "name": p["name"],
        "withdrawn": p["withdrawn"],
        "removed": p["removed"],
    }


def _iso(t: datetime | None) -> str | None:
    u = as_utc(t)
    return None if u is None else u.isoformat()
