"""Settings from the environment (services/common/settings.py): defaults, clear refusals, and the
secrets a production deployment must give."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.common.settings import Settings

STRONG = "0123456789abcdef-strong"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os
    for name in list(os.environ):
        if name.startswith("TABLESERVER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))


def test_defaults_and_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings()
    assert (settings.shards, settings.calls_per_second, settings.produce_timeout_s) == (8, 10, 5)
    assert settings.kafka_bootstrap == "127.0.0.1:9092"
    monkeypatch.setenv("TABLESERVER_REDIS_PORT", "7000")
    monkeypatch.setenv("TABLESERVER_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("TABLESERVER_SHARDS", "")  # empty: the default
    settings = Settings()
    assert settings.redis_url == "redis://127.0.0.1:7000/0" and settings.shards == 8
    assert settings.allowed_origins == {"https://a.example", "https://b.example"}


def test_the_local_cluster_gives_every_broker_and_replication_3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().replication == 1  # one broker
    monkeypatch.setenv("TABLESERVER_KAFKA_PORT", "20092")
    monkeypatch.setenv("TABLESERVER_KAFKA_BROKERS", "3")
    settings = Settings()
    assert settings.kafka_bootstrap == "127.0.0.1:20092,127.0.0.1:20094,127.0.0.1:20096"
    assert settings.replication == 3
    monkeypatch.setenv("TABLESERVER_KAFKA", "kafka1:9092,kafka2:9092")
    monkeypatch.setenv("TABLESERVER_REPLICATION", "2")
    settings = Settings()
    assert (settings.kafka_bootstrap, settings.replication) == ("kafka1:9092,kafka2:9092", 2)


def test_a_bad_setting_stops_with_one_line_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESERVER_SHARDS", "many")
    with pytest.raises(SystemExit) as stopped:
        Settings()
    assert str(stopped.value).startswith("setting TABLESERVER_SHARDS: ")


def test_development_generates_its_secrets_once(tmp_path: Path) -> None:
    first = Settings()
    token, key = first.director_token(), first.signing_key()
    assert len(token) >= 32 and len(key) >= 32
    assert (tmp_path / "director.token").stat().st_mode & 0o777 == 0o600
    assert Settings().director_token() == token and Settings().signing_key() == key


@pytest.mark.parametrize(("token", "key"), [(None, None), (STRONG, None), ("change-me", STRONG),
                                             ("short", STRONG)])
def test_production_requires_real_secrets(monkeypatch: pytest.MonkeyPatch, token: str | None,
                                          key: str | None) -> None:
    monkeypatch.setenv("TABLESERVER_ENV", "production")
    for name, value in (("TABLESERVER_DIRECTOR_TOKEN", token), ("TABLESERVER_SIGNING_KEY", key)):
        if value is not None:
            monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        Settings()
    assert "must be set in production" in str(stopped.value)


def test_production_with_its_secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLESERVER_ENV", "production")
    monkeypatch.setenv("TABLESERVER_DIRECTOR_TOKEN", STRONG)
    monkeypatch.setenv("TABLESERVER_SIGNING_KEY", STRONG + "-key")
    settings = Settings()
    assert settings.director_token() == STRONG and settings.signing_key() == b"" + \
        (STRONG + "-key").encode()
    assert not (tmp_path / "director.token").exists()  # nothing generated
    assert STRONG not in repr(settings)  # secrets are not printed
