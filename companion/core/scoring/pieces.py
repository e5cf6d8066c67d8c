"""Reading and letting go of a long game file a piece at a time.

A 26,000-round game file is about a million objects: read in one call, or freed at once, it is
one long step. Here a top-level object's lists are read an item at a time and freed a slice at a
time, with ``pause()`` between pieces so the table's own work goes first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from companion.core.scoring.tally import PAUSE_EVERY

Pause = Callable[[], None] | None


def drop_in_pieces(data: Any, pause: Pause) -> None:
    """Let go of a read file's long lists a piece at a time: a 26,000-round file is about a
    million objects, and freeing them all at once is one long step (tens of milliseconds)."""
    if pause is None or not isinstance(data, dict):
        return
    for value in data.values():
        if isinstance(value, list):
            while value:
                del value[-PAUSE_EVERY * 8 :]
                pause()


_SPACE = re.compile(r"[ \t\n\r]*")


def json_in_pieces(text: str, pause: Pause) -> Any:
    """``json.loads(text)``, but a top-level object's lists are read one item at a time with
    ``pause()`` every :data:`PAUSE_EVERY` items: a 5 MB game file is never one long step."""
    decoder = json.JSONDecoder()
    at = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    if not text.startswith("{", at):
        return decoder.decode(text)
    data: dict[str, Any] = {}
    at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
    while not text.startswith("}", at):
        if data:
            at = _expect(text, at, ",")
        key, at = decoder.raw_decode(text, at)
        if not isinstance(key, str):
            raise json.JSONDecodeError(
                "Expecting property name enclosed in double quotes", text, at
            )
        at = _expect(text, _SPACE.match(text, at).end(), ":")  # type: ignore[union-attr]
        if text.startswith("[", at):
            data[key], at = _list_in_pieces(decoder, text, at, pause)
        else:
            data[key], at = decoder.raw_decode(text, at)
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
    at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
    if at != len(text):
        raise json.JSONDecodeError("Extra data", text, at)
    return data


def _list_in_pieces(
    decoder: json.JSONDecoder, text: str, at: int, pause: Pause
) -> tuple[list[Any], int]:
    items: list[Any] = []
    at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
    while not text.startswith("]", at):
        if items:
            at = _expect(text, at, ",")
        item, at = decoder.raw_decode(text, at)
        items.append(item)
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
        if pause is not None and len(items) % PAUSE_EVERY == 0:
            pause()
    return items, at + 1


def _expect(text: str, at: int, mark: str) -> int:
    """Past ``mark`` at ``at`` and the white space after it."""
    if not text.startswith(mark, at):
        raise json.JSONDecodeError(f"Expecting '{mark}' delimiter", text, at)
    return _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
