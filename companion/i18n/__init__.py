"""The message catalog: every phrase the box speaks or shows, in French and English.

Phrases live in TOML files beside this module, one file per domain (``table.toml`` for the engine,
``web.toml`` for the page, ...). Each file has a ``[fr]`` and an ``[en]`` table of
``key = "text with {placeholders}"``. A key missing in one language falls back to French, the
table's first language, then to the key itself, so a gap shows up as text, never as a crash.

Phrases are ICU-style messages (``companion/i18n/message.py``): ``{name}``, plurals by the
language's CLDR rules through Babel (``{count, plural, one {# carte} other {# cartes}}``) and
selects, French elision included (``{player_elision, select, vowel {d''{player}} other {de
{player}}}``) and lists (``{what, list}``: "a, b et c"). The page formats the same messages
with the browser's ``Intl.PluralRules`` and ``Intl.ListFormat``.
A ``colour`` parameter is a colour key (``red``…) and is put in the language's words
(``decks.colour_name_red``).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources

from companion.i18n.message import MessageError, format_message

LANGUAGES = ("fr", "en")


class Catalog:
    """Phrases by language; build with :meth:`load` (reads the packaged TOML files)."""

    def __init__(self, phrases: Mapping[str, Mapping[str, str]]) -> None:
        self._phrases = {lang: dict(phrases.get(lang, {})) for lang in LANGUAGES}

    @classmethod
    def load(cls) -> Catalog:
        return cls(_packaged_phrases())

    def keys(self, lang: str) -> set[str]:
        return set(self._phrases.get(lang, {}))

    def messages(self, lang: str) -> dict[str, str]:
        """Every message of ``lang`` as written (ICU-style, not yet formatted)."""
        return dict(self._phrases.get(lang, {}))

    def text(self, key: str, lang: str, params: Mapping[str, object] | None = None) -> str:
        """The phrase ``key`` in ``lang`` with ``params`` filled in."""
        template = self._phrases.get(lang, {}).get(key) or self._phrases["fr"].get(key) or key
        colour = params.get("colour") if params else None
        if isinstance(colour, str) and colour:
            named = self._phrases.get(lang, {}).get(f"decks.colour_name_{colour}")
            params = {**(params or {}), "colour": named or colour}
        try:
            return format_message(template, lang, params)
        except MessageError:
            return template  # a missing parameter must not silence the table


@functools.cache
def _packaged_phrases() -> Mapping[str, Mapping[str, str]]:
    """The packaged TOML files, read once per process: they are part of the installed program,
    and the daemon, the page and the speech process each build a catalog (the Catalog copies)."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        domain = entry.name.removesuffix(".toml")
        for lang in LANGUAGES:
            for key, text in data.get(lang, {}).items():
                merged[lang][f"{domain}.{key}"] = text
    return merged
