"""Settings of the services, from the environment (`TABLESERVER_…`; the defaults are
documented in docs/operations.md), in one pydantic-settings object.

In development the director's token and the signing key are generated into the data folder
when not given. With `TABLESERVER_ENV=production` both must be given, at least 16 characters
and not a placeholder: a service refuses to start otherwise. A setting that is not what it
should be stops a service with one line naming it, never a traceback.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.common.public_links import public_origin

PLACEHOLDERS = {"change-me", "changeme", "secret", "password", "director", "token"}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore", env_ignore_empty=True)

    env: Literal["development", "production"] = Field(
        "development", validation_alias=AliasChoices("TABLESERVER_ENV"))
    data: Path = Field(Path(".data"), validation_alias=AliasChoices("TABLESERVER_DATA"))
    kafka_port: int = Field(9092, validation_alias=AliasChoices("TABLESERVER_KAFKA_PORT"))
    # the local cluster deploy/kafka/start.sh runs: node i on kafka_port + 2(i-1)
    kafka_brokers: int = Field(1, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_KAFKA_BROKERS"))
    redis_port: int = Field(6379, validation_alias=AliasChoices("TABLESERVER_REDIS_PORT"))
    # a Redis Cluster of this many primaries (deploy/redis/start.sh: on redis_port, +1, …);
    # 0: one Redis. The services reach any cluster through `TABLESERVER_REDIS` (any node).
    redis_cluster: int = Field(0, ge=0, validation_alias=AliasChoices(
        "TABLESERVER_REDIS_CLUSTER"))
    gateway_port: int = Field(8000, validation_alias=AliasChoices("TABLESERVER_GATEWAY_PORT"))
    tm_port: int = Field(2000, validation_alias=AliasChoices("TABLESERVER_TM_PORT"))
    # the Table Manager host robots connect to (services/robots)
    tm_idle_s: int = Field(300, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_TM_IDLE"))  # a seated robot that owes the host a line and sends none
    tm_per_address: int = Field(256, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_TM_PER_ADDRESS"))  # connections at once from one address, then refused
    tm_stall_s: int = Field(60, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_TM_STALL"))  # a robot awaited this long is shown stalled to the director
    tm_slot_s: int = Field(120, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_TM_SLOT"))  # a robot slot (a stock robot's seat, by its label) stays open
    robot_processes: int = Field(0, ge=0, validation_alias=AliasChoices(
        "TABLESERVER_ROBOT_PROCESSES"))  # the robot pool's solver processes; 0: its DDS thread
    robot_lease_s: float = Field(10, gt=0, validation_alias=AliasChoices(
        "TABLESERVER_ROBOT_LEASE"))  # a pool's hold on a seat, renewed; lapsed: another's
    kafka: str | None = Field(None, validation_alias=AliasChoices("TABLESERVER_KAFKA"))
    redis: str | None = Field(None, validation_alias=AliasChoices("TABLESERVER_REDIS"))
    gateway: str | None = Field(None, validation_alias=AliasChoices("TABLESERVER_GATEWAY"))
    shards: int = Field(8, ge=1, validation_alias=AliasChoices("TABLESERVER_SHARDS"))
    replication_given: int | None = Field(None, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_REPLICATION"))
    # the public sees a table as it was this long ago: longer than a board takes online (BBO
    # and RealBridge give 7–8 min a board), so that a player who opens the public page never
    # sees the board he is playing (docs/operations.md)
    spectator_delay_s: int = Field(900, ge=0, validation_alias=AliasChoices(
        "TABLESERVER_SPECTATOR_DELAY"))
    calls_per_second: int = Field(10, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_CALLS_PER_SECOND"))
    max_body_bytes: int = Field(4096, ge=256, validation_alias=AliasChoices(
        "TABLESERVER_MAX_BODY"))
    max_upload_bytes: int = Field(4 * 2**20, ge=4096, validation_alias=AliasChoices(
        "TABLESERVER_MAX_UPLOAD_BYTES"))  # a tournament's deals file, players and movement
    token_ttl_s: int = Field(7 * 24 * 3600, ge=60, validation_alias=AliasChoices(
        "TABLESERVER_TOKEN_TTL"))
    history_per_second: int = Field(2, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_HISTORY_PER_SECOND"))  # reads of /history per token, bursts of 5×
    history_reads: int = Field(64, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_HISTORY_READS"))  # reads of /history at once in a gateway, then 503
    events_in_flight: int = Field(128, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_EVENTS_IN_FLIGHT"))  # events handled at once in a gateway; more wait
    event_wait_ms: int = Field(1000, ge=0, le=60_000, validation_alias=AliasChoices(
        "TABLESERVER_EVENT_WAIT_MS"))  # … for a turn at most this long, then 503 (0: at once)
    produce_timeout_s: int = Field(5, ge=1, validation_alias=AliasChoices(
        "TABLESERVER_PRODUCE_TIMEOUT"))  # a call's answer with the broker down: a 503
    fetch_linger_ms: int = Field(5, ge=0, le=100, validation_alias=AliasChoices(
        "TABLESERVER_FETCH_LINGER_MS"))  # ms before a worker fetches again from a busy broker
    loop_held_ms: int = Field(0, ge=0, validation_alias=AliasChoices(
        "TABLESERVER_LOOP_HELD_MS"))  # the loop held this long is logged with its stacks; 0: off
    origins: str = Field("", validation_alias=AliasChoices("TABLESERVER_ORIGINS"))
    # where players reach the server, e.g. https://bridge.club.example behind the TLS front
    # (deploy/tls): every link the gateway serves or the command line prints starts with it
    public_url: str | None = Field(None, validation_alias=AliasChoices(
        "TABLESERVER_PUBLIC_URL"))
    director_token_given: SecretStr | None = Field(None, validation_alias=AliasChoices(
        "TABLESERVER_DIRECTOR_TOKEN"))
    signing_key_given: SecretStr | None = Field(None, validation_alias=AliasChoices(
        "TABLESERVER_SIGNING_KEY"))

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            message = str(first["msg"]).removeprefix("Value error, ")
            where = f"setting {first['loc'][0]}: " if first["loc"] else ""
            raise SystemExit(where + message) from None

    @field_validator("public_url")
    @classmethod
    def an_origin(cls, given: str | None) -> str | None:
        """`TABLESERVER_PUBLIC_URL`: an origin (http or https, a host, maybe a port), with no
        path: the pages call `/api` and `/web` from the root of their address."""
        return None if given is None else public_origin(given)

    @model_validator(mode="after")
    def secrets_in_production(self) -> Settings:
        if self.env == "production":
            for name, given in (("TABLESERVER_DIRECTOR_TOKEN", self.director_token_given),
                                ("TABLESERVER_SIGNING_KEY", self.signing_key_given)):
                value = given.get_secret_value() if given is not None else ""
                if len(value) < 16 or value.lower() in PLACEHOLDERS:
                    raise ValueError(f"{name} must be set in production, to a secret of at "
                                     "least 16 characters")
        return self

    @property
    def data_dir(self) -> Path:
        return self.data.resolve()

    @property
    def kafka_bootstrap(self) -> str:
        """`TABLESERVER_KAFKA`, else every node of the local cluster (a client that knows
        one node only cannot start while that one is down)."""
        return self.kafka or ",".join(f"127.0.0.1:{self.kafka_port + 2 * i}"
                                      for i in range(self.kafka_brokers))

    @property
    def replication(self) -> int:
        """The replication of the topics tableserver creates: `TABLESERVER_REPLICATION`, else
        the local cluster's, as its brokers' defaults (deploy/kafka/configure.sh): every node,
        up to 3."""
        return self.replication_given or min(self.kafka_brokers, 3)

    @property
    def redis_url(self) -> str:
        return self.redis or f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def gateway_url(self) -> str:
        """`TABLESERVER_GATEWAY` (a gateway elsewhere, e.g. behind a proxy), else the local one
        on `TABLESERVER_GATEWAY_PORT`: where `tableserver tournament` sends its requests."""
        return (self.gateway or f"http://127.0.0.1:{self.gateway_port}").rstrip("/")

    @property
    def allowed_origins(self) -> set[str]:
        """`TABLESERVER_ORIGINS`, and the public address's when both are set (a page served
        through the TLS front calls from there)."""
        listed = {o.strip() for o in self.origins.split(",") if o.strip()}
        return listed | {self.public_url} if listed and self.public_url else listed

    @property
    def link_base(self) -> str:
        """What the gateway puts before the links it serves: the public address, else
        nothing (a link relative to the address it was asked at)."""
        return self.public_url or ""

    def director_token(self) -> str:
        """`TABLESERVER_DIRECTOR_TOKEN`, or (in development) the one generated into
        `.data/director.token`."""
        return self._secret(self.director_token_given, "director.token",
                            lambda: secrets.token_urlsafe(32))

    def signing_key(self) -> bytes:
        """The key that signs seat and spectator tokens (`TABLESERVER_SIGNING_KEY`, or in
        development one generated into `.data/signing.key`)."""
        return self._secret(self.signing_key_given, "signing.key",
                            lambda: secrets.token_hex(32)).encode()

    def _secret(self, given: SecretStr | None, file: str, make: Any) -> str:
        if given is not None:
            return given.get_secret_value()
        path = self.data_dir / file
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(make() + "\n")
            os.chmod(path, 0o600)
        return path.read_text().strip()
