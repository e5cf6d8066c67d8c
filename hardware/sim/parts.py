"""The printed parts a card can touch, loaded from the drawings the maker prints.

Each part of the launcher is rendered by OpenSCAD from ``hardware/parts/lib/parts.scad`` with the
module ``assembly.scad`` places it with (so it stands where the assembly puts it, in the
launcher's frame, millimetres), clipped to the card's reach: the box over the card's way from the
back of the pocket to past the nose, ``REACH_MM`` either side of the card path. MuJoCo collides a
mesh as its convex hull (a channel becomes solid), so each clipped part is cut into convex pieces
by CoACD. Both are cached under ``build/``: the STL by the hash of the parts' sources (as
:func:`hardware.tools.scad.render_parts`), the pieces by the hash of the STL.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hardware.tools import scad

REACH_MM = 4.0  # a part whose solid comes this close to the card path is within the card's reach
# CoACD's threshold (a fraction of the part's size the pieces' hulls may stray from it): fine for
# the magazine, whose floor, nose and walls are steps of tenths of a millimetre; coarse for the
# turned parts and the shoe, whose hulls only fill their O-ring grooves and spring pocket, which
# no card reaches.
CONCAVITY: Mapping[str, float] = {
    "magazine": 0.01,
    "chassis": 0.01,
    "gate": 0.01,
    "separator": 0.01,
}
COARSE = 0.05
PIECES = scad.BUILD.parent / "hardware-sim" / "pieces"

# Every printed part that turns with the launcher, as ``printed_launcher()`` in assembly.scad
# places it (the follower at a full deck: it rests on the stack, 33 mm over the path).
LAUNCHER_PARTS: Mapping[str, str] = {
    "chassis": "chassis();",
    "magazine": "magazine();",
    "gate": "gate();",
    "separator": "separator();",
    "separator_shoe": "separator_shoe();",
    "separator_pad": "separator_pad();",  # silicone sheet glued under the shoe (drawn, bought)
    "feed_wheel": "feed_wheel();",
    "back_wheel": "back_wheel();",
    "feed_hub": "feed_hub();",
    "back_hub": "feed_hub(back_x);",
    "exit_roller": "exit_roller();",
    "idler_roller": "pinch_idler();",
    "follower": "follower(cards_full);",
    "turntable": "turntable();",
}


@dataclass(frozen=True)
class Piece:
    """One convex piece of a part (millimetres, the launcher's frame)."""

    vertices: np.ndarray  # (n, 3)
    faces: np.ndarray  # (m, 3) of vertex indices


@dataclass(frozen=True)
class Part:
    """A printed part within the card's reach: the STL it was cut from and its convex pieces."""

    name: str
    stl: Path
    pieces: tuple[Piece, ...]


def reach_box(fit: Mapping[str, Any], reach: float = REACH_MM) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the box a card can reach (mm): from the back of the pocket to past the
    nose, the card's width, ``reach`` under and over the card path."""
    card_w = fit["card"][0]
    path = fit["path_z"]
    low = np.array([fit["pocket"][0] - reach, -card_w / 2 - reach, path - reach])
    high = np.array([fit["nose_x1"] + reach, card_w / 2 + reach, path + reach])
    return low, high


def _clip_source(module: str, low: np.ndarray, high: np.ndarray) -> str:
    size = high - low
    return (
        f"include <{(scad.PARTS_DIR / 'lib' / 'parts.scad').as_posix()}>\n"
        f"intersection() {{ {module} translate([{low[0]}, {low[1]}, {low[2]}]) "
        f"cube([{size[0]}, {size[1]}, {size[2]}]); }}\n"
    )


def render_clipped(
    name: str,
    fit: Mapping[str, Any],
    reach: float = REACH_MM,
    *,
    above: float | None = None,
    overrides: Mapping[str, float | str] | None = None,
) -> Path | None:
    """The part ``name`` where the assembly places it, clipped to the card's reach (and to
    ``above`` mm up, if given), as an STL cached with the parts' source hash; None when none of
    it comes within reach. ``overrides`` set values of dims.scad (a print error in a height)."""
    low, high = reach_box(fit, reach)
    if above is not None:
        low[2] = above
    source = _clip_source(LAUNCHER_PARTS[name], low, high)
    settings = [f"{k}={v}" for k, v in sorted((overrides or {}).items())]
    key = hashlib.sha256((source + repr(settings)).encode()).hexdigest()[:12]
    folder = scad.BUILD / scad.source_digest() / "sim"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.{key}.stl"
    empty = target.with_suffix(".empty")
    if target.exists():
        return target
    if empty.exists():
        return None
    scad_file = folder / f"{name}.{key}.{os.getpid()}.scad"
    scad_file.write_text(source)
    partial = target.with_suffix(f".{os.getpid()}.tmp.stl")
    try:
        scad.run_openscad(scad_file, partial, *(a for v in settings for a in ("-D", v)))
    except scad.RenderError as error:
        if "empty" not in str(error).lower():
            raise
        empty.touch()  # nothing of the part is within reach
        return None
    finally:
        scad_file.unlink(missing_ok=True)
    partial.replace(target)
    return target


def _indexed(path: Path) -> tuple[np.ndarray, np.ndarray]:
    triangles = np.array(scad.Mesh.read(path).triangles, dtype=float).reshape(-1, 3)
    vertices, index = np.unique(triangles.round(5), axis=0, return_inverse=True)
    return vertices, index.reshape(-1, 3)


def decompose(stl: Path, concavity: float = COARSE) -> tuple[Piece, ...]:
    """The convex pieces of a solid, by CoACD, cached by the STL's hash."""
    digest = hashlib.sha256(stl.read_bytes()).hexdigest()[:16]
    cached = PIECES / f"{digest}-{concavity:g}.npz"
    if cached.exists():
        with np.load(cached) as saved:
            count = int(saved["count"])
            return tuple(Piece(saved[f"v{i}"], saved[f"f{i}"]) for i in range(count))
    import coacd  # imported here: only a cache miss needs it

    vertices, faces = _indexed(stl)
    coacd.set_log_level("error")
    hulls = coacd.run_coacd(
        coacd.Mesh(vertices, faces), threshold=concavity, preprocess_mode="off", seed=0
    )
    pieces = tuple(Piece(np.asarray(v, dtype=float), np.asarray(f, dtype=int)) for v, f in hulls)
    PIECES.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {"count": np.array(len(pieces))}
    for i, piece in enumerate(pieces):
        arrays[f"v{i}"], arrays[f"f{i}"] = piece.vertices, piece.faces
    partial = cached.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(partial, **arrays)  # type: ignore[arg-type]
    partial.replace(cached)
    return pieces


def parts_in_reach(
    fit: Mapping[str, Any],
    names: Sequence[str] | None = None,
    overrides: Mapping[str, float | str] | None = None,
) -> dict[str, Part]:
    """Every launcher part whose solid comes within the card's reach, cut into convex pieces."""
    out = {}
    for name in names or LAUNCHER_PARTS:
        stl = render_clipped(name, fit, overrides=overrides)
        if stl is not None:
            out[name] = Part(name, stl, decompose(stl, CONCAVITY.get(name, COARSE)))
    return out
