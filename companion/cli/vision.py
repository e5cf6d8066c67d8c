"""``uno-companion vision``: the camera's card reader on photos, folders of frames and decks.

    uno-companion vision read [--model MODEL] [--json] IMAGE...
        the top card of the pile in each photo; with --json one line per photo:
        {"image", "kind", "colour", "confidence", "sure"} (kind and colour null: no card seen)
    uno-companion vision watch [--model MODEL] --frames DIR [--json]
        replays a folder of frames (DIR/frames.json) and prints each card it decides was played:
        {"t_ms", "kind", "colour", "confidence", "sure"}, t_ms the frame of the decision
    uno-companion vision teach DIR --out MODEL
        learns a deck from DIR/labels.csv (file,kind,colour a line) and the photos beside it

Kinds are the script's names (1 … 9, 0, reverse, skip, hit2, discard_all, draw2, wild,
coup_extreme, draw4); colours red, yellow, green, blue, and "" for a wild. Without --model the
shipped model is used (learned from photographs of real cards and from the program's drawings).
Bad input (a damaged or foreign model file too): a message, exit status 2.
Needs the camera extra: pip install 'uno-companion[camera]'.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .common import add_command


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "vision", "read cards from photos and frames", __doc__)
    actions = parser.add_subparsers(dest="vision_action", metavar="ACTION", required=True)
    read = actions.add_parser("read", help="read the top card in photos")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    watch = actions.add_parser("watch", help="replay a folder of frames, print the cards played")
    watch.add_argument("--frames", type=Path, required=True, metavar="DIR")
    read.add_argument(
        "--drawings", action="store_true", help="the pictures are the program's own drawings"
    )
    for sub in (read, watch):
        sub.add_argument("--model", type=Path, help="a taught deck (default: the shipped deck)")
        sub.add_argument("--json", action="store_true", help="one JSON object a line")
    teach = actions.add_parser("teach", help="learn a deck from labelled photos")
    teach.add_argument("folder", type=Path, metavar="DIR")
    teach.add_argument("--out", type=Path, required=True, metavar="MODEL")
    parser.set_defaults(handler=run)


def _fail(message: str) -> int:
    print(f"uno-companion vision: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        import companion.vision as vision
    except ImportError as exc:
        return _fail(f"{exc}: install the camera extra (pip install 'uno-companion[camera]')")
    try:
        drawings = getattr(args, "drawings", False) or _drawn_frames(vision, args)
        default = vision.default_model(drawings=drawings)
        model = default
        if getattr(args, "model", None) is not None:
            model = vision.Model.load(args.model, default.networks, default.fields)
    except vision.ModelError as exc:
        return _fail(str(exc))
    if args.vision_action == "read":
        return _read(vision, model, args.images, args.json)
    if args.vision_action == "watch":
        return _watch(vision, model, args.frames, args.json)
    try:
        taught = vision.teach_folder(args.folder, default)
        taught.save(args.out)
    except vision.TeachError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.out}: {exc.strerror or exc}")
    print(f"{args.out}: deck learned ({taught.origin})")
    return 0


def _drawn_frames(vision: Any, args: argparse.Namespace) -> bool:
    """A ``watch`` of a folder of the program's own drawn frames (``"drawn": true``)."""
    if args.vision_action != "watch":
        return False
    try:
        return bool(vision.FolderSource(args.frames).drawn)
    except vision.SourceError:
        return False  # said again, clearly, when the watch opens it


def _read(vision: Any, model: Any, images: list[Path], as_json: bool) -> int:
    status = 0
    for path in images:
        try:
            read = model.read(vision.load_image(path))
        except vision.SourceError as exc:
            status = _fail(str(exc))
            continue
        if as_json:
            print(json.dumps({"image": str(path), **read.to_json()}), flush=True)
        elif read.card is None:
            print(f"{path}: no whole card seen")
        else:
            sure = "sure" if read.sure else "unsure"
            print(f"{path}: {read.card} ({read.confidence:.0%}, {sure})")
    return status


def _watch(vision: Any, model: Any, folder: Path, as_json: bool) -> int:
    try:
        source = vision.FolderSource(folder)
        watcher = vision.Watcher(model)
        for frame in source.frames():
            decision = watcher.feed(frame)
            if decision is None:
                continue
            if as_json:
                print(json.dumps(decision.to_json()), flush=True)
            else:
                read = decision.read
                sure = "sure" if read.sure else "unsure"
                if read.card is None:
                    print(f"{decision.t_ms} ms: a card laid, not read (asked at the table)")
                else:
                    print(f"{decision.t_ms} ms: {read.card} ({read.confidence:.0%}, {sure})")
    except vision.SourceError as exc:
        return _fail(str(exc))
    return 0
