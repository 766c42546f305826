"""Schemathesis over the gateway's OpenAPI, on the real stack: whatever it generates from the
live schema (paths, queries, headers and, wherever the schema declares them, bodies; valid and
invalid), no answer is a 5xx and no request is left unanswered.

Each operation gets schemathesis's two phases, as `schemathesis run` would: coverage (boundary
values, wrong types, missing fields, other methods and content types; a fixed list) and
fuzzing (Hypothesis, derandomized: the same requests on every run). Every operation is tried
with the director's token; the table's routes also with a seat's. Most requests name a table
the test created, so that they reach the routes' own checks and not only a 404; fuzzing names
whatever table schemathesis makes up in the rest.

Schemathesis's own pytest integration (`schema.parametrize()`) is not used: it fails under
pytest 9 (it sets `Function._nodeid`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import pytest
import redis
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis.errors import Unsatisfiable
from hypothesis.strategies import SearchStrategy
from schemathesis import APIOperation, BaseSchema, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Err
from schemathesis.errors import FailureGroup
from schemathesis.transport.requests import ManagedCookiesSession

from services.common.names import HISTORY_RATE
from tests.helpers import new_table, wait_for
from tests.stack import Stack

TABLE = "fuzz1"
# Fuzzed requests per operation, generation mode and token. The coverage phase before them
# already sends each operation its boundary values, wrong types, missing fields, other methods
# and content types. Of the kinds of answer (status, field, message less the values it quotes)
# fuzzing reached beyond coverage with 25, 15 still reaches 84 of 103 for the director (and 3
# others), 12 of 16 for a seat (and 1 other); those it misses are answers of the gateway's
# shared body parsing or of an unknown tournament, which other operations still get. For 40%
# fewer fuzzed requests: their generation is most of this test's CPU.
MAX_EXAMPLES = 15
MAX_COVERAGE = 150  # coverage requests per operation and token (the gateway's need ~10-40)
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
TIMEOUT = 10  # seconds a request may take; longer is a finding (a hang)

Operation = APIOperation[Any, Any, Any, Any]
ApiCase = Case[Any]


@dataclass(frozen=True)
class Finding:
    """A request that got a 5xx, or no answer at all."""

    operation: str
    request: str  # a curl command that repeats it
    status: int | None  # None: no answer (connection dropped, timeout)
    response: str

    def __str__(self) -> str:
        answer = f"{self.status} {self.response}" if self.status else self.response
        return f"{self.operation}\n    request: {self.request}\n    answer: {answer}"


@dataclass(frozen=True)
class Client:
    """Where the requests go and with which token: one keep-alive session for all of a test's
    requests, as `schemathesis run` keeps one (the cookies of an answer dropped before the next
    request). Not a session per request, as `Case.call` makes without one: a new session and
    connection each time cost CPU on both sides."""

    session: requests.Session
    base_url: str
    headers: dict[str, str]


@pytest.fixture(scope="module")
def api(stack: Stack) -> BaseSchema:
    """The schema the running gateway serves."""
    return schemathesis.openapi.from_url(f"{stack.url}/openapi.json", timeout=TIMEOUT)


@pytest.fixture(scope="module")
def tokens(stack: Stack) -> Iterator[dict[str, Any]]:
    """The test's table, created with a board started: its seats' and spectator's tokens.
    Afterwards, a wait until every token's /history budget is full again, so that the tests
    after this one are not refused."""
    yield new_table(stack, TABLE)
    wait_for(lambda: not _history_limits(stack), 30, "every /history budget full again")


def _history_limits(stack: Stack) -> list[bytes]:
    """The /history limits' keys in Redis: a key expires once its budget is full again
    (services/gateway/http/limits.py)."""
    client = redis.Redis(port=stack.redis_port)
    try:
        return list(client.scan_iter(match=HISTORY_RATE + "*"))
    finally:
        client.close()


def operations(api: BaseSchema, keep: Callable[[Operation], bool]) -> list[Operation]:
    """The schema's operations that `keep` selects; a part of the schema that cannot be read
    fails the test."""
    found = []
    for result in api.get_all_operations():
        if isinstance(result, Err):
            raise result.err()
        if keep(operation := result.ok()):
            found.append(operation)
    return found


def is_table_route(operation: Operation) -> bool:
    """Whether the operation is one of a table's (its path names the table)."""
    return "{table}" in operation.path


