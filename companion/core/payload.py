"""The one payload validator: every action payload, from a phone or a script, passes here.

It checks a payload against the JSON-schema subset the action schemas use (``type``,
``properties``, ``required``, ``additionalProperties``, ``enum``, ``const``,
``minimum``/``maximum``, ``minLength``/``maxLength``, ``items``, ``minItems``/``maxItems``,
``anyOf``/``oneOf``) and returns a *clean copy*:

- every string (dictionary keys too) is valid Unicode: a lone surrogate (which JSON's ``\\ud800``
  can smuggle in and which no later write to the page or the database could encode) or a control
  character is refused; line breaks and tabs only where the schema says ``"x-multiline": true``;
- every string is in Unicode NFC, so "Chloé" typed on two phones is one player, not two;
- a one-line string shows as typed (:func:`companion.core.names.name_problem`): no invisible
  format or bidirectional control characters, no accents stacked high, something visible;
- nesting is at most :data:`MAX_DEPTH` levels, and strings, lists and objects the schema does not
  bound are capped (:data:`DEFAULT_MAX_TEXT`, :data:`DEFAULT_MAX_ITEMS`); a ``maxLength`` in the
  schema is honoured as written (a game file may be megabytes);
- numbers are finite; ``true`` is not an integer; a ``null`` field means "not given";
- an unknown field is refused naming the known one most likely meant ("did you mean").

Refusals are :class:`ActionError` naming the field, so nothing half-checked reaches the table.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import ActionError
from .names import name_problem

Pause = Callable[[], None] | None  # called between the pieces of a long text

MAX_DEPTH = 8
DEFAULT_MAX_TEXT = 200  # strings and keys whose schema sets no maxLength
DEFAULT_MAX_ITEMS = 200  # lists and objects whose schema sets no bound
FIELD_SHOWN = 60  # how much of a field path an error message repeats

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "number": (int, float),
    "integer": (int,),
}


def validate_payload(
    schema: Mapping[str, Any], payload: Any, where: str = "", pause: Pause = None
) -> dict[str, Any]:
    """The clean copy of ``payload`` (an object) checked against ``schema``; null fields are
    dropped. Raises :class:`ActionError` for the first problem found. ``pause()``, if given,
    is called between the pieces of a long text (a game file)."""
    if not isinstance(payload, dict):
        raise ActionError("bad_payload", "the payload must be a JSON object", {"field": where})
    clean = _clean(payload, schema, where, 0, pause)
    return {k: v for k, v in clean.items() if v is not None}


def check_value(schema: Mapping[str, Any], value: Any, where: str) -> Any:
    """The clean copy of one ``value`` (of any type) checked against ``schema``; raises
    :class:`ActionError` for the first problem found."""
    return _clean(value, schema, where, 0, None)


def near(name: str, known: Sequence[str]) -> str | None:
    """The known name ``name`` was most likely meant to be (a misspelling), or ``None``."""
    folded = {k.casefold(): k for k in known}
    found = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[found[0]] if found else None


def clean_text(value: str, field: str, *, max_length: int, multiline: bool = False) -> str:
    """``value`` as valid NFC text of at most ``max_length`` characters, or :class:`ActionError`."""
    return _clean_string(value, {"maxLength": max_length, "x-multiline": multiline}, field)


def shown(text: object, limit: int = FIELD_SHOWN) -> str:
    """``text`` made safe to repeat in a message: unencodable and control characters become
    U+FFFD, and it is cut to ``limit`` characters."""
    return "".join(
        "\ufffd" if _is_surrogate(ch) or unicodedata.category(ch) == "Cc" else ch
        for ch in str(text)[:limit]
    )


def _is_surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def _is_type(value: Any, name: str) -> bool:
    if name in ("number", "integer") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES.get(name, (object,)))


def _clean(value: Any, schema: Mapping[str, Any], path: str, depth: int, pause: Pause) -> Any:
    if depth > MAX_DEPTH:
        raise ActionError("input.too_deep", "nested too deeply", {"field": shown(path)})
    for combiner in ("anyOf", "oneOf"):
        options = schema.get(combiner)
        if isinstance(options, list) and options:
            return _first_match(value, options, path, depth, pause)
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        if not any(_is_type(value, n) for n in names):
            kind = " or ".join(map(str, names))
            raise ActionError(
                "bad_type",
                f"field {shown(path)!r} must be {kind}",
                {"field": shown(path), "type": kind},
            )
    if isinstance(value, str):
        value = _clean_string(value, schema, path, pause)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ActionError("bad_type", f"field {shown(path)!r} must be a finite number", _at(path))
    elif isinstance(value, list):
        value = _clean_list(value, schema, path, depth, pause)
    elif isinstance(value, dict):
        value = _clean_object(value, schema, path, depth, pause)
    _check_choice(value, schema, path)
    if isinstance(value, int | float) and not isinstance(value, bool):
        _check_range(value, schema, path)
    return value


def _first_match(value: Any, options: list[Any], path: str, depth: int, pause: Pause) -> Any:
    first: ActionError | None = None
    for option in options:
        try:
            option_schema = option if isinstance(option, dict) else {}
            return _clean(value, option_schema, path, depth + 1, pause)
        except ActionError as exc:
            first = first or exc
    assert first is not None
    raise first


# What no text may hold: controls (Cc) and lone surrogates; line breaks only where allowed.
_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_NOT_MULTILINE_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# What each refusal of a text says (in English; the catalog has both languages).
PROBLEMS = {
    "input.bad_text": "an invisible format or direction character: ",
    "input.stacked_marks": "too many accents on one letter: ",
    "input.invisible": "nothing visible",
}
_PIECE = 65_536  # a game file is searched in pieces: never one long step for other threads
_ASCII = re.compile("[\x00-\x7f]")


def _clean_string(value: str, schema: Mapping[str, Any], path: str, pause: Pause = None) -> str:
    multiline = schema.get("x-multiline") is True
    refused = _NOT_MULTILINE_TEXT if multiline else _NOT_TEXT
    for start in range(0, len(value), _PIECE):
        if pause is not None and start:
            pause()
        found = refused.search(value, start, start + _PIECE)
        if found is not None:
            code = f"U+{ord(found.group()):04X}"
            raise ActionError(
                "input.bad_text",
                f"field {shown(path)!r} holds a character that is not text ({code})",
                {"field": shown(path), "code": code},
            )
    if not value.isascii():
        value = nfc(value, pause)
        problem = None if multiline else name_problem(value)
        if problem is not None:
            key, code = problem
            raise ActionError(
                key,
                f"field {shown(path)!r} would not show as typed ({PROBLEMS[key]}{code})",
                {"field": shown(path), "code": code},
            )
    longest = schema.get("maxLength", DEFAULT_MAX_TEXT)
    shortest = schema.get("minLength", 0)
    if not shortest <= len(value.strip()) or len(value) > longest:
        raise ActionError(
            "bad_length",
            f"field {shown(path)!r} must have {shortest} to {longest} characters",
            {"field": shown(path), "min": shortest, "max": longest},
        )
    return value


def nfc(value: str, pause: Pause = None) -> str:
    """``unicodedata.normalize("NFC", value)``, a piece at a time for a long text. A piece ends
    just before an ASCII character: none composes with what comes before it, nor is reordered
    with it, so the pieces normalize alone to the same text."""
    pieces = []
    start = 0
    while len(value) - start > _PIECE:
        cut = _ASCII.search(value, start + _PIECE)
        if cut is None:
            break
        pieces.append(unicodedata.normalize("NFC", value[start : cut.start()]))
        start = cut.start()
        if pause is not None:
            pause()
    pieces.append(unicodedata.normalize("NFC", value[start:]))
    return "".join(pieces)


def _clean_list(
    value: list[Any], schema: Mapping[str, Any], path: str, depth: int, pause: Pause
) -> list[Any]:
    longest = schema.get("maxItems", DEFAULT_MAX_ITEMS)
    shortest = schema.get("minItems", 0)
    if not shortest <= len(value) <= longest:
        raise ActionError(
            "bad_length",
            f"field {shown(path)!r} must have {shortest} to {longest} items",
            {"field": shown(path), "min": shortest, "max": longest},
        )
    items = schema.get("items")
    item_schema = items if isinstance(items, dict) else {}
    return [
        _clean(item, item_schema, f"{path}[{i}]", depth + 1, pause) for i, item in enumerate(value)
    ]


def _clean_object(
    value: dict[str, Any], schema: Mapping[str, Any], path: str, depth: int, pause: Pause
) -> dict[str, Any]:
    if len(value) > schema.get("maxProperties", DEFAULT_MAX_ITEMS):
        raise ActionError("bad_length", f"{shown(path) or 'payload'}: too many fields", _at(path))
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    clean: dict[str, Any] = {}
    for raw_name, item in value.items():
        name = _clean_string(str(raw_name), {"minLength": 0}, _join(path, "?"))
        where = _join(path, name)
        if name in clean:  # two spellings of one name (NFC): which one was meant?
            raise ActionError(
                "input.duplicate_field", f"field {shown(where)!r} given twice", _at(where)
            )
        if name in properties:
            # A null field is "not given", as the hub reads it.
            clean[name] = (
                None if item is None else _clean(item, properties[name], where, depth + 1, pause)
            )
        elif extra is False:
            raise _unknown_field(name, where, list(properties))
        else:
            extra_schema = extra if isinstance(extra, dict) else {}
            clean[name] = _clean(item, extra_schema, where, depth + 1, pause)
    for name in schema.get("required", []):
        if clean.get(name) is None:
            where = _join(path, name)
            raise ActionError("missing_field", f"field {where!r} is required", _at(where))
    return clean


def _unknown_field(name: str, where: str, known: list[str]) -> ActionError:
    """An unknown field refused, naming the one most likely meant (a misspelling) and the list."""
    allowed = ", ".join(known) or "none"
    guess = near(name, known)
    if guess is None:
        return ActionError(
            "unknown_field", f"unknown field {shown(name)!r} (allowed: {allowed})", _at(where)
        )
    return ActionError(
        "unknown_field_near",
        f"unknown field {shown(name)!r}, did you mean {guess!r}? (allowed: {allowed})",
        {**_at(where), "suggestion": guess},
    )


def _check_choice(value: Any, schema: Mapping[str, Any], path: str) -> None:
    choices = [schema["const"]] if "const" in schema else schema.get("enum")
    if choices is None:
        return
    # Same type as well as equal: ``true`` is not the choice ``1``.
    if not any(type(c) is type(value) and c == value for c in choices):
        listed = ", ".join(map(str, choices))
        raise ActionError(
            "bad_choice",
            f"field {shown(path)!r} must be one of {listed}",
            {"field": shown(path), "choices": listed},
        )


def _check_range(value: float, schema: Mapping[str, Any], path: str) -> None:
    low = schema.get("minimum")
    high = schema.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ActionError(
            "bad_range",
            f"field {shown(path)!r} must be {low} to {high}",
            {
                "field": shown(path),
                "min": "" if low is None else low,
                "max": "" if high is None else high,
            },
        )


def _at(path: str) -> dict[str, str | int]:
    return {"field": shown(path) or "payload"}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
