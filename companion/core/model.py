"""Declared data: one frozen dataclass per configuration section, house-rules set and payload.

A field declared with :func:`option` carries its default, its help text and what a value may be
(``choices``, ``min``/``max``, ``min_length``/``max_length``, ``multiline``). Everything else is
read from that one declaration:

- :func:`json_schema`: the JSON schema of the dataclass, which the phone page's API publishes
  (``/api/openapi.json``) and :func:`companion.core.payload.validate_payload` checks payloads
  against;
- :func:`parse`: a typed instance built from a parsed TOML or JSON document, every problem found
  listed at once (each naming its key and what is allowed; a misspelt key gets "did you mean");
  each value passes the payload validator's text checks too (valid Unicode, NFC, visible);
- the help and defaults that the configuration reference and ``config.example.toml`` are
  written from (:mod:`companion.config.render`).

Checks that involve several fields of one section live on the section as a method
``check(self, where) -> list[str]``, run by :func:`parse` after its fields are read.
Plain Python and the standard library only, as the rest of the core.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import MISSING, Field, field, fields, is_dataclass
from typing import Any, TypeVar

from .errors import ActionError
from .payload import check_value, near, shown

T = TypeVar("T")


def option(
    default: Any = MISSING,
    help: str = "",
    *,
    choices: Sequence[Any] | None = None,
    min: float | None = None,
    max: float | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    multiline: bool = False,
    items: Mapping[str, Any] | None = None,
    example: Any = None,
) -> Any:
    """A field with its help text and what its value may be. ``min``/``max`` bound a number,
    ``min_length``/``max_length`` a text (characters) or a list (items); ``example`` is shown in
    the example file instead of the default (a custom profile, a path left commented out);
    ``items`` holds the rules of each item of a list or value of a table (``{"max_length": 40}``).
    Without ``default`` the field is required (declare the dataclass ``kw_only``)."""
    rules = {
        "choices": tuple(choices) if choices is not None else None,
        "min": min,
        "max": max,
        "min_length": min_length,
        "max_length": max_length,
        "multiline": multiline or None,
        "items": dict(items) if items is not None else None,
        "example": example,
    }
    meta = {"help": help, **{k: v for k, v in rules.items() if v is not None}}
    if default is MISSING:
        return field(metadata=meta)
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    if is_dataclass(default):
        return field(default_factory=lambda: default, metadata=meta)
    return field(default=default, metadata=meta)


def declared_fields(cls: type) -> tuple[tuple[Field[Any], Any], ...]:
    """Each field of dataclass ``cls`` with its resolved type."""
    return _resolved(typing.cast(Hashable, cls))


@functools.cache
def _resolved(cls: Any) -> tuple[tuple[Field[Any], Any], ...]:
    # Read once per class: resolving the annotations is most of the time a check takes.
    hints = typing.get_type_hints(cls)
    return tuple((f, hints[f.name]) for f in fields(cls))


def default_of(f: Field[Any]) -> Any:
    """The default value of field ``f`` (``MISSING`` for a required field)."""
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


def is_section(tp: Any) -> bool:
    return isinstance(tp, type) and is_dataclass(tp)


def _optional(tp: Any) -> Any:
    """``X`` for ``X | None`` (a payload's null field means "not given"), else ``tp``."""
    args = typing.get_args(tp)
    if type(None) in args and len(args) == 2:
        return next(a for a in args if a is not type(None))
    return tp


_JSON_TYPES: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}


def json_schema(cls: type) -> dict[str, Any]:
    """The JSON schema of dataclass ``cls``: an object with exactly its fields, the required ones
    being those without a default; each field's help is its ``description``."""
    props: dict[str, Any] = {}
    required: list[str] = []
    for f, tp in declared_fields(cls):
        prop = type_schema(tp, f.metadata)
        if f.metadata.get("help"):
            prop["description"] = f.metadata["help"]
        default = default_of(f)
        if default is MISSING:
            required.append(f.name)
        elif default is not None and not is_section(type(default)):
            prop["default"] = default
        props[f.name] = prop
    schema: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }
    if cls.__doc__ and not cls.__doc__.startswith(f"{cls.__name__}("):
        schema["description"] = " ".join(cls.__doc__.split())
    return schema