def cases(operation: Operation, mode: GenerationMode) -> SearchStrategy[ApiCase]:
    """Requests for `operation`; a table's routes mostly at the test's table."""
    if not is_table_route(operation):
        return operation.as_strategy(mode)
    at_table = operation.as_strategy(mode, path_parameters={"table": TABLE})
    return st.one_of(at_table, at_table, at_table, operation.as_strategy(mode))


def at_table(case: ApiCase) -> ApiCase:
    """`case`, at the test's table if its path names one."""
    if case.path_parameters and "table" in case.path_parameters:
        case.path_parameters["table"] = TABLE
    return case


def coverage_cases(operation: Operation) -> list[ApiCase]:
    """Schemathesis's coverage phase for `operation`, valid and invalid, at the test's table."""
    schema = operation.schema
    generation = schema.config.generation_for(operation=operation, phase="coverage")
    cases = schema.iter_coverage_cases(operation, generation_modes=list(MODES),
                                       generation_config=generation)
    return [at_table(case) for case in islice(cases, MAX_COVERAGE)]


def send(case: ApiCase, client: Client) -> Finding | None:
    """Send one request; a Finding if its answer is a 5xx or there is none."""
    try:
        response = case.call(base_url=client.base_url, session=client.session,
                             headers=client.headers, timeout=TIMEOUT)
    except requests.RequestException as exc:
        return Finding(case.operation.label, curl(case, client), None, f"no answer: {exc!r}")
    try:
        case.validate_response(response, checks=[not_a_server_error], headers=client.headers)
    except FailureGroup:
        return Finding(case.operation.label, curl(case, client), response.status_code,
                       response.text[:300])
    return None


def curl(case: ApiCase, client: Client) -> str:
    """A curl command that repeats `case`: made for a finding only, not for every request."""
    return case.as_curl_command(client.headers, base_url=client.base_url)


def fuzz(operation: Operation, mode: GenerationMode, client: Client) -> list[Finding]:
    """Up to MAX_EXAMPLES requests for `operation`, the same ones on every run. An operation
    with nothing that can be made invalid (no body, only free strings) has no negative cases."""
    found: list[Finding] = []

    @settings(max_examples=MAX_EXAMPLES, derandomize=True, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=cases(operation, mode))
    def run(case: ApiCase) -> None:
        finding = send(case, client)
        if finding is not None:
            found.append(finding)

    try:
        run()
    except Unsatisfiable:
        if mode is not GenerationMode.NEGATIVE:
            raise
    return found


def cover(operation: Operation, client: Client) -> list[Finding]:
    """Every coverage case of `operation`."""
    return [finding for case in coverage_cases(operation)
            if (finding := send(case, client)) is not None]


def fuzz_all(selected: list[Operation], base_url: str, token: str) -> list[Finding]:
    """Every selected operation, its coverage cases then fuzzing in both generation modes; one
    finding per operation and answer (the shortest request that got it)."""
    with ManagedCookiesSession() as session:
        # the stack on this host, straight: no proxy, nor a ~/.netrc login replacing the token
        session.trust_env = False
        client = Client(session, base_url, {"Authorization": f"Bearer {token}"})
        found = [finding for operation in selected for finding in cover(operation, client)]
        found += [finding for operation in selected for mode in MODES
                  for finding in fuzz(operation, mode, client)]
    first: dict[tuple[str, int | None, str], Finding] = {}
    for finding in sorted(found, key=lambda f: len(f.request)):
        first.setdefault((finding.operation, finding.status, finding.response[:80]), finding)
    return list(first.values())


def report(findings: list[Finding]) -> str:
    """The findings, for the assertion's message."""
    return f"{len(findings)} server errors:\n" + "\n".join(str(f) for f in findings)


def test_no_operation_answers_the_director_with_a_server_error(
        stack: Stack, api: BaseSchema, tokens: dict[str, Any]) -> None:
    selected = operations(api, lambda operation: True)
    assert any(is_table_route(op) for op in selected), "the schema has no table routes"
    findings = fuzz_all(selected, stack.url, stack.director)
    assert not findings, report(findings)


def test_no_table_route_answers_a_seat_with_a_server_error(
        stack: Stack, api: BaseSchema, tokens: dict[str, Any]) -> None:
    findings = fuzz_all(operations(api, is_table_route), stack.url, tokens["seats"]["N"])
    assert not findings, report(findings)
