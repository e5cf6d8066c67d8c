"""The card's path, swept through every solid of the launcher.

A card is moved from the back of the magazine's pocket, under the gate and the separator,
through the pinch and out past the nose, and every solid it could meet is intersected with the
volume it sweeps (manifold3d booleans on the meshes OpenSCAD renders, each solid drawn where it
sits in the assembly by ``card_path.scad``). Two cards are swept:

- a flat one, 56 x 87 mm and as thick as the thickest card, on the land the card leaves on
  (the plane of the throat, the separator's shoe and the nip): moved straight along X, the union
  of its positions is a box from the pocket's back to past the nose;
- the same card bent as the stack bends it: under the stack it lies over the tyres (sunk the
  least) and, from each tyre, down onto the floor, as a beam pressed by the stack's weight lies
  over a bump (it lifts off over ``(72 EI d / q)^(1/4)`` either side); past the gate it leaves
  flat on the land.

Only the faces meant to touch the card may reach into its path, and only as far as declared in
``fit.scad`` (``card_contacts``: the tyres, the O-rings of the nip, the separator's pad).
Anything else in the way is reported by name and place: :func:`sweep` returns the list.

The solids are everything on the turntable near the card's path; the follower, which rides on
the stack (its glued spare card on the last card), is not one, and what stands in the base stays
out of the turning launcher's reach (``fitcheck.check_sweep``).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import manifold3d
import numpy as np
import trimesh

from .scad import BUILD, HARDWARE, PARTS_DIR, openscad, run_openscad

CARD_PATH = HARDWARE / "tools" / "card_path.scad"
G = 9.81
# every solid the card could meet, as card_path.scad names them
BODIES = (
    "magazine", "chassis", "gate", "gate shim", "separator", "separator shoe", "separator pad",
    "feed wheel", "back wheel", "feed hub", "back hub", "exit roller", "idler roller",
    "tyre O-rings", "exit roller O-rings", "idler O-rings", "idler pin and collars",
    "pinch springs", "belt", "exit motor", "feed servo",
)  # fmt: skip
# the first drawing's pinch, kept to show the sweep catching it
OLD_PINCH = ("old idler ears", "old pinch springs")
CLEAR = 0.01  # mm: the card is laid this far over what carries it (touching is not hitting)
SLACK = 0.02  # mm: a contact's depth may pass its allowance by the meshes' facets


@dataclass(frozen=True)
class Hit:
    """A solid in the card's way: which card, which solid, and the box it takes of the path."""

    card: str
    body: str
    low: tuple[float, float, float]
    high: tuple[float, float, float]
    volume: float
    allowed: float | None  # the declared depth for a working face, None for anything else

    def __str__(self) -> str:
        (x0, y0, z0), (x1, y1, z1) = self.low, self.high
        what = "in the way" if self.allowed is None else f"deeper than {self.allowed:.2f} mm"
        return (
            f"{self.body} {what} of the {self.card}: x {x0:.1f}..{x1:.1f}, "
            f"y {y0:.1f}..{y1:.1f}, z {z0:.2f}..{z1:.2f} ({self.volume:.3f} mm³)"
        )


def _digest(settings: list[str]) -> str:
    digest = hashlib.sha256(" ".join(settings).encode())
    for path in [*sorted(PARTS_DIR.rglob("*.scad")), CARD_PATH]:
        digest.update(path.relative_to(HARDWARE).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(openscad().encode())
    return digest.hexdigest()[:16]


def render_bodies(names: Iterable[str] = BODIES, **overrides: object) -> dict[str, Path]:
    """Each solid where it sits, to STL, cached by a hash of the sources; ``overrides`` set
    values of ``dims.scad`` (``-D name=value``), to draw one wrong."""
    settings = [arg for name, value in overrides.items() for arg in ("-D", f"{name}={value}")]
    folder = BUILD / "card_path" / _digest(settings)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / f"{name.replace(' ', '_')}.stl" for name in names}

    def one(name: str) -> None:
        target = paths[name]
        if not target.exists():
            partial = target.with_suffix(f".{os.getpid()}.tmp.stl")
            run_openscad(CARD_PATH, partial, "-D", f'body="{name}"', *settings)
            partial.replace(target)

    # one renderer per cache folder at a time: a second test process waits, then finds them made
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            list(pool.map(one, paths))
    return paths


