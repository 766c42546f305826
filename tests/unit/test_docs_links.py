"""The documents' links lead somewhere: every relative link in the README and docs/ names a
file that exists and, with a `#fragment`, a heading of that file (GitHub's anchors); and the
documents name no project issue by its number (the word and a number), which a reader
cannot follow: they name the subject, or link the section that covers it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "services" / "README.md",
                    ROOT / "deploy" / "README.md", *(ROOT / "docs").glob("*.md")])

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped (hyphens and
    underscores kept), each space a hyphen."""
    text = re.sub(r"`|\*\*|__", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text())):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in LINK.findall(FENCE.sub("", path.read_text())):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto: …: not ours to check
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target}: no heading #{fragment} in {linked.name}")
    return broken


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file_and_a_heading_that_exist(path: Path) -> None:
    assert broken_links(path) == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_names_an_issue_by_its_number(path: Path) -> None:
    text = path.read_text()
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
             for m in ISSUE.finditer(text)]
    assert found == []


SOURCES = sorted(p for folder in ("shared", "services", "tests", "bench")
                 for pattern in ("*.py", "*.js", "*.c") for p in (ROOT / folder).rglob(pattern))


def test_no_comment_or_docstring_names_an_issue_by_its_number() -> None:
    """The code's comments and docstrings too: the subject, or the doc that covers it."""
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in SOURCES
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if ISSUE.search(line)]
    assert found == []


def test_the_readme_carries_no_run_times() -> None:
    """A run's test count or duration would need editing after every run: none in the README."""
    readme = (ROOT / "README.md").read_text()
    assert re.findall(r"[\d,]+ tests\b|\d+ min \d+ s|\btests passed\b", readme) == []


def test_the_performance_figures_have_one_table_per_bench() -> None:
    """docs/performance.md: each section a table of figure, date, commit and the choice it
    justifies (the history is docs/performance-log.md), and every bench `make bench` runs named."""
    text = (ROOT / "docs" / "performance.md").read_text()
    sections = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    tables = [section.split("\n", 1)[0] for section in sections if "|---|" in section
              and "| figure | date | commit | the choice it justifies |" not in section]
    assert tables == []
    recipe = (ROOT / "Makefile").read_text().split("\nbench:", 1)[1].split("\n\n", 1)[0]
    benches = set(re.findall(r"bench/\w+\.py", recipe))
    assert benches and sorted(b for b in benches if b not in text) == []


def test_a_broken_anchor_is_found(tmp_path: Path) -> None:
    """The checker itself: a link to a heading that is not there is reported; one that is, not."""
    (tmp_path / "a.md").write_text("# Title\n\n## The live feeds (1,000 sockets)\n")
    doc = tmp_path / "b.md"
    doc.write_text("[ok](a.md#the-live-feeds-1000-sockets) [gone](a.md#the-hub) [no](c.md)\n")
    assert broken_links(doc) == ["a.md#the-hub: no heading #the-hub in a.md",
                                 "c.md: no such file"]
