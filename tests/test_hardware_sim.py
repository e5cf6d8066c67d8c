"""The feed simulation, small: the model is the drawing (every surface a card meets, every spring
and mass, from ``dims.scad`` through ``fit.scad``, nothing moved in the model alone); a card
sinks only micrometres into the tyres; the corners of the tolerance sweep feed one card; the
negative control doubles; a counted firing counts. ``make hardware-sim`` runs the whole sweep
(1,000 feeds and more)."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path
from typing import Any

import mujoco
import pytest

from companion.devices.config import EjectorConfig
from companion.devices.ejector import fan_duty
from hardware.sim import sweep
from hardware.sim.feed import (
    MM,
    Feed,
    FeedModel,
    Geometry,
    PrintErrors,
    Settings,
    Stack,
    build_xml,
    throw_distance,
)
from hardware.tools import scad

pytestmark = pytest.mark.slow  # each feed is a second or so of MuJoCo


@pytest.fixture(scope="module")
def fit() -> dict[str, Any]:
    return scad.fit_values()


@pytest.fixture(scope="module")
def geometry(fit: dict[str, Any]) -> Geometry:
    return Geometry.from_fit(fit)


def surfaces(
    fit: dict[str, Any], stack: Stack, errors: PrintErrors | None = None
) -> dict[str, float]:
    """The height over the card path of every surface a card meets in the built model: the top
    of what carries it, the underside of what stands over it (metres)."""
    g = Geometry.from_fit(fit).printed(errors or PrintErrors())
    model = mujoco.MjModel.from_xml_string(build_xml(g, stack, Settings()))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)

    def geom(name: str) -> tuple[float, Any]:
        return float(data.geom_xpos[model.geom(name).id][2]), model.geom(name).size

    out = {}
    for name in ("floor", "nose", "nose2"):
        z, size = geom(name)
        out[name] = z + size[2]
    for name in ("tyre", "back", "exit"):
        z, size = geom(name)
        out[name] = z + size[0]
    for name in ("idler", "pad", "gate"):
        z, size = geom(name)
        out[name] = z - size[0]
    out["pad_rate"] = float(model.jnt_stiffness[model.joint("pad").id])
    out["pad_force"] = -out["pad_rate"] * float(
        model.qpos_spring[model.jnt_qposadr[model.joint("pad").id]]
    )
    out["pinch_rate"] = float(model.jnt_stiffness[model.joint("idler_z").id])
    out["pinch_force"] = -out["pinch_rate"] * float(
        model.qpos_spring[model.jnt_qposadr[model.joint("idler_z").id]]
    )
    out["card_mass"] = float(model.body_mass[model.body("card0").id])
    out["tyre_r"] = float(model.geom("tyre").size[0])
    out["shoe_r"] = float(model.geom("pad").size[0])
    return out


def expected(fit: dict[str, Any], errors: PrintErrors | None = None) -> dict[str, float]:
    """The same, read straight from the echo of dims.scad (millimetres, newtons, N/mm)."""
    e = errors or PrintErrors()
    path = fit["path_z"]
    nose = (fit["nose_top"] - path) * MM + e.nose
    _, _, force, _, rate, shoe_r, _ = fit["separator"]
    return {
        "floor": (fit["floor_top"] - path) * MM,
        "nose": nose,
        "nose2": nose,
        "tyre": 0.0,
        "back": 0.0,
        "exit": fit["nip_lift"] * MM,
        "idler": fit["nip_lift"] * MM,
        "pad": nose,
        "gate": fit["throat_h"] * MM + e.throat,
        "pad_rate": rate / MM,
        "pad_force": force * (1 + e.separator),
        "pinch_rate": fit["pinch"][1] / MM,
        "pinch_force": fit["pinch"][0],
        "card_mass": fit["card_mass"] / 1000,
        "tyre_r": fit["orings"][0][4] * MM,
        "shoe_r": shoe_r * MM,
    }


def test_the_model_is_the_drawing_with_nothing_moved_in_the_simulation_alone(
    fit: dict[str, Any],
) -> None:
    """Every surface a card meets stands where dims.scad puts it, every spring pushes with the
    rate and preload dims.scad computes from its wire: an offset added in the model alone (a
    nose lowered "so a card does not stub", a softer pad) fails here."""
    stack = Stack(0, 5, 0.5, 1.2, 0.3 * MM)
    built, drawn = surfaces(fit, stack), expected(fit)
    assert built.keys() == drawn.keys()
    for name, value in drawn.items():
        assert built[name] == pytest.approx(value, rel=1e-5, abs=1e-9), name
    # a print error moves the part it belongs to, by exactly that much, and nothing else
    errors = PrintErrors(throat=0.1 * MM, nose=-0.1 * MM, separator=0.3)
    built, drawn = surfaces(fit, stack, errors), expected(fit, errors)
    for name, value in drawn.items():
        assert built[name] == pytest.approx(value, rel=1e-5, abs=1e-9), name


def test_the_model_follows_dims_scad() -> None:
    """Change a dimension in dims.scad: the model changes with it (the tyre's top follows the
    O-ring seated in its groove, the separator's force its spring)."""
    fit = scad.fit_values(throat_h=0.6, tyre_oring="[23, 2]", sep_spring_len=19)
    built, drawn = surfaces(fit, Stack(0, 5, 0.5, 1.2, 0.3 * MM)), expected(fit)
    for name, value in drawn.items():
        assert built[name] == pytest.approx(value, rel=1e-5, abs=1e-9), name
    assert drawn["gate"] == pytest.approx(0.6 * MM)
    default = scad.fit_values()
    # a smaller ring stretches more: its cord thins, and it seats lower in its groove
    assert fit["orings"][0][2] > default["orings"][0][2]
    assert fit["orings"][0][4] < default["orings"][0][4]
    assert fit["separator"][2] < default["separator"][2]


def test_a_thin_card_rests_on_the_tyres_sinking_micrometres(geometry: Geometry) -> None:
    """The soft contacts: under the follower's weight a card sinks under 5 µm."""
    thickness = 0.27 * MM
    feed = FeedModel(geometry, Stack(0, 1, 0.5, 1.0, thickness))
    mujoco.mj_step(feed.model, feed.data, round(0.05 / feed.settings.timestep))
    bottom = float(feed.data.xpos[feed.card_ids[0]][2]) - thickness / 2
    assert -5e-6 < bottom < 1e-6


def one_feed(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert sweep.main(list(args)) == 0
    (line,) = out.getvalue().splitlines()
    return dict(json.loads(line))


@pytest.mark.parametrize(
    "corner",
    [
        ("--throat-err", "0.1", "--thickness", "0.27"),
        ("--throat-err", "-0.1", "--thickness", "0.36"),
        ("--nose-err", "0.1"),
        ("--mu-card", "0.7"),  # at the tyre material's lowest friction, the default
        ("--stack", "1", "--mu-card", "0.7"),
        ("--stack", "112", "--mu-card", "0.7", "--thickness", "0.36"),
        # the separator's spring 30 % weak with two thin cards under a high gate, and 30 % strong
        # with thick cards under a low gate and a high nose
        (
            "--separator-err",
            "-0.3",
            "--mu-card",
            "0.7",
            "--throat-err",
            "0.1",
            "--thickness",
            "0.27",
        ),
        (
            "--separator-err",
            "0.3",
            "--mu-card",
            "0.7",
            "--throat-err",
            "-0.1",
            "--thickness",
            "0.36",
            "--nose-err",
            "0.1",
        ),
    ],
)
def test_each_corner_feeds_one_card(corner: tuple[str, ...]) -> None:
    row = one_feed(*corner)
    assert set(row) >= {
        "seed", "stack", "mu_card", "mu_tyre", "thickness_mm", "throat_err_mm", "nose_err_mm",
        "separator_err", "cards_out", "jam", "exit_speed", "converged",
    }  # fmt: skip
    assert (row["cards_out"], row["jam"], row["converged"]) == (1, False, True), row
    assert row["exit_speed"] > 1.5  # thrown, not dropped


def test_the_control_without_separator_doubles(geometry: Geometry) -> None:
    stack = Stack(7, 20, 0.5, 1.2, 0.3 * MM)
    done = FeedModel(geometry.control(stack.thickness), stack).feed_one()
    assert done.cards_out == 2  # with the design's throat and separator it feeds one (above)


def test_a_counted_firing_of_five_counts_five_within_a_second_landing_in_a_row(
    geometry: Geometry,
) -> None:
    job = sweep.FireJob(geometry, 5, Stack(3005, 40, 0.5, 1.25, 0.3 * MM))
    fired = sweep.fire(job)
    assert (fired.counted, fired.cards_out, fired.doubles, fired.jam) == (5, 5, 0, False)
    assert fired.seconds <= sweep.FIRE_LIMIT_S  # simulated seconds, command to last card out
    assert len(fired.landing) == 5 and fired.landing[0] == max(fired.landing)
    assert fired.landing[0] - min(fired.landing) > 0.05  # a row toward the player, not a heap


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
        assert friction[1][0] <= s.mu_tyre <= friction[1][1]
        assert 0.27 * MM <= s.thickness <= 0.36 * MM
        assert abs(e.throat) <= 0.1 * MM and abs(e.nose) <= 0.1 * MM
        assert abs(e.separator) <= 0.3
    # the draws cover their ranges
    assert min(d.stack.cards for d in draws) < 10 and max(d.stack.cards for d in draws) > 100
    assert max(d.errors.throat for d in draws) > 0.09 * MM
    # the sweep's own stacks reach over two thirds of every range, fed to one card; a sweep that
    # drew only part of a range is told so
    fed = [
        sweep.record(sweep.Job(Geometry.from_fit(fit), d, Settings()), n, Feed(1, False, 2.0))
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
    assert (summary.near, summary.converged) == (2, 1)
    assert summary.exit_speed == pytest.approx(2.1)
    sweep.write(tmp_path / "feeds.jsonl", rows)
    lines = (tmp_path / "feeds.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == rows
