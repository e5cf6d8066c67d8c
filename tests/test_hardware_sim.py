"""The feed simulation, small: the model is the drawing (every printed part within the card's
reach is in the model, loaded from its OpenSCAD source, and nothing else; where a card goes the
model has material exactly where the drawing has it); the silicone is as soft as its hardness;
cards never pass through drawn material; a firing is counted by the software's own beam code.
``make hardware-sim`` runs the whole sweep (1,000 feeds and more) and judges the design."""

from __future__ import annotations

import contextlib
import io
import json
import math
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import pytest

from companion.devices.config import CardSensorConfig, EjectorConfig
from companion.devices.ejector import fan_duty, passing_duties
from companion.devices.sensor import count_burst
from hardware.sim import parts, shapes, sweep
from hardware.sim.beam import Beam
from hardware.sim.feed import (
    MM,
    Feed,
    FeedModel,
    Geometry,
    PrintErrors,
    Settings,
    Stack,
    belt_torque_limit,
    oring_sink,
    throw_distance,
)
from hardware.sim.mjcf import DRAWN_GROUP
from hardware.tools import scad

pytestmark = pytest.mark.slow  # each feed is a few seconds of MuJoCo

TOLERANCE = 0.05 * MM  # how far the model's pieces may stand off the drawn surface


@pytest.fixture(scope="module")
def fit() -> dict[str, Any]:
    return scad.fit_values()


@pytest.fixture(scope="module")
def geometry(fit: dict[str, Any]) -> Geometry:
    return Geometry.from_fit(fit)


@pytest.fixture(scope="module")
def drawn(fit: dict[str, Any]) -> shapes.Shapes:
    return shapes.load(fit)


@pytest.fixture(scope="module")
def solids(fit: dict[str, Any]) -> dict[str, scad.Mesh]:
    """Each part within reach as drawn (its clipped STL: the launcher's frame, mm), but the
    O-rings, which the model draws as round capsules (not seen by the rays below)."""
    found = parts.parts_in_reach(fit, whole=tuple(shapes.PRIMITIVES))
    return {n: scad.Mesh.read(p.stl) for n, p in found.items() if n not in shapes.PRIMITIVES}


def mesh_parts(model: mujoco.MjModel) -> dict[str, set[str]]:
    """The drawn parts in a built model, each with the bodies its pieces are on."""
    out: dict[str, set[str]] = {}
    for i in range(model.ngeom):
        if model.geom_type[i] == mujoco.mjtGeom.mjGEOM_MESH:
            part = model.geom(i).name.split(".")[0]
            out.setdefault(part, set()).add(model.body(model.geom_bodyid[i]).name)
    return out


def test_every_part_within_the_cards_reach_is_in_the_model_and_nothing_else(
    fit: dict[str, Any], geometry: Geometry, drawn: shapes.Shapes
) -> None:
    """The parts the assembly places within a few mm of the card path are the model's mesh
    bodies, each on the body it moves with; none of them is left out, none added."""
    in_reach = set(parts.parts_in_reach(fit, whole=tuple(shapes.PRIMITIVES)))
    # the idler's ears, the floor and nose are the magazine's; the rollers' cores their own
    assert {
        "magazine", "gate", "gate_shim", "separator", "separator_shoe", "separator_pad",
        "exit_roller", "idler_roller", "tyre_orings", "exit_orings", "idler_orings",
    } <= in_reach  # fmt: skip
    assert "follower" not in in_reach  # 33 mm over the path, on a full deck: the weight box
    model = FeedModel(geometry, Stack(0, 5, 0.5, 1.2, 0.3 * MM), shapes=drawn).model
    built = mesh_parts(model)
    geoms = {model.geom(i).name for i in range(model.ngeom)}
    drawn_here = {part for part, geom in shapes.PRIMITIVES.items() if geom in geoms}
    assert set(built) | drawn_here == in_reach
    for part, bodies in built.items():
        assert bodies == {shapes.BODY_OF[part] or "world"}, part
    # a part missing from the model is told
    fewer = shapes.Shapes({k: v for k, v in drawn.pieces.items() if k != "gate"}, 0.2)
    model = FeedModel(geometry, Stack(0, 5, 0.5, 1.2, 0.3 * MM), shapes=fewer).model
    assert in_reach - set(mesh_parts(model)) - drawn_here == {"gate"}


