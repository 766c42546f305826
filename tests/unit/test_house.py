"""The house's shape, held by its imports: the core's table apart from the tournament, the
formats of a table's boards apart from a tournament's, and the gateway's parts depending one
way (HTTP on the parts it serves, never the reverse). A module imported against these lines
fails here, named with the line that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# package → the packages it may not import (its own subject stays below these)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "shared.table": ("shared.tournament", "shared.scores", "shared.notation", "shared.robot",
                     "shared.table_manager"),
    "shared.laws": ("shared.tournament", "shared.scores", "shared.notation", "shared.robot"),
    "shared.notation": ("shared.tournament", "shared.robot", "shared.table_manager"),
    "shared.scores": ("shared.tournament", "shared.notation", "shared.robot"),
    "services.gateway.tables": ("services.gateway.http", "services.gateway.feeds",
                                "services.gateway.tournaments"),
    "services.gateway.feeds": ("services.gateway.http", "services.gateway.tables",
                               "services.gateway.tournaments", "services.gateway.robots"),
    "services.gateway.robots": ("services.gateway.http", "services.gateway.feeds"),
    "services.gateway.tournaments": ("services.gateway.feeds",),
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports from this project, with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def breaches(package: str, forbidden: tuple[str, ...]) -> list[str]:
    folder = ROOT.joinpath(*package.split("."))
    return [f"{path.relative_to(ROOT)}:{line} imports {name}"
            for path in sorted(folder.rglob("*.py"))
            for line, name in imports_of(path)
            if any(name == f or name.startswith(f + ".") for f in forbidden)]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_only_below_its_subject(package: str) -> None:
    assert ROOT.joinpath(*package.split(".")).is_dir(), package
    assert breaches(package, FORBIDDEN[package]) == []


def test_the_checker_sees_a_breach() -> None:
    """The check is not empty: the HTTP edge does import the tables' service."""
    assert breaches("services.gateway.http", ("services.gateway.tables",)) != []


def test_no_loose_module_of_a_subject_in_the_core_root() -> None:
    """The core's root keeps only the words every subject shares (seats, calls, cards, deals,
    events and their codec, ids, the vocabulary, a contract's score); a board's or a
    tournament's module lives in its package."""
    loose = {p.stem for p in (ROOT / "shared").glob("*.py")}
    assert loose == {"__init__", "seats", "calls", "cards", "deal", "ids", "vocabulary",
                     "events", "codec", "codec_derive", "codec_fields", "scoring"}


# The Redis adapters: redis-py's errors are met here and leave as ours (`StoreUnavailable`,
# services.common.redis_faults); every other module catches ours.
REDIS_ADAPTERS = {
    "services/common/redis_faults.py",  # the translation
    "services/common/redis_lines.py", "services/common/cluster_lines.py",  # they raise redis-py's
    "services/common/store.py",  # a script Redis forgot (NoScriptError), loaded again
    "services/gateway/http/limits.py",  # the same, and Redis away: the limit kept in memory
    "services/gateway/feeds/cluster_feeds.py",  # a slot moved (AskError): its reader follows
}


def redis_error(name: str) -> bool:
    """An import of redis-py's errors: their module, or an error by name from any of redis's."""
    return name == "redis.exceptions" or (name.startswith("redis.") and (
        ".exceptions" in name or name.endswith(("Error", "Exception"))))


def redis_error_importers(folder: Path) -> set[str]:
    return {str(path.relative_to(ROOT)) for path in sorted(folder.rglob("*.py"))
            for _, name in imports_of(path) if redis_error(name)}


def test_only_the_redis_adapters_import_redis_errors() -> None:
    assert redis_error_importers(ROOT / "services") <= REDIS_ADAPTERS


def test_the_redis_check_sees_an_importer() -> None:
    """Not empty: the translation itself imports redis-py's errors; an error imported from
    redis's root is one too, a client is not."""
    assert "services/common/redis_faults.py" in redis_error_importers(ROOT / "services")
    assert [redis_error(n) for n in ("redis.RedisError", "redis.exceptions.AskError",
                                     "redis.asyncio.Redis", "redis.crc.key_slot")] == \
        [True, True, False, False]


# The Kafka adapters: aiokafka's errors are met here and leave as ours (`LogUnavailable`,
# services.common.kafka_faults, or a reader's `KafkaUnavailable`); every other module catches
# ours.
KAFKA_ADAPTERS = {
    "services/common/kafka_faults.py",  # the translation
    "services/common/kafka/produce.py",  # an append: ours, with what was not done
    "services/common/kafka/reader.py",  # a read: the readers' `KafkaUnavailable`
    "services/common/kafka/admin.py",  # a topic that exists, or is gone, is no error
    "services/common/kafka/group_offsets.py",  # an error code the coordinator answers
    "services/common/registry.py", "services/replay/kafka_topics.py",  # reads, as reader's
    "services/replay/importer.py",  # its user is told which Kafka failed, and how
    "services/processor/kafka_shard_log.py",  # a producer fenced: `Fenced`
    "services/processor/fetch_session.py",  # a session forgotten, an offset out of range
}


def kafka_error(name: str) -> bool:
    """An import of aiokafka's (or kafka-python's) errors: their module, or an error by name
    from any of their modules."""
    return any(name == f"{root}.errors" or (name.startswith(f"{root}.") and (
        ".errors" in name or name.endswith(("Error", "Exception"))))
        for root in ("aiokafka", "kafka"))


def kafka_error_importers(folder: Path) -> set[str]:
    return {str(path.relative_to(ROOT)) for path in sorted(folder.rglob("*.py"))
            for _, name in imports_of(path) if kafka_error(name)}


def test_only_the_kafka_adapters_import_kafka_errors() -> None:
    assert kafka_error_importers(ROOT / "services") <= KAFKA_ADAPTERS


def test_the_kafka_check_sees_an_importer(tmp_path: Path) -> None:
    """Not empty: the translation itself imports aiokafka's errors, and a module that catches
    one of them is seen; an error imported from aiokafka's root, or kafka-python's, is one too,
    a client or a struct is not."""
    assert "services/common/kafka_faults.py" in kafka_error_importers(ROOT / "services")
    breach = tmp_path / "catches.py"
    breach.write_text("from aiokafka.errors import KafkaError\n")
    assert [line for line, name in imports_of(breach) if kafka_error(name)] == [1]
    assert [kafka_error(n) for n in ("aiokafka.errors.KafkaError", "aiokafka.KafkaError",
                                     "kafka.errors", "aiokafka.AIOKafkaProducer",
                                     "aiokafka.structs.TopicPartition")] == \
        [True, True, True, False, False]
