"""The query strings the API's GET routes take, declared once: the route reads its bounds here and
``/api/openapi.json`` publishes them (:mod:`companion.web.openapi`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.model import declared_fields, option, type_schema
from companion.i18n import LANGUAGES

PAGE_DEFAULT, PAGE_LIMIT = 50, 200  # rounds in one page of the history


@dataclass(frozen=True)
class RoundsQuery:
    """A page of the current game's rounds."""

    before: int | None = option(
        None, "rounds numbered below this one (default: up to the last)", min=1, max=10**9
    )
    limit: int | None = option(
        None,
        f"at most this many rounds, the latest of them (default {PAGE_DEFAULT})",
        min=1,
        max=PAGE_LIMIT,
    )


@dataclass(frozen=True)
class LanguageQuery:
    """What a GET writes in words: the page's language, else Accept-Language, else the table's."""

    lang: str | None = option(
        None,
        "the language of the words (fr or en); French sheets have ';' columns",
        choices=LANGUAGES,
    )


# The query strings a GET takes.
QUERIES: dict[str, type] = {
    "/api/export.csv": LanguageQuery,
    "/api/chart.svg": LanguageQuery,
    "/api/score/rounds": RoundsQuery,
}


def bounds(query: type, name: str) -> tuple[int, int]:
    """The lowest and highest whole number field ``name`` of ``query`` takes."""
    meta = {f.name: f.metadata for f, _ in declared_fields(query)}[name]
    return int(meta["min"]), int(meta["max"])


def query_parameters(query: type) -> list[dict[str, Any]]:
    """The OpenAPI parameters of ``query``: every field optional, with its help and limits."""
    return [
        {
            "name": f.name,
            "in": "query",
            "required": False,
            "description": f.metadata["help"],
            "schema": type_schema(tp, f.metadata),
        }
        for f, tp in declared_fields(query)
    ]
