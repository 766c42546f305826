"""The director's requests to the gateway from the command line (`tableserver tournament`):
where they go, the token they carry, and a gateway's refusal as one line and an exit status
(`Refusal`: 2 for bad input or a 4xx, 1 for a gateway unreachable, too slow or answering
503: retry)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # httpx and the settings are imported by the commands that use them:
    import httpx  # `fold` starts faster

    from services.common.settings import Settings

EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 1
TOKEN_FILE = "director.token"


class Refusal(Exception):
    """What stops a command: the message printed (one line) and the exit status."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.message, self.code = message, code


@dataclass(frozen=True)
class Gateway:
    """Where the requests go, and the director's token they carry."""

    url: str
    token: str
    public_url: str | None = None  # TABLESERVER_PUBLIC_URL: where the links printed point


def director_token(settings: Settings) -> str:
    """`TABLESERVER_DIRECTOR_TOKEN`, else `<data>/director.token`; unlike
    `Settings.director_token` this never generates one (the gateway would not know it)."""
    if settings.director_token_given is not None:
        return settings.director_token_given.get_secret_value()
    path = settings.data_dir / TOKEN_FILE
    try:
        return path.read_text().strip()
    except OSError:
        raise Refusal(f"no director's token: set TABLESERVER_DIRECTOR_TOKEN, or TABLESERVER_DATA "
                      f"to the data folder of `make up` ({path} does not exist)") from None


def refusal_of(response: httpx.Response) -> Refusal | None:
    """None for a success; else the gateway's `error` (and `field`) as a refusal: exit 1
    and "retry" for a 5xx (Kafka or Redis down), 2 for a 4xx."""
    if response.is_success:
        return None
    try:
        body = response.json()
        error = str(body["error"])
        field = body.get("field")
    except (ValueError, KeyError, TypeError):
        error, field = f"HTTP {response.status_code}: {response.text[:200].strip()}", None
    message = error + (f" (field {field!r})" if field else "")
    if response.status_code == 401:
        message += " — the director's token is TABLESERVER_DIRECTOR_TOKEN or " \
            f"$TABLESERVER_DATA/{TOKEN_FILE}"
    if response.status_code >= 500:
        return Refusal(message if "retry" in message else f"{message}; retry",
                       EXIT_UNAVAILABLE)
    return Refusal(message)


def request(gateway: Gateway, method: str, path: str, timeout: float,
            **options: Any) -> httpx.Response:
    """One request with the director's token; a refusal for a failure of any kind."""
    import httpx

    try:
        response = httpx.request(method, gateway.url + path, timeout=timeout,
                                 headers={"Authorization": f"Bearer {gateway.token}"},
                                 **options)
    except httpx.TimeoutException:
        raise Refusal(f"the gateway at {gateway.url} did not answer within {timeout:g} s; "
                      "retry (the request is idempotent)", EXIT_UNAVAILABLE) from None
    except httpx.TransportError as exc:
        raise Refusal(f"the gateway at {gateway.url} is unreachable ({exc or type(exc).__name__};"
                      " is `make up` running? see TABLESERVER_GATEWAY_PORT or "
                      "TABLESERVER_GATEWAY); retry", EXIT_UNAVAILABLE) from None
    refused = refusal_of(response)
    if refused is not None:
        raise refused
    return response
