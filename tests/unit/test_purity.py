"""`shared/` is the pure core: no I/O, no clock, no randomness, no infrastructure imports."""

import ast
from pathlib import Path

SHARED = Path(__file__).parents[2] / "shared"
FORBIDDEN_MODULES = {
    "aiokafka", "faust", "redis", "fastapi", "starlette", "uvicorn", "aiohttp", "httpx",
    "kafka", "socket", "asyncio", "os", "io", "pathlib", "sys", "subprocess", "time",
    "datetime", "random", "secrets", "uuid", "threading", "logging",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def impurities(source: str) -> list[str]:
    """What in `source` reaches outside the pure core."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module \
                and node.module.split(".")[0] in FORBIDDEN_MODULES:
            found.append(node.module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in FORBIDDEN_CALLS:
            found.append(f"{node.func.id}()")
    return found


def test_shared_is_pure() -> None:
    files = sorted(SHARED.rglob("*.py"))
    assert len(files) >= 8
    assert {p.name: impurities(p.read_text()) for p in files if impurities(p.read_text())} == {}


def test_the_check_sees_impurity() -> None:
    source = "import redis\nfrom time import time\nimport json\nprint(open('x'))\n"
    assert impurities(source) == ["redis", "time", "print()", "open()"]
