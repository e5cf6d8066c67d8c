"""The script language: one table event per line, for reproducible sessions and bug reports.

    # a comment; blank lines are ignored
    players Alice Bruno Chloé David     # seat the table (going left); the first deals
    dealer Bruno                        # a new round dealt by Bruno
    start hit2 red                      # a new round whose first card is an Appuyer 2x
    press                               # whoever the launcher faces presses
    press Bruno                         # ... checked to be Bruno
    play 7 red                          # the active player plays a red 7
    play reverse blue | skip | hit2 | wild | discard_all ...
    play discard_all yellow count 4     # Poser Tout laying down 4 cards in all
    play coup_extreme green target Chloé
    play skip red by Bruno              # checked to be Bruno's turn
    uno Alice                           # Alice said UNO
    contre-uno Alice                    # Alice was caught: 2 presses (also: forgot-uno)
    suggest David                       # David suggested a play: 4 presses
    reload [CARDS]   seen CARDS   jam   hand Alice 3   won Alice   eliminate Bruno
    reinstate Bruno   undo   redo
    fix 12 play reverse blue            # line 12 of the round's log was a blue reverse
    insert 12 play 5 red                # a red 5 was played before line 12
    drop 12                             # line 12 did not happen
    play draw5 | play flip | play skip_everyone | play wild_draw_colour pink   # UNO Flip
    colour-came                         # the colour asked by a Wild Draw Colour came out
    play lotso yellow                   # Toy Story 3: then who lacked the colour:
    lacked Bruno David                  # ... (no names: every opponent had it)
    play emoji red   mimic-broken Chloé # Emoji: Chloé broke the face she had to keep
    challenge guilty | innocent         # the +4 just played was challenged (when allowed)
    rule stacking on   rule deck flip   rule lotso_presses 3    # the table's house rules

Line numbers are the ``seq`` of the round's log, which every trace record carries. Names with
spaces are quoted ("Anne Marie"). Colours may be given in French (rouge, jaune,
vert, bleu). :func:`parse_line` returns the same ``(action, payload)`` pair the phone page posts,
so a script line and a tap are validated by the same code; :func:`script_event` is the table event
a line stands for (the one place a line becomes an event).
"""

from __future__ import annotations

import shlex
from typing import Any

from .actions import table_event
from .events import ALL_COLOURS, CARD_KINDS, Event
from .options import rules_schema

COLOUR_ALIASES = {
    **{c: c for c in ALL_COLOURS},
    "rouge": "red",
    "jaune": "yellow",
    "vert": "green",
    "bleu": "blue",
    "rose": "pink",
    "turquoise": "teal",
    "violet": "purple",
}
CARD_ALIASES = {
    **{k: k for k in CARD_KINDS},
    "inversion": "reverse",
    "passer": "skip",
    "appuyer2x": "hit2",
    "poser_tout": "discard_all",
    "joker": "wild",
    "coup-extreme": "coup_extreme",
    "+2": "draw2",
    "+4": "draw4",
    "wild_draw4": "draw4",  # the Super Joker +4 under its printed name
    "+1": "draw1",
    "+5": "draw5",
    "draw_colour": "wild_draw_colour",
    "skip-everyone": "skip_everyone",
}
_ONE_PLAYER = {
    "uno": "table.call_uno",
    "contre-uno": "table.contre_uno",
    "forgot-uno": "table.contre_uno",
    "suggest": "table.suggestion",
    "won": "table.round_won",
    "eliminate": "table.eliminate",
    "reinstate": "table.reinstate",
    "mimic-broken": "table.mimic_broken",
}
_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


class ScriptError(ValueError):
    """A line that does not parse; the message names what was expected."""


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ScriptError(f"{what} must be a whole number, got {word!r}") from None


def _colour(word: str) -> str:
    colour = COLOUR_ALIASES.get(word.casefold())
    if colour is None:
        raise ScriptError(f"unknown colour {word!r} (red, yellow, green, blue)")
    return colour


def _parse_play(words: list[str]) -> dict[str, Any]:
    if not words:
        raise ScriptError("play needs a card: a number 0-9 or " + ", ".join(CARD_KINDS))
    first = words.pop(0)
    payload: dict[str, Any] = {}
    if first.isdigit():
        payload["card"] = "number"
        payload["value"] = _int(first, "a number card")
    else:
        card = CARD_ALIASES.get(first.casefold())
        if card is None:
            raise ScriptError(f"unknown card {first!r} (a number 0-9 or {', '.join(CARD_KINDS)})")
        payload["card"] = card
    while words:
        word = words.pop(0)
        key = word.casefold()
        if key in ("by", "target", "count", "value"):
            if not words:
                raise ScriptError(f"{word!r} needs a value after it")
            value = words.pop(0)
            field = "player" if key == "by" else key
            payload[field] = _int(value, key) if key in ("count", "value") else value
        elif key in COLOUR_ALIASES:
            payload["colour"] = _colour(key)
        elif payload["card"] == "number" and word.isdigit() and "value" not in payload:
            payload["value"] = _int(word, "a number card")
        else:
            raise ScriptError(
                f"unexpected {word!r} in play (a colour, or: by NAME, target NAME, count N)"
            )
    return payload


