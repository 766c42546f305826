"""The Director's alerts as the gateway answers them (GET /api/alerts, GET
/api/alerts/handled): each alert as the processor wrote it to the alerts topic
(`shared.table.alert_record`, with its id), its `offset` there the alerts topic's (a feed
resumes from it) in place of its table's, and the Director's mark on it (`Mark`, from
`tableserver.alerts.handled`) or null."""

# No `from __future__ import annotations`: a TypedDict reads its keys' types at run time;
# `typing_extensions.TypedDict`, the one pydantic reads under Python 3.11.

from typing_extensions import TypedDict

from shared.table.alert_record import AlertRecord, PoisonRecord


class Mark(TypedDict):
    """The Director has dealt with an alert (or, `handled` false, has not after all)."""

    alert: str
    """the alert's id"""
    handled: bool
    note: str | None
    """what he did, for the record"""
    ts: int
    """when it was marked, ms since the epoch"""


class Published(AlertRecord):
    """An alert as the alerts topic holds it."""

    id: str
    """the alert's id (`shared.ids`): table:board:offset:n"""


class PublishedPoison(PoisonRecord):
    """A record its table's fold could not take, as the alerts topic holds it."""

    id: str
    """table:poison:offset"""


class ListedAlert(Published):
    """An alert in the list: its `offset` is the alerts topic's."""

    handled: Mark | None
    """the Director's latest mark on it"""


class ListedPoison(PublishedPoison):
    """A skipped record in the list: its `offset` is the alerts topic's."""

    handled: Mark | None
    """the Director's latest mark on it"""


class AlertsList(TypedDict):
    """The latest alerts, oldest first."""

    alerts: list[ListedAlert | ListedPoison]


class HandledMarks(TypedDict):
    """Every alert the Director has marked: its id → its latest mark."""

    handled: dict[str, Mark]
