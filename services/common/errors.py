"""The services' domain errors' root, and the one every service raises when a service it needs
is down: `ServiceError` (a reason, the field at fault, when to retry) and `Unavailable` (Kafka
or Redis cannot be reached: retry after `retry_after` seconds), `StoreUnavailable` the one every
Redis adapter raises for any of Redis's faults (`services.common.redis_faults`), and
`LogUnavailable` the one every Kafka adapter raises for Kafka's (`services.common.kafka_faults`).
The gateway's refusals of a request (`services.gateway.refusals.Refused`) are the other branch;
no HTTP here: the gateway's edge turns an error into a status
(`services.gateway.http.errors.STATUS`)."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """The root: a command's refusal, its reason, the field at fault, and when to retry."""

    def __init__(self, reason: str, field: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.field, self.retry_after = reason, field, retry_after

    @property
    def body(self) -> dict[str, Any]:
        """What every door answers: `{"error": …, "field": …}` (no field: none named)."""
        body: dict[str, Any] = {"error": self.reason}
        if self.field:
            body["field"] = self.field
        return body


class Unavailable(ServiceError):
    """Kafka or Redis cannot be reached, or the state the answer needs lags the log: the same
    request may succeed after `retry_after`."""

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(reason, None, retry_after)


STORE_DOWN = "the state store (Redis) is unreachable; retry"
STORE_RETRY_S = 2


class StoreUnavailable(Unavailable):
    """Redis did not answer (a connection refused or lost, a reply late, an error reply): what
    each Redis adapter raises in place of redis-py's errors, so that no caller knows Redis's;
    the same request may succeed after `retry_after` (a 503 with Retry-After, a socket's 1011
    "retry", the processor's outage)."""

    def __init__(self, reason: str = STORE_DOWN, retry_after: int = STORE_RETRY_S) -> None:
        super().__init__(reason, retry_after)


LOG_DOWN = "the event log (Kafka) is unreachable; retry"
LOG_RETRY_S = 1


class LogUnavailable(Unavailable):
    """The event log (Kafka) was not reached, did not answer in time, or refused a request:
    what each Kafka adapter raises in place of aiokafka's errors, its cause chained
    (`services.common.kafka_faults.unreachable` tells a Kafka away from one that answered an
    error), so that no caller knows Kafka's; the same request may succeed after `retry_after`
    (a 503 with Retry-After, a socket's 1011 "retry", the processor's retry)."""

    def __init__(self, reason: str = LOG_DOWN, retry_after: int = LOG_RETRY_S) -> None:
        super().__init__(reason, retry_after)
