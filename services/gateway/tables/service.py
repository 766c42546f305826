"""What the gateway does, apart from HTTP: tokens to grants, tables' records, and events
checked (syntax and authority only) and appended to their table's topic. Its one command for
an event, `Gateway.accept_event(table, grant, body)`, answers `Accepted` or raises a domain
error (`services.gateway.refusals`); its doors (the FastAPI route, the plain ASGI call path,
a socket's message) read the JSON once and translate (`services.gateway.http.doors`)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

from services.common.errors import StoreUnavailable, Unavailable
from services.common.kafka.produce import append, append_all
from services.common.kafka.reader import KafkaUnavailable, NoTableError
from services.common.live import send_copy
from services.common.names import HEALTH, table_topic
from services.common.settings import Settings
from services.gateway.bootstrap import Adapters
from services.gateway.gates import Busy, Gate
from services.gateway.readiness import Appends
from services.gateway.refusals import DIRECTOR_ONLY, Kind, Refused, RefusedOnState
from services.gateway.tables.off_loop import BACKGROUND_NICE, OffLoop
from services.gateway.tables.retries import appended_at
from services.gateway.tokens import READERS, Grant, Role, TokenError, expiry_of, verify
from shared.codec import EventError, Sender, encode, from_map, sent_by
from shared.events import Event, EventType
from shared.ids import IMPORT_ID_PREFIX, TABLE_ID
from shared.seats import Seat
from shared.table.board_view import BoardView
from shared.table.option_checks import DECLARERS_OPTIONS, option_refusal
from shared.table.play_checks import Refusal, card_refusal
from shared.table.result_checks import result_refusal
from shared.tournament.session import Tournament

SEAT_EVENTS = sent_by(Sender.SEAT, Sender.DECLARER)  # a seat's own (declarer's options too)
OPERATOR_EVENTS = SEAT_EVENTS  # the table's operator's: a seat's, for any seat
DIRECTOR_EVENTS = SEAT_EVENTS | sent_by(Sender.DIRECTOR)  # what a socket takes besides a ping


@dataclass(frozen=True)
class Accepted:
    """An event appended: its offset in the table's topic, once Kafka acknowledged it."""

    offset: int


