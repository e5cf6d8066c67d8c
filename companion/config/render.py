"""``config.example.toml`` and the reference in ``docs/config.md``, written from the declarations.

Both are generated (``make config-files`` or ``uno-companion config example``/``reference``) and
a test checks that the committed files are what the declarations give, so a key's default, help
and limits are written in one place only.
"""

from __future__ import annotations

import json
import textwrap
import typing
from dataclasses import MISSING, Field
from typing import Any

from companion.core.model import as_plain, declared_fields, default_of, is_section, type_words

from . import Config

WIDTH = 100  # the project's line length
COMMENT_AT = 31  # the column of the "#" of a key's help when it fits on the key's line

EXAMPLE_HEADER = """\
# uno-companion configuration. Copy to /etc/uno-companion/config.toml (or anywhere) and pass it
# with `uno-companion run --config FILE`. Every key is optional; the values below are the defaults.
# Unknown keys and bad values are reported with the key and what is allowed; docs/config.md
# describes every key. `uno-companion config check FILE` checks a file without starting anything.
"""

# The reference's place in docs/config.md: the text between these lines is generated.
REFERENCE_START = "<!-- reference: written by `uno-companion config reference`; do not edit -->"
REFERENCE_END = "<!-- end of reference -->"


def toml_value(value: Any) -> str:
    """``value`` written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH - 2, initial_indent="# ", subsequent_indent="# ")


def _about(cls: type) -> str:
    """A section's docstring on one line ("" for none)."""
    doc = cls.__doc__ or ""
    if doc.startswith(f"{cls.__name__}("):  # the dataclass's own signature, not a docstring
        return ""
    return " ".join(doc.split())


def _help(f: Field[Any]) -> str:
    return str(f.metadata.get("help", ""))


def _key_lines(f: Field[Any], value: Any) -> list[str]:
    line = f"{f.name} = {toml_value(value)}"
    help = _help(f)
    if "example" in f.metadata and not isinstance(f.metadata["example"], dict):
        return [*_comment(help), f"# {f.name} = {toml_value(f.metadata['example'])}"]
    if not help:
        return [line]
    beside = f"{line.ljust(COMMENT_AT - 1)} # {help}"
    if len(beside) <= WIDTH:
        return [beside]
    return [*_comment(help), line]


def _section_lines(cls: type, where: str, values: Any) -> list[str]:
    about = _comment(_about(cls))
    lines = ["", f"[{where}]", *about, *([""] if about else [])]
    tables: list[tuple[Field[Any], Any]] = []
    for f, tp in declared_fields(cls):
        if is_section(tp) or typing.get_origin(tp) is dict:
            tables.append((f, tp))
            continue
        lines += _key_lines(f, as_plain(getattr(values, f.name)))
    for f, tp in tables:
        name = f"{where}.{f.name}"
        if is_section(tp):
            lines += _section_lines(tp, name, getattr(values, f.name))
            continue
        for key, example in dict(f.metadata.get("example") or {}).items():
            lines += ["", *_comment(_help(f)), f"[{name}.{key}]"]
            for item, _ in declared_fields(type(example)):
                lines.append(f"{item.name} = {toml_value(as_plain(getattr(example, item.name)))}")
    return lines


def example_toml() -> str:
    """The text of ``config.example.toml``: every section, every key at its default."""
    defaults = Config()
    lines = EXAMPLE_HEADER.rstrip("\n").split("\n")
    for f, tp in declared_fields(Config):
        lines += _section_lines(tp, f.name, getattr(defaults, f.name))
    return "\n".join(lines) + "\n"


def allowed(tp: Any, meta: Any) -> str:
    """What a key may hold, in words: its type and its limits."""
    words = type_words(tp)
    if "choices" in meta:
        return "one of " + ", ".join(f"`{c}`" for c in meta["choices"])
    low, high = meta.get("min"), meta.get("max")
    if low is not None and high is not None:
        words += f", {low} to {high}"
    elif low is not None:
        words += f", {low} or more"
    elif high is not None:
        words += f", at most {high}"
    shortest, longest = meta.get("min_length"), meta.get("max_length")
    if longest is not None:
        unit = "items" if typing.get_origin(tp) is list else "characters"
        words += f", {shortest or 0} to {longest} {unit}"
    elif shortest:
        words += ", not empty"
    return words


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _reference_section(cls: type, where: str) -> list[str]:
    lines = [f"### `[{where}]`", ""]
    if _about(cls):
        lines += [_about(cls), ""]
    lines += ["| Key | Default | Allowed | Meaning |", "| --- | --- | --- | --- |"]
    subsections: list[tuple[type, str]] = []
    for f, tp in declared_fields(cls):
        if is_section(tp):
            subsections.append((tp, f"{where}.{f.name}"))
            continue
        if typing.get_origin(tp) is dict:
            _, item = typing.get_args(tp)
            subsections.append((item, f"{where}.{f.name}.NAME"))
            shown, kind = "none", f"`[{where}.{f.name}.NAME]` tables"
        else:
            default = default_of(f)
            shown = "(required)" if default is MISSING else f"`{toml_value(as_plain(default))}`"
            kind = allowed(tp, f.metadata)
        lines.append(f"| `{f.name}` | {_cell(shown)} | {_cell(kind)} | {_cell(_help(f))} |")
    for tp, name in subsections:
        lines += ["", *_reference_section(tp, name)]
    return lines


def reference_markdown() -> str:
    """The reference of every section and key: default, what is allowed, what it means."""
    lines: list[str] = []
    for f, tp in declared_fields(Config):
        lines += [*_reference_section(tp, f.name), ""]
    return "\n".join(lines)


def with_reference(document: str) -> str:
    """``document`` (docs/config.md) with its reference rewritten from the declarations."""
    head, start, rest = document.partition(REFERENCE_START)
    _, end, tail = rest.partition(REFERENCE_END)
    if not start or not end:
        raise ValueError(f"the document has no {REFERENCE_START!r} ... {REFERENCE_END!r} lines")
    return f"{head}{REFERENCE_START}\n\n{reference_markdown()}\n{REFERENCE_END}{tail}"