def rays(fit: dict[str, Any]) -> Iterator[tuple[tuple[float, float, float], int]]:
    """Lines along the card's way out (x, from behind the gate) at a card's and two cards'
    height over the land and over the gate's edge (whose lowest 0.2 mm the model rounds),
    across the card's width; and lines down onto the floor and the nose from over the path."""
    gate_x, edge = fit["gate"][0] * MM, (fit["gate"][2] - fit["path_z"]) * MM
    land = ((fit["land"][0] if "land" in fit else fit["path_z"]) - fit["path_z"]) * MM
    half = (fit["card"][0] / 2 - 0.1) * MM
    for y in np.linspace(-half, half, 41):
        for z in (land + 0.05 * MM, land + 0.3 * MM, edge + 0.3 * MM):
            yield (gate_x - 1 * MM, float(y), z), 0
    # (not from inside the shoe's pad nor the idler: a line starts in free space)
    shoe_x = fit["separator"][0] * MM
    # (nudged off the drawing's round numbers: a line along a face's edge is neither in nor out)
    for x in np.linspace(fit["pocket"][0] * MM + 2 * MM, fit["nose_x1"] * MM - 1 * MM, 25) + 17e-6:
        if abs(x - shoe_x) < 4 * MM:
            continue
        for y in np.linspace(-half + 2 * MM, half - 2 * MM, 9) + 17e-6:
            yield (float(x), float(y), 0.45 * MM), 2


def first_drawn(
    solids: dict[str, scad.Mesh], path_z: float, origin: tuple[float, float, float], axis: int
) -> float:
    """The distance (m) along the line from ``origin`` (m, the model's frame) to the first
    drawn material (+x, or down for z)."""
    sign = -1 if axis == 2 else 1
    at = (origin[0] / MM, origin[1] / MM, origin[2] / MM + path_z)
    best = math.inf
    for mesh in solids.values():
        for hit in mesh.crossings(at, axis):
            d = sign * (hit - at[axis]) * MM
            if 0 <= d < best:
                best = d
    return best


def first_modelled(model: mujoco.MjModel, data: mujoco.MjData, origin: Any, axis: int) -> float:
    direction = np.zeros(3)
    direction[axis] = -1.0 if axis == 2 else 1.0
    groups = np.zeros(6, dtype=np.uint8)
    groups[DRAWN_GROUP] = 1
    found = np.zeros(1, dtype=np.int32)
    d = mujoco.mj_ray(model, data, np.asarray(origin, float), direction, groups, 1, -1, found)
    return math.inf if d < 0 else float(d)


def misfits(fit: dict[str, Any], model: mujoco.MjModel, solids: dict[str, scad.Mesh]) -> list[str]:
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    out = []
    for origin, axis in rays(fit):
        at = (origin[0] / MM, origin[1] / MM, origin[2] / MM + fit["path_z"])
        if any(mesh.solid_at(at, 2, at[2]) for mesh in solids.values()):
            continue  # the line starts inside a drawn solid (a wall standing over the path)
        want = first_drawn(solids, fit["path_z"], origin, axis)
        got = first_modelled(model, data, origin, axis)
        if not (abs(want - got) <= TOLERANCE or (math.isinf(want) and got > 0.2)):
            where = " ".join(f"{c / MM:.2f}" for c in origin)
            out.append(f"from ({where}) mm along {'xyz'[axis]}: drawn {want / MM:.2f}, "
                       f"modelled {got / MM:.2f} mm")  # fmt: skip
    return out


def test_where_a_card_goes_the_model_has_material_exactly_where_the_drawing_has_it(
    fit: dict[str, Any], geometry: Geometry, drawn: shapes.Shapes, solids: dict[str, scad.Mesh]
) -> None:
    """Lines along the card's way at a card's height, two cards' and over the throat, and down
    onto the floor: the first material each meets in the model is the drawing's, within
    0.05 mm (the convex pieces neither fill a slot nor drop a wall, the nose stands where it is
    drawn). A model without the pinch idler's ears is told where it lacks them."""
    model = FeedModel(geometry, Stack(0, 5, 0.5, 1.2, 0.3 * MM), shapes=drawn).model
    assert misfits(fit, model, solids) == []
    # Every corner of the drawn solids is inside the model's pieces (within 0.05 mm): a model
    # that drops the pinch idler's ears (the magazine's pieces beside the pinch standing over
    # the path) is told what it lacks.
    assert missing(fit, drawn.pieces, solids) == []
    pinch_x = fit["exit"][0] * MM

    def ear(vertices: np.ndarray) -> bool:
        return bool(abs(vertices[:, 0].mean() - pinch_x) < 6 * MM and vertices[:, 2].max() > 1 * MM)

    ears = [p for p in drawn.pieces["magazine"] if ear(p[0])]
    assert ears, "the drawing has material over the path at the pinch (the idler's ears)"
    earless = dict(drawn.pieces)
    earless["magazine"] = tuple(p for p in drawn.pieces["magazine"] if not ear(p[0]))
    lacking = missing(fit, earless, solids)
    assert lacking and {line.split(":")[0] for line in lacking} == {"magazine"}, lacking
    assert all(abs(float(line.split()[1]) - pinch_x / MM) < 6 for line in lacking), lacking


