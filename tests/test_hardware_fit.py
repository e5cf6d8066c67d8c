"""The printable launcher: every part renders to one closed solid that fits the bed, and the
parts fit the cards, the servos, the software's default angles and each other.

Parts are rendered with Debian's OpenSCAD (installed by ``make test``), cached by source hash in
build/hardware/. Positions come from hardware/fit.scad (echoed) and are checked on the meshes:
a hole the tests expect must really be open along the line they cast through the STL.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any

import pytest

from companion.devices.config import EjectorConfig, TurretConfig
from hardware.tools import scad

X, Y, Z = 0, 1, 2
pytestmark = pytest.mark.slow  # the first run renders every part with OpenSCAD


@pytest.fixture(scope="module")
def meshes() -> dict[str, scad.Mesh]:
    return {name: scad.Mesh.read(path) for name, path in scad.render_parts().items()}


@pytest.fixture(scope="module")
def fit() -> dict[str, Any]:
    return scad.fit_values()


def free_along(mesh: scad.Mesh, origin: tuple[float, float, float], axis: int) -> bool:
    return not mesh.material(origin, axis)


def test_every_part_is_one_closed_solid_lying_on_a_220_mm_bed(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    assert set(meshes) >= {
        "base_tray", "deck", "turret_bracket", "turntable", "chassis_pusher", "chassis_roller",
        "magazine", "gate", "follower", "pusher_sled", "pusher_arm", "roller_wheel",
        "retrofit_plate",
    }  # fmt: skip
    for name, mesh in meshes.items():
        assert mesh.open_edges() == 0, f"{name}: edges not shared by exactly two triangles"
        assert mesh.components() == 1, f"{name}: more than one piece"
        low, _ = mesh.bounds()
        assert abs(low[Z]) < 1e-3, f"{name}: does not start on the bed (z = {low[Z]})"
        width, depth, height = mesh.size()
        assert max(width, depth) <= fit["bed"] - 5, f"{name}: {width:.0f} x {depth:.0f} mm"
        assert height <= 200, name


def test_binary_and_ascii_stl_read_alike(meshes: dict[str, scad.Mesh], tmp_path: Path) -> None:
    follower = meshes["follower"]
    binary = tmp_path / "follower.stl"
    with binary.open("wb") as out:
        out.write(b"\0" * 80 + struct.pack("<I", len(follower.triangles)))
        for triangle in follower.triangles:
            out.write(struct.pack("<12fH", 0, 0, 0, *(c for p in triangle for c in p), 0))
    again = scad.Mesh.read(binary)
    assert again.open_edges() == 0 and again.components() == 1
    assert again.size() == pytest.approx(follower.size(), abs=1e-4)


def test_no_part_needs_supports(meshes: dict[str, scad.Mesh]) -> None:
    """Every face that looks down at more than 45° from vertical is a bridge: material on both
    sides of the air under it, at most 45 mm apart (a cantilever would need supports)."""
    for name, mesh in meshes.items():
        bed = mesh.bounds()[0][Z]
        for triangle, normal, area in mesh.facets():
            centre = [sum(p[i] for p in triangle) / 3 for i in range(3)]
            if normal[Z] >= -0.72 or area < 1.0 or centre[Z] < bed + 0.05:
                continue
            centre[Z] -= 0.05
            spans = []
            for axis in (X, Y):
                air = mesh.material(centre, axis)
                before = [hi for lo, hi in air if hi <= centre[axis]]
                after = [lo for lo, hi in air if lo >= centre[axis]]
                if before and after:
                    spans.append(min(after) - max(before))
            assert spans and min(spans) <= 45, f"{name}: unsupported overhang at {centre}"


def test_the_assembly_evaluates_cleanly_in_every_variant(tmp_path: Path) -> None:
    for variant in ("pusher", "roller", "retrofit"):
        target = tmp_path / f"{variant}.echo"
        scad.run_openscad(scad.ASSEMBLY, target, "-D", f'variant="{variant}"')
        assert target.exists()


def test_a_card_lies_flat_from_the_pocket_to_the_end_of_the_tray(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    magazine = meshes["magazine"]
    card_w, card_l, card_t = fit["card"]
    px0, px1, _pocket_w = fit["pocket"]
    floor = magazine.material(((px0 + px1) / 2, -15, 0), Z)[0][1]  # floor top, magazine frame
    # the floor is one flat piece under the card, no dip or step at the throat or the arch
    for y in (-15, 20):
        under = magazine.material((0, y, floor - 0.05), X)
        assert any(lo <= px0 and hi >= fit["tray_x1"] - 0.01 for lo, hi in under), under
        above = magazine.material((0, y, floor + card_t / 2), X)
        assert not [s for s in above if s[1] > px0 + 0.1 and s[0] < fit["tray_x1"]], above
    # the pocket guides the card without pinching it, up the whole stack and through the throat
    for x, z in (
        ((px0 + px1) / 2, floor + 10),
        ((px0 + px1) / 2, floor + 40),
        (px1 + 3, floor + 0.15),
    ):
        walls = magazine.material((x, 0.37, z), Y)
        inner = [hi for lo, hi in walls if hi < 0] + [lo for lo, hi in walls if lo > 0]
        gap = min(lo for lo in inner if lo > 0) - max(hi for hi in inner if hi < 0)
        assert card_w + 0.5 <= gap <= card_w + 3, (x, z, gap)
    assert card_l + 0.5 <= px1 - px0 <= card_l + 3


def test_the_gate_lets_one_card_through_and_the_tooth_under_it(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    card_t = fit["card"][2]
    assert 1.2 * card_t <= fit["throat_h"] <= 1.8 * card_t
    # the tooth catches the bottom card only, and passes under the gate through its notch
    assert card_t < fit["tooth_h"] < 2 * card_t
    notch_w, notch_h = fit["gate_notch"]
    assert fit["throat_h"] + fit["tooth_h"] + 0.3 <= notch_h
    fin_lo, fin_hi = fit["fin_y"]
    assert -notch_w / 2 + 0.5 <= fin_lo and fin_hi <= notch_w / 2 - 0.5
    gate = meshes["gate"]  # print frame: x across the throat, y up from the lower edge
    for x in (-25.3, -10.1, 9.7, 26.2):
        assert gate.material((x, 0, 1.5), Y)[0][0] == pytest.approx(0, abs=0.01)
    assert gate.material((0.3, 0, 1.5), Y)[0][0] == pytest.approx(notch_h, abs=0.01)


def test_the_magazine_holds_a_full_extreme_deck_under_the_follower(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    magazine, follower = meshes["magazine"], meshes["follower"]
    _card_w, _, card_t = fit["card"]
    px0, px1, pocket_w = fit["pocket"]
    centre = magazine.material(((px0 + px1) / 2, -15, 0), Z)
    assert len(centre) == 1  # nothing above the floor in the pocket
    wall = magazine.material(((px0 + px1) / 2, pocket_w / 2 + 1, 0), Z)
    stack_room = wall[-1][1] - centre[0][1]
    low, _high = follower.bounds()
    follower_body = follower.material((low[X] + 2, 0.3, 0), Z)[0][1]
    assert follower_body == pytest.approx(fit["follower_h"], abs=0.01)
    assert (stack_room - follower_body - 3) / card_t >= fit["cards_min"]
    assert follower.size()[Y] <= pocket_w - 1 and follower.size()[X] <= px1 - px0 - 1


def test_one_pusher_stroke_at_the_software_defaults_sends_out_exactly_one_card(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    defaults = EjectorConfig()
    assert fit["angles"] == [defaults.rest_angle, defaults.stroke_angle, defaults.pull_back_angle]
    # The safe default pulses make a servo that turns 180° over 500..2500 µs swing only 0.9 of
    # the configured angle; a calibrated one swings all of it. Both strokes must work.
    low, high = defaults.min_pulse_us, defaults.max_pulse_us
    assert fit["swing_scale"] == [pytest.approx((high - low) / 2000), 1.0]
    card_l = fit["card"][1]
    px0 = fit["pocket"][0]
    arm_l, mid = fit["arm_l"], (defaults.rest_angle + defaults.stroke_angle) / 2
    behind, ahead = fit["sled"]
    chassis_low, chassis_high = meshes["chassis_pusher"].bounds()
    slot_low, slot_high = fit["tongue_slot"]
    for scale in fit["swing_scale"]:

        def tooth(angle: float, scale: float = scale) -> float:
            return float(fit["tooth_mid_x"] + arm_l * math.sin(math.radians((angle - mid) * scale)))

        rest, stroke, back = (tooth(a) for a in fit["angles"])
        assert rest <= px0 - 0.3  # at rest the tooth waits behind the bottom card
        assert stroke - rest >= card_l  # the stroke is longer than a card ...
        assert stroke >= fit["gate_x"] + fit["gate_t"]  # ... its trailing edge clears the gate
        assert fit["tray_x1"] - stroke < card_l / 2 - 5  # its centre is past the tray: it tips
        assert stroke + ahead < fit["beam"][0] - 2  # the sled stops short of the IR receiver
        assert stroke + 1 <= fit["slot_end_x"]  # the fin stays in the floor's slot
        assert chassis_low[X] <= back - behind and stroke + ahead <= chassis_high[X]
        # the arm's pin stays in the sled's slot over the whole swing, its tip under the sled
        swing = [defaults.pull_back_angle, defaults.rest_angle, mid, defaults.stroke_angle]
        pin_z = [fit["shaft"][1] + arm_l * math.cos(math.radians((a - mid) * scale)) for a in swing]
        assert slot_low <= min(pin_z) - 1.5 and max(pin_z) + 1.5 <= slot_high
    assert fit["arm_tip_z"] < fit["sled_z0"]


def test_the_roller_touches_the_bottom_card_through_the_floor(fit: dict[str, Any]) -> None:
    x, z_centre, tyre = fit["roller"]
    px0, px1, _ = fit["pocket"]
    card_t = fit["card"][2]
    assert 0 < z_centre + tyre - fit["floor_top"] < 2 * card_t + 0.3
    assert px0 + fit["card"][1] / 2 < x < px1  # drives the front half, near the throat


def test_mating_screw_holes_line_up(meshes: dict[str, scad.Mesh], fit: dict[str, Any]) -> None:
    tray, deck, bracket = meshes["base_tray"], meshes["deck"], meshes["turret_bracket"]
    for x, y in fit["base_corners"]:
        assert free_along(deck, (x, y, 0), Z), (x, y)
        boss = tray.material((x, y, 0), Z)
        assert boss[-1][1] < tray.size()[Z] - 5  # the insert's hole opens at the top
        assert tray.solid_at((x + 3, y, 0), Z, tray.size()[Z] - 1)  # in a boss
    for x, y in fit["bracket_screws"]:
        assert free_along(deck, (x, y, 0), Z) and free_along(bracket, (x, y, 0), Z)
        assert bracket.solid_at((x + 4.5, y, 0), Z, 3)
    turntable, magazine = meshes["turntable"], meshes["magazine"]
    for x, y in fit["ch_screw"]:
        assert free_along(meshes["retrofit_plate"], (x, y, 0), Z)
    for name in ("chassis_pusher", "chassis_roller"):
        chassis = meshes[name]
        for x, y in fit["ch_screw"]:
            assert free_along(turntable, (x, y, 0), Z) and free_along(chassis, (x, y, 0), Z)
            assert chassis.solid_at((x + 4.5, y, 0), Z, 1.5), (name, x, y)
        for x, y in fit["mag_bosses"]:
            assert free_along(magazine, (x, y, 0), Z)
            top = chassis.size()[Z]
            assert not chassis.solid_at((x, y, 0), Z, top - 1)  # insert hole at the top
            assert chassis.solid_at((x, y, 0), Z, top - 7) and chassis.solid_at(
                (x + 3.5, y, 0), Z, top - 1
            )
    # the gate's slots over the front wall's inserts, whatever the adjustment
    gate = meshes["gate"]
    z_floor_underside = fit["z"][4]
    for y, z in fit["gate_screws"]:
        local_z = z - z_floor_underside
        for shift in (-fit["gate_adjust"], 0, fit["gate_adjust"]):
            slot_y = local_z - fit["throat_h"] - magazine.material((0, -15, 0), Z)[0][1] + shift
            assert free_along(gate, (y, slot_y, 0), Z), (y, shift)
        insert = magazine.material((0, y, local_z), X)
        assert any(hi < fit["gate_x"] - 4 for lo, hi in insert)  # material behind the insert
        assert not magazine.solid_at((0, y, local_z), X, fit["gate_x"] - 1)
    for x, y in fit["pi_holes"]:
        standoff = tray.material((x, y, 0), Z)
        assert standoff[0][1] == pytest.approx(2.4, abs=0.01)  # pilot hole above the floor
        assert tray.solid_at((x + 2.4, y, 0), Z, 2.4 + 5)


def test_the_turntable_and_launcher_sweep_clear_the_base(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    reach = max(meshes[n].max_radius() for n in ("chassis_pusher", "chassis_roller", "magazine"))
    assert reach <= fit["sweep_r"] + 0.01
    button_x, _, dome, _ = fit["button"]
    assert button_x - dome / 2 >= reach + 2  # the HIT dome stands outside the launcher's circle
    diameter, underside = fit["turntable"]
    assert meshes["turntable"].size()[X] == pytest.approx(diameter, abs=0.1)
    assert diameter / 2 + 2 <= button_x - dome / 2
    deck = meshes["deck"]
    deck_t = -fit["z"][1]
    ring_r = sum(fit["tilt_ring_r"]) / 2
    for x, y in ((0, 13.3), (ring_r, 0.3), (0.3, -ring_r)):  # collar and tilt ring tops
        top = deck.material((x, y, 0), Z)[-1][1] - deck_t
        assert 0.5 <= underside - top <= 2, (x, y, top)  # no rub, no rocking
    assert fit["z"][3] - 3.2 >= 0.5  # deck screw heads pass under the launcher
    # under the deck: the HIT switch and the turret servo hang clear of the tray's floor
    tray = meshes["base_tray"]
    tray_floor = fit["z"][0] + tray.material((button_x, 0.3, 0), Z)[0][1]
    assert fit["z"][1] - fit["button_depth"] >= tray_floor + 2
    assert fit["turret_servo_bottom_z"] >= tray_floor + 20  # room for the Pi beside it
    # the cable arc stays open over the turret's whole range
    turret = TurretConfig()
    cable_r, _, turret_range = fit["cable"]
    assert turret.max_angle - turret.min_angle <= turret_range
    for step in range(13):
        heading = math.radians(-turret_range / 2 + turret_range * step / 12)
        assert free_along(deck, (cable_r * math.cos(heading), cable_r * math.sin(heading), 0), Z)


def gap_around_axis(mesh: scad.Mesh, z: float) -> float:
    """Width of the air around the Z axis at height ``z``, measured along X."""
    solid = mesh.material((0, 0.31, z), X)
    return min(lo for lo, hi in solid if lo > 0) - max(hi for lo, hi in solid if hi < 0)


def test_the_turntable_sits_on_the_bearing_and_the_servo_spline(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    peg_bottom, grip = fit["peg"]
    assert peg_bottom + grip == pytest.approx(fit["spline_top_z"])
    _, z_deck_underside, z_bracket, z_launcher, _ = fit["z"]
    assert z_bracket < z_deck_underside < 0 < fit["turntable"][1] < z_launcher
    bearing_d, bore, width, inner_race = fit["bearing"]
    deck, turntable, bracket = meshes["deck"], meshes["turntable"], meshes["turret_bracket"]
    deck_t = -z_deck_underside
    # the collar holds the 608's outer ring; the lip under it carries the outer ring only
    assert bearing_d < gap_around_axis(deck, deck_t + width / 2) <= bearing_d + 0.3
    assert inner_race < gap_around_axis(deck, deck_t / 2) < bearing_d - 4
    # the peg is a press fit in the bore (the turntable is printed upside down)
    peg = turntable.material((0, 0.31, z_launcher - width / 2), X)
    assert bore - 0.2 <= peg[-1][1] - peg[0][0] <= bore  # polygon flats: a little under
    spline = gap_around_axis(turntable, z_launcher - (peg_bottom + grip / 2))
    assert 4.5 <= spline <= 5.0  # pressed onto a 20-tooth micro servo spline
    centre = sum(y for _, y in fit["turret_servo_holes"]) / 2
    for x, y in fit["turret_servo_holes"]:  # pilot holes for the servo's tabs, in the plate
        outward = y + math.copysign(1.6, y - centre)
        assert free_along(bracket, (x, y, 0), Z) and bracket.solid_at((x, outward, 0), Z, 1)


def test_the_ir_beam_crosses_the_path_of_a_flat_card(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    magazine = meshes["magazine"]
    beam_x, beam_y = fit["beam"]
    card_w, _card_l, _ = fit["card"]
    # vertical beam: receiver under the tray floor, emitter in the arch, nothing between
    assert free_along(magazine, (beam_x, beam_y, 0), Z)
    assert abs(beam_y) < card_w / 2 - 5
    assert fit["gate_x"] + fit["gate_t"] < beam_x < fit["tray_x1"]
    floor = magazine.material((beam_x, -15, 0), Z)[0][1]
    arch = magazine.material((beam_x, 12, 0), Z)
    assert arch[0][1] == pytest.approx(floor) and arch[1][0] - floor >= 2  # room over the card
