"""What `pip install .` installs is enough to run every module of `shared/` and `services/`:
each package they import is a runtime dependency in pyproject.toml, or one that a runtime
dependency requires. (`tableserver tournament` and the demo once imported httpx, a dev extra
only: the Dockerfile's install gave a command that failed.)"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions, requires
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_modules() -> set[str]:
    """The top-level names imported anywhere in shared/ and services/ (their own excepted)."""
    found: set[str] = set()
    for path in [*ROOT.joinpath("shared").rglob("*.py"), *ROOT.joinpath("services").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.partition(".")[0])
    return found - {"shared", "services", "__future__"} - set(sys.stdlib_module_names)


def runtime_closure() -> set[str]:
    """The runtime dependencies and, transitively, every distribution they require (extras'
    requirements left out: an install without extras does not bring them)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(spec) for spec in project["dependencies"]]
    seen: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = canonical(requirement.name)
        if name in seen or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        todo.extend(Requirement(spec) for spec in requires(name) or [])
    return seen


def test_every_imported_package_is_installed_by_pip_install_dot() -> None:
    owners = packages_distributions()
    installed = runtime_closure()
    missing = {module: owners.get(module, ["?"]) for module in imported_modules()
               if not any(canonical(d) in installed for d in owners.get(module, []))}
    assert not missing, f"imported but not a runtime dependency: {missing}"
