"""The camera's card reader: an input adapter that reads the top card of the discard pile.

Start with :func:`default_model` (the model learned from the project's own drawings) or
:meth:`Model.load` (a taught deck), :meth:`Model.read` for one picture and :class:`Watcher` for a
stream of frames from a :class:`FolderSource`, :class:`OpenCVSource` or :class:`PicameraSource`.
:func:`teach` learns a family's deck. Needs OpenCV and numpy (the ``camera`` extra); imports
``companion.core`` only, and nothing imports it but the command line.
"""

from __future__ import annotations

from pathlib import Path

from .kinds import KINDS, Card, may_follow, parse_card
from .model import DEFAULT_MODEL, Model, ModelError, Read
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


def default_model(path: Path = DEFAULT_MODEL) -> Model:
    """The model shipped with the program, learned from its own card drawings."""
    return Model.load(path)


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
    "OpenCVSource",
    "PicameraSource",
    "Read",
    "SourceError",
    "TeachError",
    "TimedFrame",
    "Watcher",
    "default_model",
    "find_top",
    "load_image",
    "may_follow",
    "parse_card",
    "read_labels",
    "teach",
    "teach_folder",
]