def parse_line(line: str) -> tuple[str, dict[str, Any]] | None:
    """``(action, payload)`` for one script line, or None for a blank or comment line."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as exc:
        raise ScriptError(f"cannot split the line: {exc}") from None
    if not words:
        return None
    command, args = words[0].casefold(), words[1:]

    def arity(low: int, high: int) -> None:
        if not low <= len(args) <= high:
            expected = str(low) if low == high else f"{low} to {high}"
            raise ScriptError(f"{command} takes {expected} argument(s), got {len(args)}")

    if command == "players":
        if len(args) < 2:
            raise ScriptError("players needs 2 to 10 names")
        return "table.setup", {"players": args}
    if command == "dealer":
        arity(1, 1)
        return "table.start_round", {"dealer": args[0]}
    if command == "start":
        arity(0, 2)
        payload: dict[str, Any] = {}
        if args:
            card = CARD_ALIASES.get(args[0].casefold(), "number" if args[0].isdigit() else None)
            if card is None:
                raise ScriptError(f"unknown start card {args[0]!r}")
            payload["start_card"] = card
            if args[0].isdigit():
                payload["value"] = _int(args[0], "a number card")
        if len(args) == 2:
            payload["colour"] = _colour(args[1])
        return "table.start_round", payload
    if command == "press":
        arity(0, 1)
        return "table.press", {"player": args[0]} if args else {}
    if command == "play":
        return "table.play", _parse_play(args)
    if command in _ONE_PLAYER:
        arity(1, 1)
        return _ONE_PLAYER[command], {"player": args[0]}
    if command == "reload":
        arity(0, 1)
        return "table.reload", {"cards": _int(args[0], "reload")} if args else {}
    if command == "seen":
        arity(1, 1)
        return "table.cards_seen", {"cards": _int(args[0], "seen")}
    if command == "jam":
        arity(0, 0)
        return "table.jam", {}
    if command == "hand":
        arity(2, 2)
        return "table.set_hand", {"player": args[0], "cards": _int(args[1], "hand")}
    if command in ("undo", "redo"):
        arity(0, 0)
        return f"table.{command}", {}
    if command in ("fix", "insert"):
        if len(args) < 2:
            raise ScriptError(f"{command} takes a line number and what happened, e.g. play 5 red")
        seq = _int(args[0], f"{command}'s line number")
        inner = parse_line(shlex.join(args[1:]))
        assert inner is not None
        if command == "fix":
            return "table.replace", {"seq": seq, "action": inner[0], "payload": inner[1]}
        return "table.insert", {"before": seq, "action": inner[0], "payload": inner[1]}
    if command == "drop":
        arity(1, 1)
        return "table.remove", {"seq": _int(args[0], "drop's line number")}
    if command == "colour-came":
        arity(0, 0)
        return "table.colour_came", {}
    if command == "lacked":
        return "table.lacked", {"players": args}
    if command == "challenge":
        arity(1, 1)
        verdict = args[0].casefold()
        if verdict not in ("guilty", "innocent"):
            raise ScriptError(f"challenge takes guilty or innocent, got {args[0]!r}")
        return "table.challenge", {"guilty": verdict == "guilty"}
    if command == "rule":
        arity(2, 2)
        return "table.rules", {args[0]: _rule_value(args[0], args[1])}
    raise ScriptError(
        f"unknown command {words[0]!r} (players, dealer, start, press, play, uno, contre-uno, "
        "suggest, reload, seen, jam, hand, won, eliminate, reinstate, undo, redo, fix, insert, "
        "drop, colour-came, lacked, mimic-broken, challenge, rule)"
    )


def script_event(line: str) -> Event | None:
    """The table event ``line`` stands for, or None for a blank or comment line. Raises
    :class:`ScriptError` for a line that does not parse and
    :class:`~companion.core.errors.ActionError` for one whose payload the action refuses."""
    parsed = parse_line(line)
    return None if parsed is None else table_event(*parsed)


def _rule_value(name: str, word: str) -> bool | int | str:
    """The value of house rule ``name`` written as ``word`` (on/off, a number, a choice)."""
    prop = rules_schema()["properties"].get(name)
    if prop is None:
        raise ScriptError(f"unknown rule {name!r}")
    if prop["type"] == "boolean":
        if word.casefold() not in _SWITCH:
            raise ScriptError(f"rule {name} takes on or off, got {word!r}")
        return _SWITCH[word.casefold()]
    if prop["type"] == "integer":
        return _int(word, f"rule {name}")
    return word
