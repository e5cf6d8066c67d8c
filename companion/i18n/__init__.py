"""The message catalog: every phrase the box speaks or shows, in French and English.

Phrases live in TOML files beside this module, one file per domain (``table.toml`` for the engine,
``web.toml`` for the page, ...). Each file has a ``[fr]`` and an ``[en]`` table of
``key = "text with {placeholders}"``. A key missing in one language falls back to French, the
table's first language, then to the key itself, so a gap shows up as text, never as a crash.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources

LANGUAGES = ("fr", "en")


class Catalog:
    """Phrases by language; build with :meth:`load` (reads the packaged TOML files)."""

    def __init__(self, phrases: Mapping[str, Mapping[str, str]]) -> None:
        self._phrases = {lang: dict(phrases.get(lang, {})) for lang in LANGUAGES}

    @classmethod
    def load(cls) -> Catalog:
        merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
        for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".toml"):
                continue
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            domain = entry.name.removesuffix(".toml")
            for lang in LANGUAGES:
                for key, text in data.get(lang, {}).items():
                    merged[lang][f"{domain}.{key}"] = text
        return cls(merged)

    def keys(self, lang: str) -> set[str]:
        return set(self._phrases.get(lang, {}))

    def text(self, key: str, lang: str, params: Mapping[str, object] | None = None) -> str:
        """The phrase ``key`` in ``lang`` with ``params`` filled in."""
        template = self._phrases.get(lang, {}).get(key) or self._phrases["fr"].get(key) or key
        try:
            return template.format(**(params or {}))
        except (KeyError, IndexError, ValueError):
            return template  # a missing parameter must not silence the table
