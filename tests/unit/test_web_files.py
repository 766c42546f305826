"""The pages' files keep to the Content-Security-Policy they are served with
(services/gateway/http/routes/pages.py): no inline script or style, no style attribute, nothing
from another origin."""

from __future__ import annotations

import re

from services.gateway.http.routes.pages import PAGES, WEB


def test_every_page_has_its_file() -> None:
    assert all((WEB / f"{page}.html").is_file() for page in PAGES)


def test_no_inline_script_or_style_and_no_other_origin() -> None:
    for path in [p for p in [*WEB.iterdir(), *(WEB / "lang").iterdir()] if p.is_file()]:
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path.name
        assert "<style" not in text and not re.search(r"\sstyle=", text), path.name
        assert not re.search(r"\bon[a-z]+=", text), path.name  # onclick= … in HTML
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text), path.name
        assert "innerHTML" not in text and "eval(" not in text, path.name


def test_the_modules_import_only_files_of_the_folder() -> None:
    for path in WEB.glob("*.js"):
        for name in re.findall(r'from "\./([\w-]+\.js)"', path.read_text()):
            assert (WEB / name).is_file(), f"{path.name} imports {name}"
