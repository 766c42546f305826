"""The server's public address and the links made with it: what a player elsewhere opens.

`TABLESERVER_PUBLIC_URL` (e.g. `https://bridge.club.example`, the TLS front of deploy/tls)
is an origin: a scheme, a host and maybe a port, no path, for the pages call `/api`, `/web`
and their sockets from the root of their address. A link (`/seat#<token>`) is that origin
and the page's path; with no public address set a link stays relative, to the address the
gateway was asked at."""

from __future__ import annotations

from urllib.parse import urlsplit

SCHEMES = ("http", "https")


def public_origin(given: str) -> str:
    """`given` as an origin (`https://host[:port]`, no trailing slash), or ValueError saying
    what is wrong with it."""
    text = given.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError:
        raise ValueError(f"{given!r} is not a URL such as https://bridge.club.example") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError(f"{given!r}: give http:// or https:// and a host, such as "
                         "https://bridge.club.example")
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"{given!r}: an origin only (scheme, host, port), no path, query, "
                         "fragment or user: the pages are served from the root of it")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def public_link(base: str, link: str) -> str:
    """`link` (a page's path and fragment, `/seat#<token>`) at `base` (an origin, or "" for a
    relative link); a link that already has its address is kept as it is."""
    if not base or urlsplit(link).scheme in SCHEMES:
        return link
    return base.rstrip("/") + link


def printed_link(public_url: str | None, asked: str, link: str) -> str:
    """A link the command line prints: at the public address when it is set, else at the
    gateway it asked (`asked`); a link the gateway gave with its address stays as it is."""
    return public_link(public_url or asked.rstrip("/"), link)