class Gateway:
    def __init__(self, settings: Settings, adapters: Adapters | None = None) -> None:
        """`adapters` None: the app's lifespan starts the real ones (`bootstrap.py`)."""
        self.settings = settings
        self.director_token = settings.director_token()
        self.signing_key = settings.signing_key()
        self._adapters = adapters
        self.verified: dict[str, tuple[Grant, int]] = {}  # token → grant, expiry; once checked
        # a table's record, cached: it changes once, when the director closes the table (a
        # gateway that cached it before learns it when Kafka refuses the table's next event)
        self.known_tables: dict[str, dict[str, Any]] = {}
        self.tournaments: dict[str, Tournament] = {}  # as created (never changed): cached
        self.appends = Appends(self.probe_append)  # whether Kafka takes appends (`/readyz`)
        self.in_flight = Gate(settings.events_in_flight, "events",  # then 503, Retry-After
                              settings.event_wait_ms / 1000)
        self.off_loop = OffLoop()  # what would hold the loop for long: a deals file parsed
        self.background = OffLoop(nice=BACKGROUND_NICE)  # what no one waits for: hand records

    @property
    def adapters(self) -> Adapters:
        assert self._adapters is not None, "the gateway's adapters are started with its app"
        return self._adapters

    @adapters.setter
    def adapters(self, adapters: Adapters | None) -> None:
        self._adapters = adapters

    # --- who is asking ----------------------------------------------------------------------

    def grant_of(self, token: str | None) -> Grant:
        if not token:
            raise Refused("missing token (Authorization: Bearer …)", kind=Kind.UNAUTHORIZED)
        if hmac.compare_digest(token.encode(), self.director_token.encode()):
            return Grant(None, None, Role.DIRECTOR)
        now = int(time.time())
        known = self.verified.get(token)
        if known is not None and known[1] >= now:
            return known[0]
        try:
            grant = verify(self.signing_key, token, now)
        except TokenError as exc:
            raise Refused(str(exc), kind=Kind.UNAUTHORIZED) from None
        if len(self.verified) > 100_000:  # a bound, not an eviction policy: start again
            self.verified.clear()
        self.verified[token] = (grant, expiry_of(token))
        return grant

    def grant_from(self, authorization: str | None) -> Grant:
        scheme, _, token = (authorization or "").partition(" ")
        return self.grant_of(token if scheme.lower() == "bearer" else None)

    def admits_body(self, authorization: str | None, upload: bool) -> None:
        """Before a request's body is read (`asgi.Guard`): its token must verify (401), and
        an upload (a tournament's creation or round, with the larger limit) is the
        director's (403). Returns: the body may be read. Every route that takes a body takes a
        token, and checks it again for what the route allows."""
        grant = self.grant_from(authorization)
        if upload and grant.role != Role.DIRECTOR:
            raise Refused(DIRECTOR_ONLY, kind=Kind.FORBIDDEN)

    @staticmethod
    def reads(grant: Grant, table: str) -> bool:
        """Whether `grant` may read `table`: the director every table, a seat, a spectator or
        the table's operator its own; a tournament's vugraph token none (it lists them)."""
        return grant.role in READERS and (grant.role == Role.DIRECTOR or grant.table == table)

    @classmethod
    def may_read(cls, grant: Grant, table: str) -> None:
        if not cls.reads(grant, table):
            raise Refused(f"this token is not for table {table}", kind=Kind.FORBIDDEN)

    # --- tables and events ------------------------------------------------------------------

    async def table_meta(self, table: str) -> dict[str, Any]:
        """The table's record: cached, else Redis's copy, else the registry topic (Redis
        lost its data: the copy is written again), else 404."""
        meta = self.known_tables.get(table)
        if meta is None:
            found = await self.adapters.store.table_record(table)
            if found is None and TABLE_ID.fullmatch(table):
                found = await self.registered(table)
            if found is None:
                raise Refused(f"no table {table}", kind=Kind.NOT_FOUND)
            meta = self.known_tables[table] = found
        return meta

    async def fresh_meta(self, table: str) -> dict[str, Any]:
        """The table's record as Redis has it now (the cached copy may predate a close)."""
        self.known_tables.pop(table, None)
        return await self.table_meta(table)

    async def open_meta(self, table: str) -> dict[str, Any]:
        """The table's record; a 409 when the director has closed it."""
        meta = await self.table_meta(table)
        if "closed" in meta:
            raise Refused(f"table {table} is closed: the director closed it, it takes no "
                          "more events (its history stays readable)", kind=Kind.CONFLICT)
        return meta

    async def registered(self, table: str) -> dict[str, Any] | None:
        try:
            found = await asyncio.wait_for(self.adapters.reads.registered(table),
                                           2 * self.settings.produce_timeout_s)
        except (KafkaUnavailable, TimeoutError):
            raise Unavailable("the table registry (Kafka) is unreachable; retry",
                              retry_after=1) from None
        if found is not None:
            await self.adapters.store.remember_tables({table: found})
        return found

    @staticmethod
    def encoded(event_map: dict[str, Any]) -> bytes:
        """The event as the topic keeps it, once the schema's syntax is checked (a 400 that
        names the field otherwise). An `import:` id is the importer's alone: it finds what a
        table has already by those ids (`services.replay.importer`)."""
        event_id = event_map.get("id")
        if isinstance(event_id, str) and event_id.lower().startswith(IMPORT_ID_PREFIX):
            raise Refused(f"field 'id': ids starting with {IMPORT_ID_PREFIX!r} are "
                          "tableserver import's; choose another", "id")
        try:
            return encode(from_map(event_map))
        except EventError as exc:
            raise Refused(str(exc), exc.field) from None

    async def append(self, table: str, event_map: dict[str, Any]) -> int:
        """The event appended to the table's topic: its offset, once Kafka acknowledged it."""
        return (await self.append_all(table, [event_map]))[0]

    async def append_all(self, table: str, event_maps: list[dict[str, Any]]) -> list[int]:
        """The events appended to the table's topic in order, sent at once and acknowledged
        together (one produce round trip): their offsets. Each is checked before any is sent;
        any not acknowledged: `Unavailable`, all sent again being harmless (`append`)."""
        values = [self.encoded(event_map) for event_map in event_maps]
        producer, settings = self.adapters.producer, self.settings
        try:  # bounded: with the broker down, the client hears so and may retry
            offsets = await append_all(producer, table_topic(table), values,
                                       timeout_s=settings.produce_timeout_s,
                                       doing="acknowledge the event",
                                       then="retry with the same client_seq")
        except Unavailable:
            # not acknowledged, though it may still be appended: a retry with the same
            # client_seq is folded once (shared.table.engine); or the table was closed meanwhile
            # (Kafka refuses its appends: `services.gateway.tables.closing`)
            with contextlib.suppress(StoreUnavailable):
                await self.open_meta_now(table)
            self.appends.record(False)
            raise
        self.appends.record(True)
        for offset, value in zip(offsets, values, strict=True):
            await send_copy(producer, table, offset, value, settings.shards)
        return offsets

    async def open_meta_now(self, table: str) -> None:
        """A 409 when the table's record, read again, says it is closed."""
        await self.fresh_meta(table)
        await self.open_meta(table)

    async def probe_append(self) -> None:
        """A record appended to the health topic as every event is (`acks=all`): whether
        Kafka takes appends when the gateway has made none lately (`readiness.Appends`)."""
        await append(self.adapters.producer, HEALTH,
                     json.dumps({"probe": int(time.time() * 1000)}).encode(),
                     doing="acknowledge the probe")

    async def explains_own_call(self, table: str, seat: str | None, index: Any) -> None:
        """Law 20F with online self-alerting: a seat explains its own calls, to the opponents
        only; an explanation of his partner's call would pass free text to the partner. (At
        a physical table a partner explains aloud, to all: that is recorded by the table's
        operator, not sent from a seat.)"""
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            return  # the event's syntax check names the field
        found = await self.adapters.store.read_state(table)
        calls = found[1].get("calls", []) if found is not None else []
        if index >= len(calls):
            raise RefusedOnState(f"no call at index {index} yet; retry once it is folded",
                                 "index", Kind.CONFLICT)
        if calls[index]["seat"] != seat:
            raise RefusedOnState("a seat explains its own calls only (Law 20F, online "
                                 f"self-alerting): the call at index {index} is "
                                 f"{calls[index]['seat']}'s", "index", Kind.FORBIDDEN)

    async def chooses_as_declarer(self, table: str, seat: str | None, kind: str) -> None:
        """Declarer alone states his options in the play (`shared.table.option_checks`: Laws 50D2,
        51A, 57A): another seat's is refused (403)."""
        found = await self.adapters.store.read_state(table)
        refuse(option_refusal(found[1] if found is not None else None, seat, kind))

    async def may_send(self, table: str, grant: Grant) -> None:
        """The sender's own refusals, before its event is read: a spectator's (403), another
        table's token (403), a table that does not exist (404)."""
        if grant.role == Role.SPECTATOR:
            raise Refused("spectators do not make calls", kind=Kind.FORBIDDEN)
        self.may_read(grant, table)
        await self.open_meta(table)  # Redis away: `StoreUnavailable`, a 503

    async def accept_event(self, table: str, grant: Grant, body: dict[str, Any]) -> Accepted:
        """The one command for an event: from a seat (its seat from the token), the table's
        operator (any seat's, named in the body) or the director, appended to the table's
        topic once its syntax and the sender's authority are checked. Raises `Refused` or
        `Unavailable` (Redis's failures: `StoreUnavailable`), never an HTTP status."""
        await self.may_send(table, grant)
        kind = body.get("type")
        if not isinstance(kind, str):
            raise Refused("field 'type': the event's type, such as \"call\"", "type")
        try:
            if grant.role == Role.SEAT:
                body = await self.seats_event(table, grant, kind, body)
            elif grant.role == Role.OPERATOR:
                body = await self.operators_event(table, kind, body)
            elif kind not in DIRECTOR_EVENTS:
                raise Refused(f"field 'type': events here are {sorted(DIRECTOR_EVENTS)}",
                              "type")
            elif kind == EventType.CARD_PLAYED:  # the director's, any seat: checked
                await self.plays_card(table, None, body.get("seat"), body.get("card"))
            elif kind == EventType.RESULT_RECORDED:  # the director records it: it stands
                await self.records_result(table, None, body)
        except RefusedOnState:  # unless it is a retry of an event appended already
            offset = await self.appended_already(table, as_sent(grant, kind, body))
            if offset is None:
                raise
            return Accepted(offset)
        return Accepted(await self.append(table, {**body, "ts": int(time.time() * 1000)}))

    async def appended_already(self, table: str, body: dict[str, Any]) -> int | None:
        """The offset of the event `body` stands for (with its `client_seq`) if the table's log
        has it already, within the board or round where the fold folds it once
        (`services.gateway.tables.retries`); None otherwise. `Unavailable` when the log cannot be
        read: the answer would be a guess."""
        event = _event_of(body)
        if event is None or event.client_seq is None:
            return None
        history = self.adapters.history
        try:
            async with history.gate.slot():
                records = await asyncio.wait_for(history.topics.read(table_topic(table)),
                                                 2 * self.settings.produce_timeout_s)
        except NoTableError:
            return None
        except (KafkaUnavailable, TimeoutError, Busy):
            raise Unavailable("whether this event was appended already (a retry) could not "
                              "be read from the table's log; retry with the same client_seq",
                              retry_after=1) from None
        return appended_at(records, event)

    async def plays_card(self, table: str, sender: str | None, seat: Any, card: Any,
                         state: asyncio.Future[tuple[int, BoardView] | None] | None = None
                         ) -> None:
        """A card played: the sender's authority and the card against the deal and the cards
        played (`shared.table.play_checks`); `state`: the table's state, when already asked."""
        if not isinstance(seat, str):
            raise Refused("field 'seat': the hand the card comes from (N, E, S or W)", "seat")
        try:
            seat = Seat.parse(seat).name
        except ValueError:
            raise Refused("field 'seat': the hand the card comes from (N, E, S or W)",
                          "seat") from None
        found = await (state or self.adapters.store.read_state(table))
        refuse(card_refusal(found[1] if found is not None else None, sender, seat, card))

    async def records_result(self, table: str, sender: str | None, body: dict[str, Any]
                             ) -> None:
        """Law 79A, the tricks agreed by all four players: recorded by the table's operator
        or the director (`sender` None, no `seat` in the body: the result stands), proposed
        from a seat (the other side agrees, as to a claim: Law 69A); never fewer tricks
        than a side has won, nor more than it can still win (`shared.table.result_checks`)."""
        if sender is None and "seat" in body:
            raise Refused("field 'seat': the operator or the director records the table's "
                          "result for no seat (Law 79A); a seat proposes it from its own "
                          "token", "seat")
        found = await self.adapters.store.read_state(table)
        refuse(result_refusal(found[1] if found is not None else None, sender,
                              body.get("tricks")))

    async def seats_event(self, table: str, grant: Grant, kind: str, body: dict[str, Any]
                          ) -> dict[str, Any]:
        """A seat's event: its seat from the token, its explanations of its own calls only;
        a card played names the hand it comes from (declarer plays dummy's, Law 45), its own
        by default."""
        if kind == EventType.CARD_PLAYED:
            if "by" in body:
                raise Refused("field 'by': the sender comes from your token, not the body",
                              "by")
            # the state is asked with the limit, in the same write to Redis (`RedisLines`
            # sends the commands of one turn of the loop together)
            state = asyncio.ensure_future(self.adapters.store.read_state(table))
            try:
                await self.within_limit(f"{table}/{grant.seat}", "from this seat")
                await self.plays_card(table, grant.seat, body.get("seat", grant.seat),
                                      body.get("card"), state)
            finally:  # refused before it was awaited: not wanted, a failure not logged
                if not state.cancel() and not state.cancelled():
                    state.exception()
            return _seats(grant, kind, body)
        if "seat" in body:
            raise Refused("field 'seat': the seat comes from your token, not the body", "seat")
        if kind not in SEAT_EVENTS:
            raise Refused(f"field 'type': a seat may send {sorted(SEAT_EVENTS)}", "type")
        await self.within_limit(f"{table}/{grant.seat}", "from this seat")
        if kind == EventType.RESULT_RECORDED:  # a proposal, and judged by the fold
            await self.records_result(table, grant.seat, body)
        if kind in DECLARERS_OPTIONS:  # and by the fold
            await self.chooses_as_declarer(table, grant.seat, kind)
        if kind == EventType.EXPLANATION:  # checked here, and again by the fold (`own`)
            await self.explains_own_call(table, grant.seat, body.get("index"))
        return _seats(grant, kind, body)

    async def operators_event(self, table: str, kind: str, body: dict[str, Any]
                              ) -> dict[str, Any]:
        """The table's operator records what happens at a physical table: any seat's event,
        the seat named in the body. An explanation is not `own`: at the table, a partner's
        explanation is said aloud to all (Law 20F1). Rulings are the director's."""
        if kind == EventType.RULING:
            raise Refused("field 'type': rulings are the director's; an operator records "
                          "the seats' events", "type", Kind.FORBIDDEN)
        if kind not in OPERATOR_EVENTS:
            raise Refused(f"field 'type': an operator may send {sorted(OPERATOR_EVENTS)}", "type")
        if kind == EventType.RESULT_RECORDED:  # the table's, for no seat: it stands (Law 79A)
            await self.within_limit(f"{table}/operator", "for the table from the operator")
            await self.records_result(table, None, body)
            return body
        try:
            seat = Seat.parse(body["seat"]).name
        except (KeyError, ValueError):  # no seat, or not a seat (NotationError)
            raise Refused("field 'seat': the seat whose event this is (N, E, S or W)",
                          "seat") from None
        # each seat's events at a seat's pace: the operator records four players
        await self.within_limit(f"{table}/operator/{seat}", "for this seat from the operator")
        if kind == EventType.CARD_PLAYED:
            await self.plays_card(table, None, seat, body.get("card"))
        return body

    async def within_limit(self, key: str, whose: str) -> None:
        """A seat's (or an operator's) events a second, counted across the replicas."""
        if not await self.adapters.seat_limit.allow(key, time.monotonic()):
            raise Refused(f"more than {self.settings.calls_per_second} events a second "
                          f"{whose}", kind=Kind.TOO_MANY, retry_after=1)


