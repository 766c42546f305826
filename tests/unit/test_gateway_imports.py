"""The gateway's process imports no double-dummy solver (services/robots/solver.py): endplay
and its imports (matplotlib among them) are the worker processes' alone
(services/gateway/tables/off_loop.py), where the hand records and a round's unfinished boards
are solved. Imported by the gateway, they cost every gateway's start 1–3.5 s and its memory
for nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gateways_process_imports_no_solver() -> None:
    script = ("import sys\n"
              "import services.gateway.app\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in "
              "('endplay', 'matplotlib') or m == 'services.robots.solver'))\n")
    found = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.strip()
    assert found == "[]"
