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
# A large part is cut into cells (x, y in mm) before CoACD, so that its threshold, a fraction of
# a cell's size, is a tenth of a millimetre: a hull filling the corner between the land and a
# wall by that much would stop a card's corner.
CELLS: Mapping[str, tuple[float, float]] = {"magazine": (12.0, 16.0)}
FINE = (
    0.01  # for a cell: about 0.2 mm (the ray test checks what matters, tests/test_hardware_sim.py)
)
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
    # bought parts the assembly draws where they sit
    "gate_shim": "gate_shim();",  # the gate's steel edge
    "tyre_orings": "tyre_orings(feed_x);",
    "back_orings": "tyre_orings(back_x);",
    "exit_orings": "exit_orings();",
    "idler_orings": "idler_orings();",
    "idler_pin": "idler_pin();",
    "pinch_springs": "pinch_springs();",
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
    cell: tuple[np.ndarray, np.ndarray] | None = None,
) -> Path | None:
    """The part ``name`` where the assembly places it, clipped to the card's reach (and to
    ``above`` mm up, or to the box ``cell``, if given), as an STL cached with the parts' source
    hash; None when none of it comes within reach. ``overrides`` set values of dims.scad (a
    print error in a height)."""
    low, high = cell if cell is not None else reach_box(fit, reach)
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
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


def _read_pieces(path: Path) -> tuple[Piece, ...]:
    with np.load(path) as saved:
        count = int(saved["count"])
        return tuple(Piece(saved[f"v{i}"], saved[f"f{i}"]) for i in range(count))


def _write_pieces(path: Path, pieces: tuple[Piece, ...]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {"count": np.array(len(pieces))}
    for i, piece in enumerate(pieces):
        arrays[f"v{i}"], arrays[f"f{i}"] = piece.vertices, piece.faces
    partial = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(partial, **arrays)  # type: ignore[arg-type]
    partial.replace(path)


def _coacd(
    vertices: np.ndarray, faces: np.ndarray, concavity: float, quick: bool = False
) -> tuple[Piece, ...]:
    import coacd  # imported here: only a cache miss needs it

    coacd.set_log_level("error")
    # a cell is small and simple: a shallower search finds its cuts (ten times faster)
    search = {"mcts_iterations": 40, "mcts_max_depth": 2, "resolution": 1000} if quick else {}
    hulls = coacd.run_coacd(
        coacd.Mesh(np.asarray(vertices, float), np.asarray(faces, int)),
        threshold=concavity,
        preprocess_mode="off",
        seed=0,
        **search,
    )
    return tuple(Piece(np.asarray(v, dtype=float), np.asarray(f, dtype=int)) for v, f in hulls)


def decompose(stl: Path, concavity: float = COARSE) -> tuple[Piece, ...]:
    """The convex pieces of a solid, by CoACD, cached by the STL's hash."""
    digest = hashlib.sha256(stl.read_bytes()).hexdigest()[:16]
    cached = PIECES / f"{digest}-{concavity:g}.npz"
    if cached.exists():
        return _read_pieces(cached)
    pieces = _coacd(*_indexed(stl), concavity)
    _write_pieces(cached, pieces)
    return pieces


def parts_in_reach(
    fit: Mapping[str, Any],
    names: Sequence[str] | None = None,
    overrides: Mapping[str, float | str] | None = None,
    whole: Sequence[str] = (),
) -> dict[str, Part]:
    """Every launcher part whose solid comes within the card's reach, cut into convex pieces
    (those named in ``whole`` are left whole: the model draws them itself)."""
    out = {}
    for name in names or LAUNCHER_PARTS:
        stl = render_clipped(name, fit, overrides=overrides)
        if stl is None:
            continue
        if name in whole:
            pieces: tuple[Piece, ...] = ()
        elif name in CELLS:
            pieces = tuple(
                piece for cell in cells(fit, CELLS[name]) for piece in _cell_pieces(stl, cell)
            )
        else:
            pieces = decompose(stl, CONCAVITY.get(name, COARSE))
        out[name] = Part(name, stl, pieces)
    return out


def cells(fit: Mapping[str, Any], size: tuple[float, float]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The card's reach cut into boxes of ``size`` (x, y; mm), its full height each."""
    low, high = reach_box(fit)
    xs = np.arange(low[0], high[0], size[0])
    ys = np.arange(low[1], high[1], size[1])
    return [
        (
            np.array([x, y, low[2]]),
            np.array([min(x + size[0], high[0]), min(y + size[1], high[1]), high[2]]),
        )
        for x in xs
        for y in ys
    ]


def _cell_pieces(stl: Path, cell: tuple[np.ndarray, np.ndarray]) -> tuple[Piece, ...]:
    """The convex pieces of the part in ``stl`` within the box ``cell`` (cut by manifold3d,
    cached by the STL's hash and the box)."""
    low, high = cell
    digest = hashlib.sha256(stl.read_bytes() + repr((low.round(4), high.round(4))).encode())
    cached = PIECES / f"cell-{digest.hexdigest()[:16]}-{FINE:g}.npz"
    if cached.exists():
        return _read_pieces(cached)
    from manifold3d import Manifold, Mesh  # imported here: only a cache miss needs it

    vertices, faces = _indexed(stl)
    solid = Manifold(Mesh(vertices.astype(np.float32), faces.astype(np.uint32)))
    box = Manifold.cube(tuple(high - low)).translate(tuple(low))
    inside = (solid ^ box).to_mesh()
    pieces: tuple[Piece, ...] = ()
    if len(inside.tri_verts):
        pieces = _coacd(
            np.asarray(inside.vert_properties)[:, :3], np.asarray(inside.tri_verts), FINE
        )
    _write_pieces(cached, pieces)
    return pieces
