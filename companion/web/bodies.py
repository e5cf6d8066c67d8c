"""A large JSON request body read in pieces.

A game file comes in as one long string inside the action's JSON body (4 MB for a 26,000-round
game). ``json.loads`` of such a body is one C call that keeps Python's interpreter lock for
tens of milliseconds, and a HIT press waits behind it. Here the objects around the strings are
read key by key and a long string is decoded a slice at a time, with ``pause()`` between slices:
the same result as ``json.loads``, in steps of about a millisecond.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

SLICE = 64 * 1024  # characters of a long string decoded in one step
LONG = 2 * SLICE  # a string longer than this (from its opening quote) is decoded in slices
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# A JSON string's characters up to its closing quote (or a cut): all but quote and backslash,
# and escapes.
_STRING_CHARACTERS = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)
_HIGH_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")


def loads_in_pieces(text: str, pause: Callable[[], None]) -> Any:
    """``json.loads(text)`` for a body whose objects hold long strings; raises
    :class:`json.JSONDecodeError` (or :class:`RecursionError` for absurd nesting) as it would."""
    value, at = _value(text, _skip(text, 0), pause, depth=0)
    at = _skip(text, at)
    if at != len(text):
        raise json.JSONDecodeError("Extra data", text, at)
    return value


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _value(text: str, at: int, pause: Callable[[], None], depth: int) -> tuple[Any, int]:
    if text.startswith("{", at) and depth < 4:
        return _object(text, at, pause, depth)
    if text.startswith('"', at) and _long_string(text, at):
        return _string(text, at, pause)
    return _DECODER.raw_decode(text, at)


def _object(text: str, at: int, pause: Callable[[], None], depth: int) -> tuple[Any, int]:
    found: dict[str, Any] = {}
    at = _skip(text, at + 1)
    first = True
    while not text.startswith("}", at):
        if not first:
            at = _expect(text, at, ",")
        first = False
        if not text.startswith('"', at):
            raise json.JSONDecodeError(
                "Expecting property name enclosed in double quotes", text, at
            )
        key, at = _DECODER.raw_decode(text, at)
        at = _expect(text, at, ":")
        found[key], at = _value(text, at, pause, depth + 1)
        at = _skip(text, at)
    return found, at + 1


def _expect(text: str, at: int, mark: str) -> int:
    at = _skip(text, at)
    if not text.startswith(mark, at):
        raise json.JSONDecodeError(f"Expecting '{mark}' delimiter", text, at)
    return _skip(text, at + 1)


def _long_string(text: str, at: int) -> bool:
    return _closing_quote(text, at + 1, at + LONG) == -1 and len(text) - at >= LONG


def _closing_quote(text: str, start: int, stop: int) -> int:
    """Where the string whose characters begin at ``start`` ends (its closing quote), if that is
    before ``stop``; else -1. The search runs in the regular expression engine, not in Python:
    a game file inside a body is full of escaped quotes."""
    stop = min(stop, len(text))
    match = _STRING_CHARACTERS.match(text, start, stop)
    assert match is not None  # the pattern matches the empty string
    end = match.end()
    return end if end < stop and text[end] == '"' else -1


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    run = 0
    while at - run - 1 >= 0 and text[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _string(text: str, at: int, pause: Callable[[], None]) -> tuple[str, int]:
    """The string starting at the quote ``at``, a slice at a time; the index after it."""
    parts: list[str] = []
    start = at + 1
    while True:
        stop = min(start + SLICE, len(text))
        quote = _closing_quote(text, start, stop)
        if quote != -1:
            parts.append(json.loads(f'"{text[start:quote]}"'))
            return "".join(parts), quote + 1
        if stop == len(text):
            raise json.JSONDecodeError("Unterminated string starting at", text, at)
        cut = _safe_cut(text, start, stop)
        parts.append(json.loads(f'"{text[start:cut]}"'))
        start = cut
        pause()


def _safe_cut(text: str, start: int, stop: int) -> int:
    """A place at or before ``stop`` that splits no escape (``\\n``, ``\\u00e9``)."""
    cut = stop
    for back in range(1, 7):  # an escape is at most six characters long
        i = stop - back
        if i < start:
            break
        if text[i] == "\\" and not _escaped(text, i) and stop - i < _escape_length(text, i):
            cut = i
            break
    # nor the two halves of a surrogate pair (an emoji), which decode only together
    if (
        cut - 6 >= start
        and _HIGH_SURROGATE.fullmatch(text, cut - 6, cut)
        and not _escaped(text, cut - 6)
    ):
        cut -= 6
    return cut


def _escape_length(text: str, at: int) -> int:
    return 6 if text.startswith("\\u", at) else 2
