"""An evening typed as a script and the same evening filmed by the renderer: the camera's replay.

:func:`evening` plays ``rounds`` rounds on a table engine (cards that may follow the one below,
presses as they are owed, a winner) and writes the script; :func:`film` draws each round's plays
as a folder of frames (``round_NN/frames.json``), the folder ``simulate --camera-frames`` reads.
The film is a table's, not a studio's: hands pass over the pile and rest on it, the lamp is
knocked to another light, and for two to three seconds around one card a round the picture goes
soft (a hand's shadow, the camera nudged), so the camera has questions to ask.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from companion.core.script import script_event
from companion.core.table import TableEngine
from companion.vision import render
from companion.vision.kinds import Card, deck_faces, may_follow

PLAYERS = ("Alice", "Bruno", "Chloé", "David")
BLURS = (4.0, 6.0, 8.0)  # how soft the picture goes around one card a round (Gaussian σ, px)
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
        # Every round of four plays or more has the same symbol in another colour and the same
        # card laid again (the film lays them nearly where, and a little aside of, the last).
        hard = (
            dict(zip(rng.sample(range(plays), 2), ("other_colour", "again"), strict=True))
            if plays >= 4
            else {}
        )
        for number in range(plays):
            choices = [c for c in PLAYED if may_follow(top, c) and c != top]
            same = [c for c in PLAYED if c.kind == top.kind and c.colour not in ("", top.colour)]
            if hard.get(number) == "other_colour" and same:
                choices = same
            elif hard.get(number) == "again":
                choices = [top]
            card = rng.choice(choices)
            others = [p for p in PLAYERS if p != snap["active"]]
            snap = settle(do(_line(card, rng, others)))
            this.plays.append(card)
            top = card
        filmed.append(this)
        settle(do(f"won {snap['active']}"))
    return Evening(lines, filmed)


def film(evening_: Evening, folder: Path, seed: int, *, trouble: bool = True) -> None:
    """Each round's plays filmed by the renderer, in ``folder/round_NN``; with ``trouble``,
    hands, a knocked lamp and a soft picture around one card (see the module)."""
    style = render.styles(1, seed)[0]
    deck = deck_faces("extreme")
    rng = random.Random(seed)
    for number, round_ in enumerate(evening_.rounds, start=1):
        shot = render.sequence(
            seed * 100 + number,
            style,
            deck,
            cards=tuple(round_.plays),
            start=round_.start,
            passes=int(trouble),
            rests=int(trouble),
            lamp_changes=int(trouble),
            hard=True,
        )
        where = folder / f"round_{number:02d}"
        shot.save(where)
        lead_in(where)
        if trouble:
            blurred = rng.randrange(len(shot.plays))
            landed = shot.plays[blurred].hand_left_ms + LEAD_IN_MS
            soften(where, landed, rng.choice(BLURS), rng)


LEAD_IN_MS = 1000
LEAD_OUT_MS = 6000


def lead_in(where: Path) -> None:
    """The pile still for a second before anything happens, as a camera switched on before the
    deal sees it (the watcher learns the pile before the first card), and for six seconds after
    the last card (a card too soft to read is decided once it has stayed)."""
    listing = json.loads((where / "frames.json").read_text(encoding="utf-8"))
    frames = listing["frames"]
    still = [{"file": frames[0]["file"], "t_ms": t} for t in range(0, LEAD_IN_MS, 100)]
    moving = [{**f, "t_ms": f["t_ms"] + LEAD_IN_MS} for f in frames]
    end = moving[-1]["t_ms"]  # and still for a while after the last card, as a table is
    after = [{"file": frames[-1]["file"], "t_ms": end + t} for t in range(100, LEAD_OUT_MS, 100)]
    listing["frames"] = still + moving + after
    (where / "frames.json").write_text(json.dumps(listing), encoding="utf-8")
    truth = json.loads((where / "truth.json").read_text(encoding="utf-8"))
    for play in truth["plays"]:
        play["hand_left_ms"] += LEAD_IN_MS
    (where / "truth.json").write_text(json.dumps(truth), encoding="utf-8")


def soften(
    where: Path, landed_ms: int, sigma: float, rng: random.Random, shade: float = 1.0
) -> None:
    """The saved frames from a second before ``landed_ms`` blurred for 2 to 3 s (and darkened
    to ``shade`` of their light: a hand's shadow)."""
    start = landed_ms - 1000
    end = start + rng.randint(2000, 3000)
    for frame in json.loads((where / "frames.json").read_text(encoding="utf-8"))["frames"]:
        if start <= frame["t_ms"] <= end:
            path = where / frame["file"]
            image = cv2.GaussianBlur(cv2.imread(str(path)), (0, 0), sigma)
            cv2.imwrite(str(path), cv2.convertScaleAbs(image, alpha=shade))


def film_cards(
    folder: Path, cards: list[tuple[str, str]], *, start: tuple[str, str], seed: int
) -> Path:
    """One round laying exactly ``cards`` on a pile topped by ``start``, nothing else happening,
    in ``folder/round_01`` (returned)."""
    shot = render.sequence(
        seed,
        render.styles(1, 1)[0],
        deck_faces("extreme"),
        cards=tuple(Card(*card) for card in cards),
        start=Card(*start),
        passes=0,
        rests=0,
        lamp_changes=0,
        hard=True,
    )
    where = folder / "round_01"
    shot.save(where)
    lead_in(where)
    return where
