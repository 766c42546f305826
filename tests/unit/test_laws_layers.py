"""`shared/laws/` is one module a family of Laws, layered: each imports only families below it,
so the package has no import cycle (a cycle would make the order of imports matter)."""

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

LAWS = Path(__file__).parents[2] / "shared" / "laws"


def imports_of_laws() -> dict[str, set[str]]:
    """Module → the modules of `shared.laws` it imports (the package's `__init__` aside)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(LAWS.glob("*.py")):
        if path.stem == "__init__":
            continue
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module \
                    and node.module.startswith("shared.laws."):
                found.add(node.module.removeprefix("shared.laws."))
        graph[path.stem] = found
    return graph


def test_the_families_of_laws_import_no_cycle() -> None:
    graph = imports_of_laws()
    assert len(graph) >= 10 and "common" in graph and graph["common"] <= {
        "citations", "director_messages"}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise AssertionError(f"an import cycle in shared/laws: {exc.args[1]}") from None
    assert order.index("common") < order.index("calls")


def test_the_engine_finds_every_handler_in_the_package() -> None:
    import shared.laws

    assert all(callable(getattr(shared.laws, name)) for name in shared.laws.__all__)
    assert {"on_call", "on_option", "on_ruling", "on_question"} <= set(shared.laws.__all__)
