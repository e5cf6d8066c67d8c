"""The drawn parts as the simulation holds them: convex pieces in metres, in the model's frame.

The model's frame is the launcher's (x along the card's way out, y across, z up), in metres, with
z = 0 on the card path (``path_z``). Each part within the card's reach keeps its name; the model
gives it to the body it belongs to (:data:`BODY_OF`), so a test can compare the model's bodies
with the parts the drawing puts within the card's reach.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import parts

MM = 1e-3

# The body each drawn part belongs to in the model (None: fixed to the launcher).
BODY_OF: Mapping[str, str | None] = {
    "chassis": None,
    "magazine": None,
    "separator": None,
    "gate": "gate",
    "gate_shim": "gate",
    "idler_pin": "idler",
    "separator_shoe": "shoe",
    "separator_pad": "shoe",
    "feed_wheel": "tyre",
    "back_wheel": "back",
    "exit_roller": "exit",
    "idler_roller": "idler",
}
# Drawn parts the model draws itself, as the geom named: the silicone O-rings are capsules of
# the seated ring's top radius (round, as the ring is; the drawing's ring is a polygon).
PRIMITIVES: Mapping[str, str] = {
    "tyre_orings": "tyre_rings",
    "back_orings": "back_rings",
    "exit_orings": "exit_rings",
    "idler_orings": "idler_rings",
}
# How much of the gate's lower edge the model draws itself (metres): the round of the printed or
# shimmed edge, whose radius the sweep draws, up to this height over the edge.
EDGE_BAND = 0.2 * MM


@dataclass(frozen=True)
class Shapes:
    """Each part's convex pieces (vertices in metres, model frame) and the faces of each."""

    pieces: Mapping[str, tuple[tuple[np.ndarray, np.ndarray], ...]]
    nose_drop_mm: float  # the nose floor's depth the magazine was drawn with

    def names(self) -> list[str]:
        return sorted(self.pieces)


def to_model(vertices_mm: np.ndarray, path_z: float) -> np.ndarray:
    out = np.asarray(vertices_mm, dtype=float) * MM
    out[:, 2] -= path_z * MM
    return out


@functools.lru_cache(maxsize=16)
def _load(nose_drop_mm: float, dims: tuple[tuple[str, float | str], ...]) -> Shapes:
    from hardware.tools import scad

    overrides = {**dict(dims), "nose_drop": nose_drop_mm}
    fit = scad.fit_values(**overrides)
    found = parts.parts_in_reach(fit, overrides=overrides, whole=tuple(PRIMITIVES))
    pieces = {
        name: tuple((to_model(p.vertices, fit["path_z"]), p.faces) for p in part.pieces)
        for name, part in found.items()
        if name not in PRIMITIVES
    }
    # the gate's edge without its lowest EDGE_BAND: the model rounds that band with the radius
    # the sweep draws
    edge_z = fit["gate"][2]
    for name in ("gate", "gate_shim"):
        band = parts.render_clipped(name, fit, above=edge_z + EDGE_BAND / MM, overrides=overrides)
        if name in pieces:
            pieces[name] = tuple(
                (to_model(p.vertices, fit["path_z"]), p.faces)
                for p in (parts.decompose(band, parts.CONCAVITY["gate"]) if band else ())
            )
    return Shapes(pieces, nose_drop_mm)


def load(fit: Mapping[str, Any], nose_error_mm: float = 0.0, **dims: float | str) -> Shapes:
    """The parts within the card's reach, drawn with ``dims`` (values of dims.scad, as
    ``fit`` was read with) and the nose floor printed ``nose_error_mm`` high: the magazine is
    drawn again with that nose, so the error moves the floor and what rests on it."""
    # (the nose's depth is drawn under the land, where there is one, else under the path)
    floor = fit["land"][0] if "land" in fit else fit["path_z"]
    nose_drop = round(floor - fit["nose_top"] - nose_error_mm, 3)
    return _load(nose_drop, tuple(sorted(dims.items())))
