"""The camera's card reader: an input adapter that reads the top card of the discard pile.

Start with :func:`default_model` (the shipped model, learned from photographs of real cards and
from the program's own drawings; ``drawings=True`` to read those drawings) or :meth:`Model.load`
(a taught deck), :meth:`Model.read` for one picture, :func:`find_outline` for the top card found
whole from above (corners, straightened picture, place; :func:`same_card` for two of them) and
:class:`Watcher` for a stream of frames from a :class:`FolderSource`,
:class:`OpenCVSource` or :class:`PicameraSource`. :func:`teach` adapts the model to a family's
deck; :func:`load_model` falls back to the shipped model when a file cannot be used. Needs OpenCV
and numpy (the ``camera`` extra); imports ``companion.core`` only, and nothing imports it but the
command line.
"""

from __future__ import annotations

from pathlib import Path

from .kinds import KINDS, Card, may_follow, parse_card
from .model import DEFAULT_MODEL, Model, ModelError, Read
from .net import NetworkError, Networks
from .outline import Top, find_outline, same_card, straighten
from .reader import Found, find_top
from .sources import (
    FolderSource,
    FrameSource,
    OpenCVSource,
    PicameraSource,
    SourceError,
    TimedFrame,
    load_image,
)
from .teach import Lesson, TeachError, read_labels, teach, teach_folder
from .watcher import Decision, Watcher


def default_model(path: Path = DEFAULT_MODEL, *, drawings: bool = False) -> Model:
    """The model shipped with the program; ``drawings``: made to read the program's own
    drawings (with the field reader learned from them, which never reads a camera's picture)."""
    return Model.load(path, drawings=drawings)


def load_model(path: Path, default: Model) -> tuple[Model, str | None]:
    """The model in ``path``, or ``default`` and a sentence naming the file and what is wrong
    with it (damaged, empty, made for another program): a bad file never stops the box."""
    try:
        return Model.load(path, default.networks, default.fields), None
    except ModelError as exc:
        return default, f"{exc}; reading with the shipped model instead"


__all__ = [
    "DEFAULT_MODEL",
    "KINDS",
    "Card",
    "Decision",
    "FolderSource",
    "Found",
    "FrameSource",
    "Lesson",
    "Model",
    "ModelError",
    "NetworkError",
    "Networks",
    "OpenCVSource",
    "PicameraSource",
    "Read",
    "SourceError",
    "TeachError",
    "TimedFrame",
    "Top",
    "Watcher",
    "default_model",
    "find_outline",
    "find_top",
    "load_image",
    "load_model",
    "may_follow",
    "parse_card",
    "read_labels",
    "same_card",
    "straighten",
    "teach",
    "teach_folder",
]
