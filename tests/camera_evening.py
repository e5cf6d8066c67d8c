"""An evening typed as a script and the same evening filmed by the renderer: the camera's replay.

:func:`evening` plays ``rounds`` rounds on a table engine (cards that may follow the one below,
presses as they are owed, a winner) and writes the script; :func:`film` draws each round's plays
as a folder of frames (``round_NN/frames.json``), the folder ``simulate --camera-frames`` reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.script import script_event
from companion.core.table import TableEngine
from companion.vision import render
from companion.vision.kinds import Card, deck_faces, may_follow

PLAYERS = ("Alice", "Bruno", "Chloé")
# The faces played: numbers, the action cards, the wild, Coup Extrême (its target asked) and
# Poser Tout (its count mended on the log).
PLAYED = tuple(c for c in deck_faces("extreme"))


@dataclass
class Round:
    start: Card
    plays: list[Card] = field(default_factory=list)


@dataclass
class Evening:
    lines: list[str]
    rounds: list[Round]


def _line(card: Card, rng: random.Random, others: list[str]) -> str:
    colour = card.colour or rng.choice(("red", "yellow", "green", "blue"))
    if card.kind == "coup_extreme":
        return f"play coup_extreme {colour} target {rng.choice(others)}"
    if card.kind == "wild":
        return "play wild"
    if card.kind == "discard_all":
        return f"play discard_all {colour} count {rng.randint(2, 3)}"
    return f"play {card.kind} {colour}"


def evening(seed: int, rounds: int, plays: int = 6) -> Evening:
    rng = random.Random(seed)
    engine = TableEngine(list(PLAYERS), seed=seed)
    lines = [f"players {' '.join(PLAYERS)}"]
    filmed: list[Round] = []

    def do(text: str) -> dict[str, object]:
        lines.append(text)
        return engine.handle(script_event(text), "script").snapshot  # type: ignore[arg-type]

    def settle(snap: dict[str, object]) -> dict[str, object]:
        while snap["owed"]:
            snap = do("press")
        return snap

    numbers = [c for c in PLAYED if c.kind.isdigit()]
    for _ in range(rounds):
        start = rng.choice(numbers)
        snap = settle(do(f"start {start.kind} {start.colour}"))
        this = Round(start)
        top = start
        for _ in range(plays):
            choices = [c for c in PLAYED if may_follow(top, c) and c != top]
            card = rng.choice(choices)
            others = [p for p in PLAYERS if p != snap["active"]]
            snap = settle(do(_line(card, rng, others)))
            this.plays.append(card)
            top = card
        filmed.append(this)
        settle(do(f"won {snap['active']}"))
    return Evening(lines, filmed)


def film(evening_: Evening, folder: Path, seed: int) -> None:
    """Each round's plays filmed by the renderer, in ``folder/round_NN``."""
    style = render.styles(1, seed)[0]
    deck = deck_faces("extreme")
    for number, round_ in enumerate(evening_.rounds, start=1):
        shot = render.sequence(
            seed * 100 + number,
            style,
            deck,
            cards=tuple(round_.plays),
            start=round_.start,
            passes=0,
            lamp_changes=0,
        )
        shot.save(folder / f"round_{number:02d}")
