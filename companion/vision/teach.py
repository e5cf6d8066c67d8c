"""Teaching the box a family's own deck: each card shown once (or a folder of labelled photos).

A photo is a frame of the tray with one card on top; its corner index is found as when reading,
looked at again turned, nearer and farther, and the shipped model's two heads are moved to fit
those looks (:func:`.model.adapt`): the networks stay, so a lesson takes seconds, and what the
family did not show keeps the shipped model's knowledge.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import numpy as np

from .kinds import COLOURLESS, KINDS, Card, parse_card
from .model import Model, adapt
from .net import COLOURS, Spot, crop
from .outline import Top, find_outline
from .reader import Found
from .sources import SourceError, load_image
from .taught import TaughtFaces
from .types import Image

LOOKS = 16  # views of each card shown: turned all round, a little nearer, farther, aside


class TeachError(ValueError):
    """Labels or photos that cannot teach a deck; the message names the file and line."""


class Lesson:
    """A guided teach: each card shown to the camera in turn, then the deck learned at once."""

    def __init__(self, default: Model) -> None:
        self.default = default
        self._shown: list[tuple[Image, Card]] = []

    def show(self, image: Image, card: Card) -> bool:
        """Keeps the frame if a whole card is seen in it (else show it again)."""
        if find_outline(image) is None and self.default.find(image) is None:
            return False
        self._shown.append((image, card))
        return True

    @property
    def shown(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self._shown)

    def model(self) -> Model:
        return teach(self._shown, self.default)


def read_labels(folder: Path) -> list[tuple[Path, Card]]:
    """``folder/labels.csv``: ``file,kind,colour`` a line (a header line is allowed)."""
    if not folder.is_dir():
        raise TeachError(f"{folder}: no such folder")
    path = folder / "labels.csv"
    if not path.is_file():
        raise TeachError(f"{folder}: no labels.csv (one line per photo: file,kind,colour)")
    labels = []
    with path.open(encoding="utf-8", newline="") as lines:
        for number, row in enumerate(csv.reader(lines), start=1):
            if not row or not "".join(row).strip() or row[0].strip().startswith("#"):
                continue
            if number == 1 and row[0].strip().casefold() == "file":
                continue
            if len(row) < 2:
                raise TeachError(f"{path}:{number}: expected file,kind,colour")
            colour = row[2] if len(row) > 2 else ""
            try:
                card = parse_card(row[1], colour)
            except ValueError as exc:
                raise TeachError(f"{path}:{number}: {exc}") from None
            labels.append((folder / row[0].strip(), card))
    if not labels:
        raise TeachError(f"{path}: no labelled photo")
    return labels


def teach(pictures: Iterable[tuple[Image, Card]], default: Model, *, seed: int = 0) -> Model:
    """A model of the deck the pictures show; :class:`TeachError` when too little was seen.

    Each picture teaches twice: the card found whole by its outline becomes a taught face (read
    again by likeness, see :mod:`.taught`), and its corner index, found by the finder, moves the
    heads toward what the family's printing looks like."""
    rng = np.random.default_rng(seed)
    embeddings = []
    kinds: list[int] = []
    colours: list[int] = []
    straightened: list[tuple[Image, Card]] = []
    shown = missed = 0
    for image, card in pictures:
        top = find_outline(image)
        found = default.find(image)
        if top is not None and _shows(default, top, found, card):
            straightened.append((top.card, card))
        if found is None and top is None:
            missed += 1
            continue
        shown += 1
        if found is None:
            continue
        embeddings.append(default.networks.embed(_views(image, found.spot, rng)))
        kinds += [KINDS.index(card.kind)] * LOOKS
        colour = "black" if card.kind in COLOURLESS else card.colour
        colours += [COLOURS.index(colour)] * LOOKS
    if not shown:
        raise TeachError("no card was found in any photo (is the card on the tray, in view?)")
    if len({card for _, card in straightened}) < 2 and len(set(kinds)) < 2:
        raise TeachError("show at least two kinds of card")
    origin = f"taught: {shown} photos ({missed} without a card found)"
    model = default
    if len(set(kinds)) >= 2:
        model = adapt(default, np.concatenate(embeddings), kinds, colours, origin=origin)
    faces = TaughtFaces.from_cards(straightened) if len(straightened) >= 2 else None
    return replace(model, taught=faces, origin=origin)


def _shows(default: Model, top: Top, found: Found | None, card: Card) -> bool:
    """Whether the card found by its outline may be the card the label names: the shipped
    reader, sure of another card there, says the outline caught something else."""
    finder = None if found is None else default.read_found(found)
    read = default.read_corners(top, None, finder)
    return read is None or not read.sure or read.card == card


def _views(image: Image, spot: Spot, rng: np.random.Generator) -> list[Image]:
    """The index seen turned all round, a little nearer, farther and aside."""
    views = []
    for look in range(LOOKS):
        nearer = float(rng.uniform(0.9, 1.1))
        aside = rng.uniform(-0.12, 0.12, 2) * spot.size
        moved = Spot(spot.x + aside[0], spot.y + aside[1], spot.size * nearer, spot.heat)
        views.append(crop(image, moved, turn=360.0 * look / LOOKS + rng.uniform(-10, 10)))
    return views


def teach_folder(folder: Path, default: Model) -> Model:
    """A model from ``folder/labels.csv`` and its photos (its ``origin`` says how many photos
    showed no card)."""
    labels = read_labels(folder)
    pictures = []
    for path, card in labels:
        try:
            pictures.append((load_image(path), card))
        except SourceError as exc:
            raise TeachError(str(exc)) from None
    return teach(pictures, default)
