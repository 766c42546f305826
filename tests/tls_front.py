"""The TLS front for tests on the real stack: a gateway whose public address is
`https://localhost:<port>`, and Debian's nginx before it started by deploy/tls/start.sh as a
club starts it, with the self-signed certificate the script makes (`make test` installs nginx
as root; TABLESERVER_NGINX names another)."""

from __future__ import annotations

import os
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.stack import ROOT, Stack, another_gateway


@dataclass(frozen=True)
class Front:
    public: str  # the public address: https://localhost:<HTTPS port>
    http_port: int  # nginx's plain HTTP, redirected to HTTPS
    certificate: Path  # the self-signed certificate, for a client to trust
    gateway: str  # the gateway behind it, asked directly

    def client(self, token: str | None = None) -> httpx.Client:
        """A client of the public address that trusts the front's certificate (and no
        other)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.public, headers=headers, timeout=10,
                            verify=self.trust())

    def trust(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.certificate)


@contextmanager
def tls_front(stack: Stack, gateway_port: int, https_port: int, http_port: int,
              name: str) -> Iterator[Front]:
    """A gateway on `gateway_port` with its public address at nginx's `https_port` (plain
    HTTP on `http_port`); nginx's files in the stack's data folder under `name`. Both stopped
    on exit."""
    public = f"https://localhost:{https_port}"
    env = {**stack.env, "TABLESERVER_DATA": str(stack.data / name),
           "TABLESERVER_PUBLIC_URL": public, "TABLESERVER_TLS_HTTP_PORT": str(http_port),
           "TABLESERVER_TLS_ADDRESS": "127.0.0.1",
           "TABLESERVER_TLS_GATEWAYS": f"127.0.0.1:{gateway_port}",
           "TABLESERVER_NGINX": os.environ.get("TABLESERVER_NGINX", "nginx")}
    with another_gateway(stack, gateway_port, f"{name}-gateway.log",
                         {"TABLESERVER_PUBLIC_URL": public}) as gateway:
        started = subprocess.run([str(ROOT / "deploy" / "tls" / "start.sh")], cwd=ROOT, env=env,
                                 capture_output=True, text=True, timeout=120)
        assert started.returncode == 0, started.stdout + started.stderr
        try:
            yield Front(public, http_port,
                        stack.data / name / "tls" / "self-signed-localhost.crt", gateway)
        finally:
            subprocess.run([str(ROOT / "deploy" / "tls" / "stop.sh")], cwd=ROOT, env=env,
                           check=True, timeout=60)
