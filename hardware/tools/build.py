"""``make hardware``: every part and the assembly to STL, and the pictures the README shows.

Usage: ``python -m hardware.tools.build [stl|pictures|all]`` (default ``all``). STLs go to
``build/hardware/stl/`` (not committed); pictures to ``hardware/pictures/`` (committed).
Prints how long each step took.
"""

from __future__ import annotations

import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .scad import ASSEMBLY, BUILD, HARDWARE, PARTS_DIR, part_names, render_parts, run_openscad

PICTURES = HARDWARE / "pictures"
STL_OUT = BUILD / "stl"
SIZE = "--imgsize=1000,750"
STYLE = "--colorscheme=Tomorrow"
# name: (camera tx,ty,tz,rx,ry,rz,distance, OpenSCAD -D settings)
VIEWS: dict[str, tuple[str, list[str]]] = {
    "box": ("30,0,40,62,0,40,700", ['camera="none"']),
    "box_turned": ("30,0,40,62,0,40,700", ["turret=-120", 'camera="none"']),
    "retrofit": ("30,0,40,62,0,40,700", ['variant="retrofit"', 'camera="none"']),
    "exploded": ("30,0,85,70,0,40,1380", ["explode=45", 'camera="none"']),
    "cutaway": ("0,0,25,80,0,0,330", ["cut=true", "cards=40", 'camera="none"']),
    "mouth": ("-45,0,48,88,0,270,200", ["cards=1", 'camera="none"']),
    "base_inside": ("30,0,-30,50,0,20,560", ["launcher_shown=false", "deck_shown=false"]),
    "under_deck": ("-20,0,-10,125,0,30,330", ["tray_shown=false"]),
    # the camera's arm over the discard tray: Camera Module 3, a webcam, and from above
    "camera_arm": ("40,-80,90,62,0,130,1100", ['camera="cm3"', "turret=-150"]),
    "camera_webcam": ("40,-80,90,62,0,130,1100", ['camera="usb"', "turret=-150"]),
    "camera_top": ("50,-70,0,0,0,0,900", ['camera="cm3"', "turret=-150"]),
}


def render_stls() -> None:
    started = time.monotonic()
    parts = render_parts()
    STL_OUT.mkdir(parents=True, exist_ok=True)
    for name, path in parts.items():
        shutil.copyfile(path, STL_OUT / f"{name}.stl")
    print(f"{len(parts)} parts to STL in {time.monotonic() - started:.1f} s -> {STL_OUT}")
    started = time.monotonic()

    def assembly(variant: str) -> None:
        target = STL_OUT / f"assembly_{variant}.stl"
        run_openscad(ASSEMBLY, target, "-D", f'variant="{variant}"', "-D", "stand_ins=false")

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(assembly, ("feed", "retrofit")))
    print(f"assembly (both variants) to STL in {time.monotonic() - started:.1f} s")


def render_pictures() -> None:
    started = time.monotonic()
    PICTURES.mkdir(exist_ok=True)
    jobs: list[tuple[Path, Path, list[str]]] = []
    for name, (camera, settings) in VIEWS.items():
        args = [SIZE, STYLE, f"--camera={camera}"]
        for setting in settings:
            args += ["-D", setting]
        jobs.append((ASSEMBLY, PICTURES / f"{name}.png", args))
    for name in part_names():
        args = ["--imgsize=600,450", STYLE, "--viewall", "--autocenter"]
        jobs.append((PARTS_DIR / f"{name}.scad", PICTURES / f"part_{name}.png", args))
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda job: run_openscad(job[0], job[1], *job[2], display=True), jobs))
    print(f"{len(jobs)} pictures in {time.monotonic() - started:.1f} s -> {PICTURES}")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what in ("stl", "all"):
        render_stls()
    if what in ("pictures", "all"):
        render_pictures()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