def missing(
    fit: dict[str, Any], pieces: Any, solids: dict[str, scad.Mesh], tolerance: float = TOLERANCE
) -> list[str]:
    """The drawn solids' vertices (the model's frame) that no convex piece of their part holds
    (the gate's lowest EDGE_BAND is the model's own round, left out)."""
    edge = (fit["gate"][2] - fit["path_z"]) * MM
    out = []
    for name, mesh in solids.items():
        points = np.unique(np.array(mesh.triangles).reshape(-1, 3), axis=0) * MM
        points[:, 2] -= fit["path_z"] * MM
        if shapes.BODY_OF.get(name) == "gate":
            points = points[points[:, 2] > edge + shapes.EDGE_BAND + tolerance]
        outside = np.full(len(points), np.inf)
        for vertices, faces in pieces.get(name, ()):
            a, b, c = (vertices[faces[:, k]] for k in range(3))
            normal = np.cross(b - a, c - a)
            normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-300
            offset = np.einsum("ij,ij->i", normal, a)
            inward = np.einsum("ij,ij->i", normal, vertices.mean(axis=0) - a) > 0
            normal[inward], offset[inward] = -normal[inward], -offset[inward]
            outside = np.minimum(outside, (points @ normal.T - offset).max(axis=1))
        for p in points[outside > tolerance]:
            out.append(f"{name}: {p[0] / MM:.2f} {p[1] / MM:.2f} {p[2] / MM:.2f} mm not modelled")
    return out


def test_a_stack_sinks_into_the_silicone_as_its_hardness_says(geometry: Geometry) -> None:
    """Soft contacts: under the follower alone and under a full deck the bottom card sinks
    0.1-0.24 mm into the tyres' O-rings, within a factor of two of Hertz for 65 Shore A."""
    ring = scad.fit_values()["orings"][0]
    cord, top_r = ring[3] * MM, ring[4] * MM
    sinks = []
    for cards in (1, 112):
        feed = FeedModel(geometry, Stack(0, cards, 0.5, 1.0, 0.27 * MM))
        mujoco.mj_step(feed.model, feed.data, round(0.15 / feed.settings.timestep))
        bottom = feed.height_at(0, geometry.feed_x)
        sinks.append(-bottom)
        load = (geometry.follower_mass + cards * geometry.card_mass) * 9.81 / 4  # four rings
        # (MuJoCo's soft contact is not Hertz's: within a factor of two of it)
        assert 0.5 < -bottom / oring_sink(load, cord, top_r) < 2, cards
        assert 0.1 * MM <= -bottom <= 0.24 * MM, cards
    assert sinks[1] > sinks[0]


def test_the_drive_is_the_servo_and_the_belt_as_bought(geometry: Geometry) -> None:
    """The feed servo's torque falls with its speed from 80 % of its rating at stall; the
    belt carries to the back wheel no more than it grips: a toothed belt half the servo's, an
    O-ring belt a fifth of it or so."""
    model = FeedModel(geometry, Stack(0, 5, 0.5, 1.2, 0.3 * MM)).model
    stall = {n: float(model.actuator(n).gainprm[0]) for n in ("tyre", "back")}
    assert sum(stall.values()) == pytest.approx(0.8 * geometry.feed_torque)
    assert stall["back"] == pytest.approx(min(geometry.belt_limit, stall["tyre"]))
    o_ring = {"belt": [[32, 2], 8.44437, 26.25]}  # the first drawing's belt
    assert 0.1 < belt_torque_limit(o_ring) / 0.15 < 0.3
    for name, gain in stall.items():
        actuator = model.actuator(name)
        # torque = gain x (on - speed / no-load speed), forward only
        assert float(actuator.biasprm[2]) == pytest.approx(-gain / geometry.feed_speed, rel=1e-5)
        assert list(actuator.forcerange) == pytest.approx([0.0, gain], rel=1e-5)
    assert belt_torque_limit(o_ring, mu=1.0) > belt_torque_limit(o_ring)  # a grippier one, more
    assert belt_torque_limit({"timing_belt": [[2, 20, 50, 6], 30]}) == math.inf