def refuse(refused: Refusal | None) -> None:
    """A refusal of `shared.table.play_checks` or `.result_checks` raised as the gateway's:
    409 with Retry-After when the state is behind the log, 403 for the sender's authority,
    else 400 naming the field; nothing when None. Each is refused against the state
    (`RefusedOnState`): a retry of an event appended already is answered with its offset."""
    if refused is None:
        return
    if refused.retry:  # the state behind the log: a 409, again
        raise RefusedOnState(refused.reason, refused.field, Kind.CONFLICT, retry_after=1)
    raise RefusedOnState(refused.reason, refused.field,
                  Kind.FORBIDDEN if refused.forbidden else Kind.BAD_INPUT)


def as_sent(grant: Grant, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The event `body` stands for, as it is appended for its sender: a seat's (`_seats`), or
    the body itself from the operator or the director, who name the seat."""
    return _seats(grant, kind, body) if grant.role == Role.SEAT else body


def _seats(grant: Grant, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """A seat's event as appended: its seat from the token; a card, the hand it comes from
    (its own by default), and `by`, the sender, when another's (declarer's from dummy, Law
    45: a retry is known by its sender, `shared.table.engine.fold`); an explanation `own`."""
    if kind == EventType.CARD_PLAYED:
        hand = body.get("seat", grant.seat)
        with contextlib.suppress(ValueError):  # not a seat: `plays_card` refuses it
            hand = Seat.parse(hand).name if isinstance(hand, str) else hand
        if hand == grant.seat:
            return {**body, "seat": hand}
        return {**body, "seat": hand, "by": grant.seat}
    if kind == EventType.EXPLANATION:
        return {**body, "own": True, "seat": grant.seat}
    return {**body, "seat": grant.seat}


def _event_of(body: dict[str, Any]) -> Event | None:
    """The event of a body, None if it is not one (its refusal says why)."""
    try:
        return from_map(body)
    except EventError:
        return None
