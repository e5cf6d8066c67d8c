"""Labelled photo folders (``labels.csv``: file,kind,colour, as ``vision teach`` reads them) cut
from the "Uno Cards" set's valid split: ``cal`` (calibrating the shipped model) and ``val``
(measuring it), split by source photo; also a small folder for the test suite.

    python -m tools.vision_train.sets --uno DIR/Uno --out SETS

The set labels kinds, not colours: a colour comes from the hue of the top card's field around
its index (see :func:`.data.hue_colour`); a photo whose hue says nothing clear is left out.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
from pathlib import Path

import cv2

from companion.vision.net import COLOURS

from .data import cut_patch, hue_colour, read_boxes, split_of

CI_COUNT = 90  # photos shipped for the test suite (about 35 KB each)


def write_sets(uno: Path, out: Path) -> None:
    rows: dict[str, list[tuple[str, str, str]]] = {"cal": [], "val": []}
    dropped = 0
    for image_path in sorted((uno / "valid" / "images").glob("*.jpg")):
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        boxes = read_boxes(uno / "valid" / "labels" / (image_path.stem + ".txt"), image.shape[0])
        if not boxes:
            continue
        kind, x, y, s = boxes[-1]
        colour = hue_colour(cut_patch(image, x, y, s), kind)
        if colour < 0:
            dropped += 1
            continue
        name = COLOURS[colour]
        half = split_of(image_path.name)
        folder = out / f"uno-{half}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(image_path, folder / image_path.name)
        rows[half].append((image_path.name, kind, "" if name == "black" else name))
    for half, lines in rows.items():
        with (out / f"uno-{half}" / "labels.csv").open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([("file", "kind", "colour"), *lines])
        print(f"uno-{half}: {len(lines)} photos", file=sys.stderr)
    print(f"{dropped} photos left out (no clear hue)", file=sys.stderr)
    ci = out / "uno-ci"
    ci.mkdir(parents=True, exist_ok=True)
    chosen = rows["val"][:: max(1, len(rows["val"]) // CI_COUNT)][:CI_COUNT]
    for name, _, _ in chosen:
        shutil.copyfile(out / "uno-val" / name, ci / name)
    with (ci / "labels.csv").open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("file", "kind", "colour"), *chosen])
    print(f"uno-ci: {len(chosen)} photos", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uno", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    write_sets(args.uno, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