def one_feed(*args: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert sweep.main(list(args)) == 0
    return [dict(json.loads(line)) for line in out.getvalue().splitlines()]


def obstacle(solids: dict[str, scad.Mesh], fit: dict[str, Any], thickness: float) -> float:
    """Where the first drawn material stands in a card's way, past the gate (x, metres), over
    the card's width at half a card's height (inf: nothing)."""
    gate_out = (fit["gate"][0] + fit["gate"][1]) * MM
    half = fit["card"][0] / 2 * MM
    return min(
        gate_out + first_drawn(solids, fit["path_z"], (gate_out, float(y), thickness / 2), 0)
        for y in np.linspace(-half, half, 57)
    )


@pytest.mark.parametrize(
    "corner",
    [
        ("--throat-err", "0.1", "--thickness", "0.27", "--mu-tyre", "0.6", "--gate-rise", "0.2"),
        ("--throat-err", "-0.1", "--thickness", "0.36", "--nose-err", "0.1", "--edge-r", "0.2"),
        ("--stack", "112", "--mu-card", "0.7", "--thickness", "0.36", "--separator-err", "0.3"),
    ],
)
def test_at_the_sweeps_corners_no_card_goes_through_drawn_material(
    corner: tuple[str, ...], fit: dict[str, Any], solids: dict[str, scad.Mesh]
) -> None:
    """Three cards in a row at a corner of the sweep: each feed is recorded whole (a jam or a
    double fed again at half the time step: the sweep counts how often the verdicts agree); a
    card that the drawing stops (a wall in its way) stops there and is a jam, and a feed with
    nothing drawn in its way sends a card or is called a jam, never nothing."""
    rows = one_feed(*corner, "--feeds", "3")
    assert 1 <= len(rows) <= 3
    for row in rows:
        assert {"cards_out", "jam", "past_gate", "gate_rise_mm", "edge_r_mm"} <= set(row)
        assert row["converged"] in (None, True, False)
        assert (row["converged"] is None) == (row["cards_out"] == 1 and not row["jam"]), row
    thickness = rows[0]["thickness_mm"] * MM
    wall = obstacle(solids, fit, thickness)
    beam = fit["beam"][0] * MM
    if wall < beam:
        assert rows[-1]["jam"] and rows[-1]["cards_out"] == 0, rows
    else:  # nothing drawn in the way: each feed sent a card or was called a jam
        assert all(r["cards_out"] >= 1 or r["jam"] for r in rows), rows


def test_the_beam_is_counted_by_the_softwares_own_code() -> None:
    """The simulated beam drives the software's sensor on a mock pin with the simulation's
    clock: a burst whose later cards the fan slows is five cards, as count_burst says, and a
    spell two cards long is a double."""
    config = EjectorConfig()
    sensor = CardSensorConfig()
    duties = passing_duties(config, 5)
    spells = [sensor.card_pass_s / d for d in duties]
    now = [0.0]
    beam = Beam(lambda: now[0], duties)
    try:
        for dark in spells:
            beam.see(True)
            now[0] += dark
            beam.see(False)
            now[0] += 0.05
        assert beam.counted() == sum(count_burst(spells, sensor, duties)) == 5
        assert beam.doubles() == 0
        assert beam.spells() == pytest.approx(spells)
    finally:
        beam.close()
    beam = Beam(lambda: now[0])
    try:
        beam.see(True)
        now[0] += 2.1 * sensor.card_pass_s
        beam.see(False)
        assert (beam.counted(), beam.doubles()) == (2, 1)
    finally:
        beam.close()


def test_the_simulation_fires_as_the_software_does() -> None:
    """The simulated firing steps the pinch's duty as the ejector does, from the same config."""
    config = EjectorConfig()
    duties = sweep.fan_duties(5, config)
    assert duties == [fan_duty(config.exit_duty, config.exit_fan, k, 5) for k in range(5)]
    assert duties[0] == config.exit_duty > duties[-1]


def test_the_throw_lands_in_front_of_a_seat() -> None:
    # 2.2 m/s flat from 104 mm over the table, 49 mm from the axis: about 0.36 m from the middle
    flat = 0.049 + 2.2 * math.sqrt(0.208 / 9.81)
    assert throw_distance(2.2, 0.104, 0, 0.049) == pytest.approx(flat)
    assert throw_distance(0, 0.104, 0, 0.049) == pytest.approx(0.049)
    assert throw_distance(2.2, 0.104, 10, 0.049) > throw_distance(2.2, 0.104, 0, 0.049)


def test_the_sweep_draws_its_stacks_from_the_seed_and_summarises(
    fit: dict[str, Any], tmp_path: Path
) -> None:
    friction = fit["friction"]
    assert sweep.draw(7, friction) == sweep.draw(7, friction) != sweep.draw(8, friction)
    draws = [sweep.draw(seed, friction) for seed in range(200)]
    for d in draws:
        s, e = d.stack, d.errors
        assert 1 <= s.cards <= 112 and 0.3 <= s.mu_card <= 0.7
        assert 0.6 <= s.mu_tyre <= friction[1][1]
        assert 0.27 * MM <= s.thickness <= 0.36 * MM
        assert abs(e.throat) <= 0.1 * MM and abs(e.nose) <= 0.1 * MM + 1e-12
        assert abs(e.separator) <= 0.3
        assert 0 <= e.rise <= 0.2 * MM and 0.1 * MM <= e.edge_r <= 0.2 * MM
    # the draws cover their ranges
    assert min(d.stack.cards for d in draws) < 10 and max(d.stack.cards for d in draws) > 100
    assert max(d.errors.throat for d in draws) > 0.09 * MM
    assert min(d.stack.mu_tyre for d in draws) < 0.65
    # the sweep's own stacks reach over two thirds of every range, fed to one card; a sweep that
    # drew only part of a range is told so
    g = Geometry.from_fit(fit)
    fed = [
        sweep.record(sweep.Job(g, d, Settings()), n, Feed(1, False, 2.0))
        for d in draws[:19]
        for n in (1, d.stack.cards)
    ]
    assert sweep.uncovered(fed, friction) == []
    narrow = [{**r, "mu_card": min(float(r["mu_card"]), 0.5)} for r in fed]
    assert [gap.split()[0] for gap in sweep.uncovered(narrow, friction)] == ["mu_card"]
    rows: list[dict[str, Any]] = [
        {"seed": 1, "stack": 9, "cards_out": 1, "jam": False, "exit_speed": 2.0, "converged": None},
        {"seed": 1, "stack": 8, "cards_out": 2, "jam": False, "exit_speed": 1.0, "converged": True},
        {"seed": 1, "stack": 6, "cards_out": 0, "jam": True, "exit_speed": 0.0, "converged": False},
        {"seed": 1, "stack": 6, "cards_out": 1, "jam": False, "exit_speed": 2.2, "converged": None},
    ]
    summary = sweep.summarise(rows)
    assert (summary.feeds, summary.singles, summary.doubles, summary.jams) == (4, 2, 1, 1)
    assert (summary.near, summary.converged, summary.two_through) == (2, 1, 1)
    assert summary.exit_speed == pytest.approx(2.1)
    sweep.write(tmp_path / "feeds.jsonl", rows)
    lines = (tmp_path / "feeds.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == rows
    assert replace(draws[0].errors, rise=0.0).rise == 0.0
    assert PrintErrors().edge_r == pytest.approx(0.15 * MM)


def test_a_card_held_at_the_shim_does_not_drag_the_clamped_gate_into_the_bottom_cards_way(
    geometry: Geometry,
) -> None:
    """The nominal feed: the second card is driven against the shim's face and held there; the
    clamped gate stays where its screws hold it (within a micrometre) and the bottom card goes
    under its edge. With MuJoCo's default (soft) joint limit the gate sank 0.37 mm into the
    bottom card's way and stopped it at the shim's face."""
    feed = FeedModel(geometry, Stack(0, 40, 0.5, 1.25, 0.3 * MM))
    gate = feed.model.jnt_qposadr[feed.model.joint("gate").id]
    feed.step(feed.settings.settle)
    feed.feeding = True
    lowest = 0.0
    for _ in range(60):
        feed.step(0.005)
        lowest = min(lowest, float(feed.data.qpos[gate]))
    assert lowest > -1e-6, f"the gate sank {-lowest / MM:.3f} mm"
    assert feed.front_of(0) > geometry.edge_x + 2 * MM  # the bottom card went under the shim
    assert feed.front_of(1) < geometry.edge_x + 0.5 * MM  # the second stayed at its face