def type_schema(tp: Any, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON schema of one value of type ``tp`` with the field's ``meta`` rules."""
    meta = meta or {}
    tp = _optional(tp)
    origin = typing.get_origin(tp)
    schema: dict[str, Any]
    if is_section(tp):
        return json_schema(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        schema = {"type": "array", "items": type_schema(item, meta.get("items"))}
        if "min_length" in meta:
            schema["minItems"] = meta["min_length"]
        if "max_length" in meta:
            schema["maxItems"] = meta["max_length"]
        return schema
    if origin is dict:
        _, value = typing.get_args(tp)
        schema = {"type": "object"}
        if value is not Any:  # Any: checked by what reads it
            schema["additionalProperties"] = type_schema(value, meta.get("items"))
        if "max_length" in meta:
            schema["maxProperties"] = meta["max_length"]
        return schema
    schema = {"type": _JSON_TYPES[tp]}
    if "choices" in meta:
        schema["enum"] = list(meta["choices"])
    if "min" in meta:
        schema["minimum"] = meta["min"]
    if "max" in meta:
        schema["maximum"] = meta["max"]
    if "min_length" in meta:
        schema["minLength"] = meta["min_length"]
    if "max_length" in meta:
        schema["maxLength"] = meta["max_length"]
    if meta.get("multiline"):
        schema["x-multiline"] = True
    return schema


def unknown_name(where: str, name: str, known: Sequence[str], what: str = "key") -> str:
    """The problem of an unknown ``name`` at ``where``: the likely one first, then the list."""
    guess = near(name, known)
    hint = f", did you mean {guess!r}?" if guess is not None else ""
    return f"{where}: unknown {what}{hint} (allowed: {', '.join(known) or 'none'})"


def parse(cls: type[T], data: Any, where: str, problems: list[str]) -> T:
    """Dataclass ``cls`` built from ``data``, appending each problem found to ``problems``: a
    field at fault keeps its default, so every other problem is still found. At the top level
    (``where`` empty) the keys are sections."""
    if not isinstance(data, dict):
        problems.append(f"{where}: expected a table, got {data!r}")
        return cls()
    known = {f.name: (f, tp) for f, tp in declared_fields(cls)}
    # Keys an older release wrote and this one no longer needs: read past, so an old file
    # still loads (each is named, with why, in the section's docstring).
    retired: frozenset[str] = getattr(cls, "RETIRED_KEYS", frozenset())
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{where}.{key}" if where else str(key)
        if key in retired:
            continue
        if key not in known:
            what = "key" if where else "section"
            problems.append(unknown_name(name, str(key), list(known), what))
            continue
        f, tp = known[key]
        checked = _parse_value(tp, value, name, f.metadata, problems)
        if checked is not MISSING:
            values[key] = checked
    built = cls(**values)
    check = getattr(built, "check", None)
    if callable(check):
        problems.extend(check(where))
    return built


def _parse_value(tp: Any, value: Any, name: str, meta: Mapping[str, Any], out: list[str]) -> Any:
    if is_section(tp):
        return parse(tp, value, name, out)
    if typing.get_origin(tp) is dict:
        _, item = typing.get_args(tp)
        if not isinstance(value, dict):
            out.append(f"{name}: expected a table, got {value!r}")
            return MISSING
        return {k: _parse_value(item, v, f"{name}.{k}", {}, out) for k, v in value.items()}
    if typing.get_origin(tp) is list and isinstance(value, list):
        # Each item checked alone, so every item at fault is listed.
        (item_tp,) = typing.get_args(tp)
        rules = meta.get("items", {})
        items = [_parse_value(item_tp, v, f"{name}[{i}]", rules, out) for i, v in enumerate(value)]
        if MISSING in items:
            return MISSING
        value = items
    try:
        clean = check_value(type_schema(tp, meta), value, name)
    except ActionError as error:
        out.append(_problem(error, tp, value, name, meta))
        return MISSING
    return _typed(tp, clean)


def _typed(tp: Any, value: Any) -> Any:
    """``value`` as ``tp`` holds it: a TOML or JSON whole number where a float is declared is a
    float."""
    if tp is float and isinstance(value, int):
        return float(value)
    if typing.get_origin(tp) is list:
        (item,) = typing.get_args(tp)
        return [_typed(item, v) for v in value]
    return value


def type_words(tp: Any) -> str:
    """What a value of type ``tp`` is, in words."""
    tp = _optional(tp)
    origin = typing.get_origin(tp)
    if origin is list:
        item = typing.get_args(tp)[0]
        plural = {bool: "true or false", int: "whole numbers", float: "numbers", str: "strings"}
        return f"a list of {plural.get(item, type_words(item))}"
    if origin is dict or is_section(tp):
        return "a table"
    words = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}
    return words.get(tp, getattr(tp, "__name__", str(tp)))


def _problem(error: ActionError, tp: Any, value: Any, name: str, meta: Mapping[str, Any]) -> str:
    """The payload validator's refusal said for a file: the key, what it holds, what is allowed."""
    key = error.key.removeprefix("errors.")
    at = str(error.params.get("field", name))
    if key == "bad_type" and at == name:
        return f"{name}: expected {type_words(tp)}, got {value!r}"
    if key == "bad_choice" and at == name:
        return f"{name}: {value!r} is not one of {', '.join(map(str, meta['choices']))}"
    if key == "bad_range" and at == name:
        if "min" in meta and value < meta["min"]:
            return f"{name}: {value!r} is below the minimum {meta['min']}"
        return f"{name}: {value!r} is above the maximum {meta['max']}"
    if key == "bad_length":
        low, high = error.params.get("min"), error.params.get("max")
        unit = "items" if isinstance(value, list) and at == name else "characters"
        return f"{at}: expected {low} to {high} {unit}, got {shown(value)!r}"
    # Text that is not text, an item of a list: the validator's own words, after the place.
    return f"{at}: {str(error).replace(f'field {shown(at)!r} ', '')}"


def problems_of(instance: object, where: str = "") -> list[str]:
    """The problems of a dataclass built in code (not read from a file): it is checked as the
    document it would be written as."""
    problems: list[str] = []
    parse(type(instance), as_plain(instance), where, problems)
    return problems


def as_plain(value: Any) -> Any:
    """``value`` as the TOML or JSON document it would be written as, the keys left at their
    default left out."""
    if is_section(type(value)):
        return {
            f.name: as_plain(getattr(value, f.name))
            for f in fields(value)
            if getattr(value, f.name) != default_of(f)
        }
    if isinstance(value, dict):
        return {k: as_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_plain(v) for v in value]
    return value
