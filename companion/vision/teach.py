"""Teaching the box a family's own deck: each card shown once (or a folder of labelled photos).

A photo is a frame of the tray with one card on top; the card is found and flattened as when
reading, seen again jittered many times, and a model of that deck is learned from them. Colours
the family did not show keep the default model's; kinds it did not show are not read.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from .kinds import Card, parse_card
from .model import Model, ModelError, examples, train
from .reader import find_top
from .sources import SourceError, load_image
from .types import Image

LOOKS = 8  # jittered views of each card shown


class TeachError(ValueError):
    """Labels or photos that cannot teach a deck; the message names the file and line."""


class Lesson:
    """A guided teach: each card shown to the camera in turn, then the deck learned at once."""

    def __init__(self, default: Model) -> None:
        self.default = default
        self._shown: list[tuple[Image, Card]] = []

    def show(self, image: Image, card: Card) -> bool:
        """Keeps the frame if a whole card is seen in it (else show it again)."""
        if find_top(image) is None:
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
    found, missed = examples(pictures)
    if not found:
        raise TeachError("no card was found in any photo (is the card on the tray, in view?)")
    if len({e.card.kind for e in found}) < 2:
        raise TeachError("show at least two kinds of card")
    origin = f"taught: {len(found)} photos ({missed} without a card found)"
    try:
        return train(
            found,
            looks=LOOKS,
            seed=seed,
            temperature=default.temperature,
            sure_at=default.sure_at,
            origin=origin,
            fallback=default,
        )
    except ModelError as exc:
        raise TeachError(str(exc)) from None


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
