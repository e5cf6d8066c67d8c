"""Teaching the box a family's own deck: each card shown once (or a folder of labelled photos).

A photo is a frame of the tray with one card on top; its corner index is found as when reading,
looked at again turned, nearer and farther, and the shipped model's two heads are moved to fit
those looks (:func:`.model.adapt`): the networks stay, so a lesson takes seconds, and what the
family did not show keeps the shipped model's knowledge.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .kinds import COLOURLESS, KINDS, Card, parse_card
from .model import Model, adapt
from .net import COLOURS, Spot, crop
from .sources import SourceError, load_image
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
        if self.default.find(image) is None:
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
    """A model of the deck the pictures show; :class:`TeachError` when too little was seen."""
    rng = np.random.default_rng(seed)
    embeddings = []
    kinds: list[int] = []
    colours: list[int] = []
    shown = missed = 0
    for image, card in pictures:
        found = default.find(image)
        if found is None:
            missed += 1
            continue
        shown += 1
        spot = found.spot
        views = []
        for look in range(LOOKS):
            nearer = float(rng.uniform(0.9, 1.1))
            aside = rng.uniform(-0.12, 0.12, 2) * spot.size
            moved = Spot(spot.x + aside[0], spot.y + aside[1], spot.size * nearer, spot.heat)
            views.append(crop(image, moved, turn=360.0 * look / LOOKS + rng.uniform(-10, 10)))
        embeddings.append(default.networks.embed(views))
        kinds += [KINDS.index(card.kind)] * LOOKS
        colour = "black" if card.kind in COLOURLESS else card.colour
        colours += [COLOURS.index(colour)] * LOOKS
    if not shown:
        raise TeachError("no card was found in any photo (is the card on the tray, in view?)")
    if len(set(kinds)) < 2:
        raise TeachError("show at least two kinds of card")
    origin = f"taught: {shown} photos ({missed} without a card found)"
    return adapt(default, np.concatenate(embeddings), kinds, colours, origin=origin)


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
