"""The pages' catalogues (services/gateway/web/lang/*.json, read by web/i18n.js): every
language has the same keys as English, each text the same placeholders (so that no value is
lost or left as "{name}" in a translation), a count's text its plural forms; and every key a
page module asks for by name is in the catalogue."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "services" / "gateway" / "web"
LANG = WEB / "lang"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_FORMS = {"one", "other"}  # Intl.PluralRules' categories for English and French


def catalogue(code: str) -> dict[str, str | dict[str, str]]:
    found: dict[str, str | dict[str, str]] = json.loads(
        (LANG / f"{code}.json").read_text(encoding="utf-8"))
    return found


def placeholders(entry: str | dict[str, str]) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


OTHERS = sorted(p.stem for p in LANG.glob("*.json") if p.stem != "en")


def test_there_is_a_second_language() -> None:
    assert "fr" in OTHERS


@pytest.mark.parametrize("code", OTHERS)
def test_each_language_has_englishs_keys_and_placeholders(code: str) -> None:
    english, other = catalogue("en"), catalogue(code)
    assert sorted(set(english) - set(other)) == []  # nothing left untranslated
    assert sorted(set(other) - set(english)) == []  # nothing the pages never ask for
    differing = {key: (placeholders(english[key]), placeholders(other[key]))
                 for key in english if placeholders(english[key]) != placeholders(other[key])}
    assert differing == {}
    shapes = {key: (type(english[key]).__name__, type(other[key]).__name__)
              for key in english if type(english[key]) is not type(other[key])}
    assert shapes == {}


@pytest.mark.parametrize("code", ["en", *OTHERS])
def test_no_text_is_empty_and_each_count_has_its_plural_forms(code: str) -> None:
    for key, entry in catalogue(code).items():
        if isinstance(entry, dict):
            assert set(entry) == PLURAL_FORMS, (code, key)
            assert all(text.strip() for text in entry.values()), (code, key)
        else:
            assert entry.strip(), (code, key)


def test_the_french_is_french() -> None:
    """Bridge French for the game's words (not the English left in place)."""
    fr = catalogue("fr")
    assert [fr[f"seat.{s}"] for s in "NESW"] == ["Nord", "Est", "Sud", "Ouest"]
    assert [fr[f"call.{c}"] for c in ("P", "X", "XX", "NT")] == [
        "Passe", "Contre", "Surcontre", "SA"]
    assert fr["tag.dealer"] == "donneur" and fr["plate.dummy"] == "mort"
    english = catalogue("en")
    french_too = re.compile(r"\b(?:[Tt]ables?|Points|Vugraph|tableserver)\b")
    words = {key: french_too.sub("", PLACEHOLDER.sub("", " ".join(
        text.values() if isinstance(text, dict) else [text]))) for key, text in english.items()}
    same = [k for k in english if english[k] == fr[k] and re.search(r"[a-z]{4}", words[k])]
    assert same == []  # a word of four letters or more, left in English


ASKED = re.compile(r'\b(?:t|parts)\(\s*"([\w.]+)"|data-i18n="([\w.]+)"')


def asked_keys(path: Path) -> set[str]:
    """The keys a page's module or markup names literally (`t("seat.call")`, `data-i18n`,
    `data-i18n-attr="placeholder:key"`); those built from a value (`seat.${s}`) are not."""
    text = path.read_text(encoding="utf-8")
    keys = {m.group(1) or m.group(2) for m in ASKED.finditer(text) if m.group(1) or m.group(2)}
    for attr in re.findall(r'data-i18n-attr="([^"]+)"', text):
        keys |= {pair.split(":")[1].strip() for pair in attr.split(";") if ":" in pair}
    return keys


@pytest.mark.parametrize("name", sorted(
    p.name for p in [*WEB.glob("*.js"), *WEB.glob("*.html")]
    if p.name != "i18n.js" and "i18n" in p.read_text(encoding="utf-8")))
def test_every_key_a_page_asks_for_is_in_the_catalogue(name: str) -> None:
    assert sorted(asked_keys(WEB / name) - set(catalogue("en"))) == []


STYLE_TEXT = re.compile(r"""\bcontent:\s*(["'])(.*?)\1""")


@pytest.mark.parametrize("name", sorted(p.name for p in WEB.glob("*.css")))
def test_no_style_sheet_writes_words(name: str) -> None:
    """A style sheet's `content: "…"` draws text the pseudo-language's walk cannot see (it
    reads the document's nodes): words there would stay English in every language. Symbols
    (▸, ·) are not words; a page's words come from the catalogue, as `attr(data-label)`."""
    css = (WEB / name).read_text(encoding="utf-8")
    worded = [text for _, text in STYLE_TEXT.findall(css) if re.search(r"[^\W\d_]", text)]
    assert worded == []