def solid(path: Path) -> manifold3d.Manifold:
    """An STL as a manifold solid (trimesh merges the STL's repeated vertices)."""
    mesh = trimesh.load(path, force="mesh", process=True)
    shape = manifold3d.Manifold(
        manifold3d.Mesh(
            vert_properties=np.asarray(mesh.vertices, dtype=np.float32),
            tri_verts=np.asarray(mesh.faces, dtype=np.uint32),
        )
    )
    if shape.status() != manifold3d.Error.NoError:
        raise ValueError(f"{path.name}: not a closed solid ({shape.status()})")
    return shape


def load_bodies(
    names: Iterable[str] = BODIES, **overrides: object
) -> dict[str, manifold3d.Manifold]:
    return {name: solid(path) for name, path in render_bodies(names, **overrides).items()}


def _across(profile: list[tuple[float, float]], width: float) -> manifold3d.Manifold:
    """A closed outline in the XZ plane pushed across Y, centred on the path."""
    section = manifold3d.CrossSection([profile])
    return (
        manifold3d.Manifold.extrude(section, width).rotate((90, 0, 0)).translate((0, width / 2, 0))
    )


def lift_off(fit: Mapping[str, Any], drop: float) -> float:
    """How far from a tyre the bottom card, pressed by the full stack and the follower, comes
    down ``drop`` onto the floor: a beam of the card's stiffness under the stack's weight per
    length lying over a bump, ``(72 EI drop / q)^(1/4)``."""
    card_w, card_l, card_t = fit["card"]
    stiffness = fit["card_modulus"] * card_w * card_t**3 / 12  # N mm²
    grams = fit["cards_full"] * fit["card_mass"] + fit["follower"][1]
    per_mm = grams / 1000 * G / card_l
    return float((72 * stiffness * drop / per_mm) ** 0.25)


def cards(fit: Mapping[str, Any]) -> dict[str, manifold3d.Manifold]:
    """The volumes the flat and the bent card sweep from the pocket's back to past the nose."""
    card_w = fit["card"][0]
    thick = fit["card_t_range"][1]
    land = fit["land"][0] + CLEAR
    x0, x1 = fit["pocket"][0], fit["nose_x1"] + 5
    flat = manifold3d.Manifold.cube((x1 - x0, card_w, thick)).translate((x0, -card_w / 2, land))
    # the bent card's underside: over each tyre (sunk the least), down onto the floor and the
    # land within the lift-off length; past the gate it leaves flat on the land
    tyre_top = fit["path_z"] - fit["tyre_sink"][0] + CLEAR
    drop = tyre_top - land
    reach = lift_off(fit, drop)
    tyres = (fit["feed"][0], fit["back_wheel"][0])
    gate_x = fit["gate"][0]
    xs = [x0 + i * 0.5 for i in range(int((x1 - x0) / 0.5) + 1)]

    def under(x: float) -> float:
        if x > gate_x:
            return land
        return land + max(drop * (1 - min(abs(x - t) / reach, 1)) ** 2 for t in tyres)

    lower = [(x, under(x)) for x in xs]
    upper = [(x, z + thick) for x, z in reversed(lower)]
    return {"flat card": flat, "bent card": _across(lower + upper, card_w)}


def sweep(
    fit: Mapping[str, Any], bodies: Mapping[str, manifold3d.Manifold], least: float = 1e-4
) -> list[Hit]:
    """Every solid in either card's way, or reaching into it past its declared allowance."""
    allowed = {name: depth for name, depth in fit["card_contacts"]}
    hits = []
    for card, volume in cards(fit).items():
        for name, body in bodies.items():
            for piece in (body ^ volume).decompose():  # each place apart
                if piece.volume() < least:
                    continue
                x0, y0, z0, x1, y1, z1 = piece.bounding_box()
                depth = allowed.get(name)
                if depth is not None and z1 - z0 <= depth + SLACK:
                    continue
                low, high = (x0, y0, z0), (x1, y1, z1)
                hits.append(Hit(card, name, low, high, piece.volume(), depth))
    return hits


def clearance(
    fit: Mapping[str, Any], bodies: Mapping[str, manifold3d.Manifold], search: float = 2.0
) -> dict[str, float]:
    """For each solid not meant to touch the card: the air between it and the flat card's path
    (mm), up to ``search``."""
    flat = cards(fit)["flat card"]
    allowed = {name for name, _ in fit["card_contacts"]}
    return {
        name: float(body.min_gap(flat, search))
        for name, body in bodies.items()
        if name not in allowed
    }


def summary(hits: list[Hit]) -> str:
    return "\n".join(str(hit) for hit in hits) or "the card's path is clear"
