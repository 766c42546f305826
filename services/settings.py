"""Settings of the services, from the environment (documented defaults in the README)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"setting {name}={value!r} is not a whole number") from None


@dataclass(frozen=True)
class Settings:
    data_dir: Path = field(default_factory=lambda: Path(
        os.environ.get("TABLESERVER_DATA", ".data")).resolve())
    kafka_port: int = field(default_factory=lambda: _int("TABLESERVER_KAFKA_PORT", 9092))
    redis_port: int = field(default_factory=lambda: _int("TABLESERVER_REDIS_PORT", 6379))
    gateway_port: int = field(default_factory=lambda: _int("TABLESERVER_GATEWAY_PORT", 8000))
    shards: int = field(default_factory=lambda: _int("TABLESERVER_SHARDS", 8))
    replication: int = field(default_factory=lambda: _int("TABLESERVER_REPLICATION", 1))
    spectator_delay_s: int = field(default_factory=lambda: _int(
        "TABLESERVER_SPECTATOR_DELAY", 0))
    calls_per_second: int = field(default_factory=lambda: _int(
        "TABLESERVER_CALLS_PER_SECOND", 10))
    max_body_bytes: int = field(default_factory=lambda: _int("TABLESERVER_MAX_BODY", 4096))
    token_ttl_s: int = field(default_factory=lambda: _int(
        "TABLESERVER_TOKEN_TTL", 7 * 24 * 3600))
    history_per_second: int = field(default_factory=lambda: _int(
        "TABLESERVER_HISTORY_PER_SECOND", 2))  # reads of /history per token, bursts of 5×
    produce_timeout_s: int = field(default_factory=lambda: _int(
        "TABLESERVER_PRODUCE_TIMEOUT", 5))  # a call's answer with the broker down: a 503

    @property
    def kafka_bootstrap(self) -> str:
        return os.environ.get("TABLESERVER_KAFKA", f"127.0.0.1:{self.kafka_port}")

    @property
    def redis_url(self) -> str:
        return os.environ.get("TABLESERVER_REDIS", f"redis://127.0.0.1:{self.redis_port}/0")

    @property
    def allowed_origins(self) -> set[str]:
        text = os.environ.get("TABLESERVER_ORIGINS", "")
        return {o.strip() for o in text.split(",") if o.strip()}

    def director_token(self) -> str:
        """`TABLESERVER_DIRECTOR_TOKEN`, or the one generated into `.data/director.token`."""
        token = os.environ.get("TABLESERVER_DIRECTOR_TOKEN")
        if token:
            return token
        path = self.data_dir / "director.token"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(32) + "\n")
            path.chmod(0o600)
        return path.read_text().strip()

    def signing_key(self) -> bytes:
        """The key that signs seat and spectator tokens (`TABLESERVER_SIGNING_KEY`, or one
        generated into `.data/signing.key`)."""
        key = os.environ.get("TABLESERVER_SIGNING_KEY")
        if key:
            return key.encode()
        path = self.data_dir / "signing.key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32) + "\n")
            path.chmod(0o600)
        return path.read_text().strip().encode()
