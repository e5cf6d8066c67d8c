"""The feed simulation, small: the design feeds one card at the sweep's hardest corner where a
plain bottom feed jams, the negative control (throat at two cards, no separator) doubles, and a
card lying on the tyres sinks only micrometres into them. ``make hardware-sim`` runs the whole
sweep (300+ feeds)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import mujoco
import pytest

from hardware.sim import sweep
from hardware.sim.feed import MM, FeedModel, Geometry, Settings, Stack, build_xml, throw_distance
from hardware.tools import scad


@pytest.fixture(scope="module")
def geometry() -> Geometry:
    return Geometry.from_fit(scad.fit_values())


def test_the_model_is_built_from_dims_scad(geometry: Geometry) -> None:
    fit = scad.fit_values(throat_h=0.5, tyre_r=18)
    changed = Geometry.from_fit(fit)
    assert changed.throat == pytest.approx(0.5 * MM) and geometry.throat != changed.throat
    assert changed.tyre_r == pytest.approx(18 * MM)
    model = mujoco.MjModel.from_xml_string(
        build_xml(changed, Stack(0, 5, 0.3, 0.9, 0.3 * MM), Settings())
    )
    gate = model.geom("gate")
    assert gate.pos[2] - gate.size[2] == pytest.approx(0.5 * MM)


def test_a_thin_card_rests_on_the_tyres_sinking_micrometres(geometry: Geometry) -> None:
    """The soft contacts tuned on one card: under the follower's weight it sinks under 5 µm."""
    thickness = 0.27 * MM
    feed = FeedModel(geometry, Stack(0, 1, 0.5, 0.6, thickness))
    mujoco.mj_step(feed.model, feed.data, round(0.05 / feed.settings.timestep))
    bottom = float(feed.data.xpos[feed.card_ids[0]][2]) - thickness / 2
    assert -5e-6 < bottom < 1e-6


def test_the_corner_of_the_sweep_feeds_one_card_at_a_time(geometry: Geometry) -> None:
    corner = Stack(1000, 5, mu_card=0.5, mu_tyre=0.6, thickness=0.27 * MM)
    feed = FeedModel(geometry, corner)
    done = feed.feed_one()
    assert (done.cards_out, done.jam) == (1, False)
    assert done.exit_speed > 1.5  # thrown, not dropped
    assert feed.remaining == 4


def test_a_plain_bottom_feed_jams_at_the_corner(geometry: Geometry) -> None:
    """One tyre, a free roller at the back, the floor under the stack: the design this feed
    answers. At the corner of the sweep it cannot push the card out."""
    corner = Stack(2000, 5, mu_card=0.5, mu_tyre=0.6, thickness=0.27 * MM)
    done = FeedModel(geometry.plain(), corner).feed_one()
    assert (done.cards_out, done.jam) == (0, True)


def test_the_control_without_separator_doubles(geometry: Geometry) -> None:
    stack = sweep.drawn_stack(1)
    done = FeedModel(geometry.control(stack.thickness), stack).feed_one()
    assert done.cards_out == 2  # with the design's throat and separator it feeds one (the sweep)


def test_the_throw_lands_in_front_of_a_seat() -> None:
    # 2.2 m/s flat from 104 mm over the table, 49 mm from the axis: about 0.36 m from the middle
    flat = 0.049 + 2.2 * math.sqrt(0.208 / 9.81)
    assert throw_distance(2.2, 0.104, 0, 0.049) == pytest.approx(flat)
    assert throw_distance(0, 0.104, 0, 0.049) == pytest.approx(0.049)
    assert throw_distance(2.2, 0.104, 10, 0.049) > throw_distance(2.2, 0.104, 0, 0.049)


def test_the_sweep_draws_its_stacks_from_the_seed_and_summarises(tmp_path: Path) -> None:
    assert sweep.drawn_stack(7) == sweep.drawn_stack(7) != sweep.drawn_stack(8)
    for seed in range(50):
        stack = sweep.drawn_stack(seed)
        assert 5 <= stack.cards <= 100 and 0.2 <= stack.mu_card <= 0.5
        assert 0.6 <= stack.mu_tyre <= 1.2 and 0.27 * MM <= stack.thickness <= 0.33 * MM
    rows: list[dict[str, object]] = [
        {"seed": 1, "stack": 9, "cards_out": 1, "jam": False, "exit_speed": 2.0},
        {"seed": 1, "stack": 8, "cards_out": 2, "jam": False, "exit_speed": 1.0},
        {"seed": 1, "stack": 6, "cards_out": 0, "jam": True, "exit_speed": 0.0},
        {"seed": 1, "stack": 6, "cards_out": 1, "jam": False, "exit_speed": 2.2},
    ]
    summary = sweep.summarise(rows)
    assert (summary.feeds, summary.singles, summary.doubles, summary.jams) == (4, 2, 1, 1)
    assert summary.exit_speed == pytest.approx(2.1)
    sweep.write(tmp_path / "feeds.jsonl", rows)
    lines = (tmp_path / "feeds.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == rows
