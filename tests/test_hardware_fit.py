"""The printable launcher: every part renders to one closed solid that fits the bed, and the
parts fit the cards, the servos, the motor and each other.

Parts are rendered with Debian's OpenSCAD (installed by ``make test``), cached by source hash in
build/hardware/. Positions come from hardware/fit.scad (echoed) and are checked on the meshes:
a hole the tests expect must really be open along the line they cast through the STL. Each
geometry fact in ``hardware.tools.fitcheck`` is also run with one dimension set wrong, and must
then fail.
"""

from __future__ import annotations

import itertools
import math
import struct
from pathlib import Path
from typing import Any

import pytest

from hardware.tools import cardpath, fitcheck, scad

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
    assert set(meshes) == {
        "base_tray", "deck", "turret_bracket", "turntable", "servo_gear", "chassis", "magazine",
        "gate", "separator", "separator_shoe", "follower", "feed_wheel", "feed_hub", "exit_roller",
        "idler_roller",
        "retrofit_plate", "camera_mast", "camera_arm", "camera_mount_cm3", "camera_mount_usb",
        "discard_tray",
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
    volume, centre = again.volume_centroid()
    assert volume == pytest.approx(follower.volume_centroid()[0], rel=1e-4) and volume > 0
    low, high = again.bounds()
    assert all(low[i] < centre[i] < high[i] for i in range(3))


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
    for variant, camera in (("feed", "cm3"), ("retrofit", "usb")):
        target = tmp_path / f"{variant}.echo"
        scad.run_openscad(
            scad.ASSEMBLY, target, "-D", f'variant="{variant}"', "-D", f'camera="{camera}"'
        )
        assert target.exists()


# ------------------------------------------------------------------ the feed, throat and exit


def test_the_throat_passes_one_card_and_stops_two(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_throat(fit)
    # the gate's printed edge is straight across the whole throat (print frame: x across, y up,
    # the shim's recess on top); the recess holds the steel shim and stops it riding up
    gate = meshes["gate"]
    gate_t = fit["gate"][1]
    for x in (-25.3, -10.1, 0.3, 9.7, 26.2):
        assert gate.material((x, 0, 1.5), Y)[0][0] == pytest.approx(0, abs=0.01)
    shim_x, shim_t, shim_edge, proud, shim_len, shim_h = fit["gate_shim"]
    depth = fit["gate"][0] + gate_t - shim_x
    assert 0 < depth < shim_t  # the shim stands proud of its recess: the plate clamps it
    assert gate.material((0.3, 2, 0), Z) == [pytest.approx((0, gate_t - depth), abs=0.01)]
    above = gate.material((0.3, shim_h - proud + 0.5, 0), Z)
    assert above == [pytest.approx((0, gate_t), abs=0.01)]  # the recess's top
    assert gate.material((shim_len / 2 + 1, 2, 0), Z) == [pytest.approx((0, gate_t), abs=0.01)]
    # the gate's slots sit over the front wall's inserts at any adjustment
    magazine = meshes["magazine"]
    edge, floor_z0 = shim_edge + proud, fit["magazine_z0"]
    for y, z in fit["gate_screws"]:
        for shift in (-fit["gate_adjust"], 0, fit["gate_adjust"]):
            assert free_along(gate, (y, z - edge + shift, 0), Z), (y, shift)
        insert = magazine.material((0, y, z - floor_z0), X)
        assert any(hi < fit["gate"][0] - 4 for lo, hi in insert)  # material behind the insert
        assert not magazine.solid_at((0, y, z - floor_z0), X, fit["gate"][0] - 1)
    # the front wall's opening stands higher than the gate: the gate sets the throat; under it
    # the land, flush with the floor under the stack, runs on under the separator's shoe, then
    # the nose floor ramps down
    opening = magazine.material((fit["gate"][0] - 3, 0.3, 0), Z)
    assert opening[0][1] + floor_z0 == pytest.approx(fit["floor_top"], abs=0.01)
    land, land_x1, ramp = fit["land"]
    assert land == fit["floor_top"]
    for x in (fit["gate"][0] + 1, land_x1 - 0.5):
        assert magazine.material((x, 12.3, 0), Z)[0][1] + floor_z0 == pytest.approx(land, abs=0.01)
    nose = magazine.material((land_x1 + ramp + 0.5, 12.3, 0), Z)
    assert nose[0][1] + floor_z0 == pytest.approx(fit["nose_top"], abs=0.01)
    fitcheck.check_nose(fit)
    # the jack screws' pilot holes come down through the gussets onto the gate's top edge
    jack_z0, gate_top = fit["gate_jack"][1], fit["gate_jack"][2]
    for y, _ in fit["gate_screws"]:
        hole = (fit["gate"][0] + fit["gate"][1] / 2, y, jack_z0 + 2 - floor_z0)
        assert free_along(magazine, hole, Z)
        assert any(lo > gate_top - floor_z0 for lo, _ in magazine.material((hole[0], y + 2, 0), Z))
    assert opening[1][0] + floor_z0 > edge + 2


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("throat_h", 0.75),
        ("throat_h", 0.4),
        ("card_t_range", "[0.22, 0.36]"),
        ("shim_proud", 0.2),
    ],
)
def test_the_throat_check_fails_when_set_wrong(setting: str, value: object) -> None:
    with pytest.raises(fitcheck.FitError, match="throat"):
        fitcheck.check_throat(scad.fit_values(**{setting: value}))  # type: ignore[arg-type]


def test_the_separator_shoe_rests_on_the_nose_and_its_spring_holds_a_second_card(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_separator(fit)
    # the sleeve (printed standing: x across, z up from its underside, -y out from the gate) is
    # open from below up to its roof, where the spring bears; the shoe slides in its bore with
    # air all round, between walls (none of them a bridge)
    separator, shoe = meshes["separator"], meshes["separator_shoe"]
    sep_x, sep_len, _, sep_w = fit["separator"][:4]
    sleeve_z0, _, roof_z, _, _ = fit["separator_sleeve"]
    clear = fit["separator_guide"][0]
    shim = fit["gate_shim"]
    bore_y = shim[0] + shim[1] - sep_x  # the shoe's middle, from the plate's face (print -y)
    (roof, *_) = separator.material((0, bore_y, 0), Z)
    assert roof[0] == pytest.approx(roof_z - sleeve_z0, abs=0.01)
    across = separator.material((0, bore_y, 2), X)
    gap = min(lo for lo, _ in across if lo > 0) - max(hi for _, hi in across if hi < 0)
    assert gap == pytest.approx(sep_w + 2 * clear, abs=0.05)
    along = separator.material((0.3, 0, 2), Y)
    gap = min(lo for lo, _ in along if lo > bore_y) - max(hi for _, hi in along if hi < bore_y)
    assert gap == pytest.approx(sep_len + 2 * clear, abs=0.05)
    assert sorted(shoe.size()[:2]) == pytest.approx(sorted([sep_len, sep_w]), abs=0.05)


def test_the_separator_check_fails_when_set_wrong() -> None:
    with pytest.raises(fitcheck.FitError, match="slips by"):
        fitcheck.check_separator(scad.fit_values(sep_spring_len=23))
    with pytest.raises(fitcheck.FitError, match="brakes the fed card"):
        fitcheck.check_separator(scad.fit_values(sep_spring_len=3))
    with pytest.raises(fitcheck.FitError, match="binds"):
        fitcheck.check_separator(scad.fit_values(sep_clear=0.2))
    with pytest.raises(fitcheck.FitError, match="diameters long"):
        fitcheck.check_separator(
            scad.fit_values(sep_spring="[0.2, 4.0, 10, 25]", sep_spring_len=18)
        )
    with pytest.raises(fitcheck.FitError, match="pinch"):
        fitcheck.check_separator(scad.fit_values(nose_after_gate=9))


def test_every_o_ring_is_stretched_in_its_groove_and_the_pinch_spring_is_soft(
    fit: dict[str, Any],
) -> None:
    fitcheck.check_orings(fit)
    fitcheck.check_pinch(fit)
    push, need = fitcheck.check_drive(fit)
    assert need < push < 1.2 * need  # the FS90R at 4.8 V feeds a full deck, with little to spare
    # the tyre's top is where the O-ring seats, under the drawn rim's radius plus its cord
    (tyre, (_, cord), _, seated, top), *_ = fit["orings"]
    assert tyre == "tyre" and top == pytest.approx(fit["feed"][2])
    assert seated < cord and fit["rims"][0] < top < fit["rims"][0] + cord


@pytest.mark.parametrize(
    ("check", "setting", "value", "message"),
    [
        ("check_orings", "tyre_oring", "[26, 2]", "tyre O-ring"),
        ("check_drive", "feed_ahead", 12, "mm belt"),
        ("check_drive", "feed_torque", 0.1, "servo pushes"),
        ("check_nose", "floor_relief", 0.3, "above the sunk tyres"),
        ("check_nose", "nose_drop", 0.2, "under the land"),
        ("check_pinch", "pinch_spring_len", 14, "pinch presses"),
        ("check_pinch", "idler_pin", "[3, 60]", "pin does not reach"),
        ("check_pinch", "pocket_w", 50, "ears stand"),
        ("check_pinch", "pinch_spring", "[0.4, 4.0, 16, 25]", "diameters long"),
    ],
)
def test_the_o_ring_nose_and_pinch_checks_fail_when_set_wrong(
    check: str, setting: str, value: object, message: str
) -> None:
    with pytest.raises(fitcheck.FitError, match=message):
        getattr(fitcheck, check)(scad.fit_values(**{setting: value}))  # type: ignore[arg-type]


def test_the_pinch_grips_the_card_before_the_tyre_lets_go(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_handover(fit)
    # on the meshes: the floor has slots where the tyre, back roller and exit roller come up,
    # and stands under the card path elsewhere
    magazine, floor_z0 = meshes["magazine"], fit["magazine_z0"]
    for x in (fit["feed"][0], fit["back_wheel"][0], fit["exit"][0]):
        assert free_along(magazine, (x, 0.3, 0), Z), x
    for x in (fit["pocket"][0] + 3, fit["pocket"][1] - 5):
        assert magazine.material((x, -20, 0), Z)[0][1] + floor_z0 == pytest.approx(
            fit["floor_top"], abs=0.01
        )
    # the feed wheel's rim stands under the O-rings' top (the card path)
    wheel = meshes["feed_wheel"]
    assert wheel.size()[X] / 2 == pytest.approx(fit["rims"][0], abs=0.05)
    assert wheel.size()[Z] == pytest.approx(fit["feed"][3], abs=0.01)


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("feed_ahead", -30, "tyre to nip"),
        ("floor_relief", 0, "floor"),
        ("feed_ahead", 0, "back wheel"),
    ],
)
def test_the_handover_check_fails_when_set_wrong(setting: str, value: float, message: str) -> None:
    with pytest.raises(fitcheck.FitError, match=message):
        fitcheck.check_handover(scad.fit_values(**{setting: value}))


def test_the_magazine_holds_a_full_extreme_deck_under_the_follower(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_magazine_holds_a_deck(fit)
    magazine, follower = meshes["magazine"], meshes["follower"]
    px0, px1, pocket_w = fit["pocket"]
    wall = magazine.material(((px0 + px1) / 2, pocket_w / 2 + 1, 0), Z)
    assert wall[-1][1] + fit["magazine_z0"] == pytest.approx(fit["wall_top"], abs=0.01)
    # the pocket guides the card without pinching it, up the whole stack
    for z in (5, 30):
        walls = magazine.material(((px0 + px1) / 2, 0.37, z), Y)
        gap = min(lo for lo, _ in walls if lo > 0) - max(hi for _, hi in walls if hi < 0)
        assert fit["card"][0] + 0.5 <= gap <= fit["card"][0] + 3, (z, gap)
    assert follower.size()[Y] <= pocket_w - 1 and follower.size()[X] <= px1 - px0 - 1


def test_the_follower_and_its_steel_weigh_what_the_feed_assumes(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    follower = meshes["follower"]
    printed = follower.volume_centroid()[0] * fit["density"] / 1000 * fit["print_fill"]
    total = fitcheck.check_follower(fit, printed)
    assert 10 < printed < total / 4  # the steel makes the weight, not the plastic
    # the pocket holds the bar: its floor under the top by the bar's thickness
    (length, width, thick), _ = fit["ballast"]
    low, high = follower.bounds()
    middle = ((low[X] + high[X]) / 2, (low[Y] + high[Y]) / 2, 0)
    assert follower.material(middle, Z)[0][1] == pytest.approx(fit["follower"][0] - thick - 0.2)
    across = follower.material((middle[0], 0, fit["follower"][0] - 1), Y)
    gaps = [lo - hi for (_, hi), (lo, _) in itertools.pairwise(across)]
    assert max(gaps) == pytest.approx(width + 0.6, abs=0.05)
    with pytest.raises(fitcheck.FitError, match="follower weighs"):
        fitcheck.check_follower(scad.fit_values(ballast="[60, 50, 5]"), printed)
    with pytest.raises(fitcheck.FitError, match="stands out"):
        fitcheck.check_follower(scad.fit_values(follower_h=10), printed)
    assert length <= 2 * (fit["follower"][3] - fit["follower"][2]) - 20  # clear of the handle


def test_the_magazine_check_fails_when_set_wrong() -> None:
    with pytest.raises(fitcheck.FitError, match="for the stack"):
        fitcheck.check_magazine_holds_a_deck(scad.fit_values(mag_wall_h=40))


def test_the_ir_beam_crosses_the_card_after_the_pinch(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    magazine = meshes["magazine"]
    beam_x, beam_y = fit["beam"]
    assert free_along(magazine, (beam_x, beam_y, 0), Z)
    floor = magazine.material((beam_x, -15, 0), Z)[0][1]
    arch = magazine.material((beam_x, 12, 0), Z)
    assert arch[0][1] == pytest.approx(floor) and arch[1][0] - floor >= 2  # room over the card
    assert beam_x < fit["nose_x1"]


# ------------------------------------------------------------------ the card's path, swept


@pytest.fixture(scope="module")
def bodies() -> dict[str, Any]:
    """Every solid the card could meet, where it sits; and the first drawing's pinch."""
    return cardpath.load_bodies(cardpath.BODIES + cardpath.OLD_PINCH)


def drawn(bodies: dict[str, Any]) -> dict[str, Any]:
    return {name: body for name, body in bodies.items() if name not in cardpath.OLD_PINCH}


def test_a_card_passes_every_solid_from_the_magazine_to_the_nose(
    bodies: dict[str, Any], fit: dict[str, Any]
) -> None:
    hits = cardpath.sweep(fit, drawn(bodies))
    assert hits == [], cardpath.summary(hits)
    # the working faces do reach the card (the sweep sees them): the tyres carry it, the nip
    # and the shoe's pad hold it; each within its declared depth
    tight = {**fit, "card_contacts": [[name, 0.0] for name, _ in fit["card_contacts"]]}
    touching = {hit.body for hit in cardpath.sweep(tight, drawn(bodies))}
    assert touching == {name for name, _ in fit["card_contacts"]}
    # the nearest solids are the gate's steel edge, over a thickest card by the throat's margin,
    # and the printed parts of the rollers and the shoe
    gaps = cardpath.clearance(fit, drawn(bodies))
    throat, thick = fit["throat_h"], fit["card_t_range"][1]
    assert gaps["gate shim"] == pytest.approx(throat - thick - cardpath.CLEAR, abs=0.01)
    assert gaps["gate"] == pytest.approx(gaps["gate shim"] + fit["gate_shim"][3], abs=0.01)
    for name in ("separator shoe", "idler roller", "exit roller", "feed wheel", "back wheel"):
        assert gaps[name] > 0.1, (name, gaps[name])
    # the bent card comes down from the tyres onto the floor within its lift-off length
    reach = cardpath.lift_off(fit, fit["path_z"] - fit["tyre_sink"][0] - fit["land"][0])
    assert 10 < reach < fit["feed"][0] - fit["back_wheel"][0]


def test_the_sweep_finds_the_first_drawings_pinch_in_the_way(
    bodies: dict[str, Any], fit: dict[str, Any]
) -> None:
    hits = cardpath.sweep(fit, bodies)
    assert {(hit.body, hit.card) for hit in hits} == {
        (body, card) for body in cardpath.OLD_PINCH for card in ("flat card", "bent card")
    }
    # named where they stand: both sides of the middle, inside the card's width, at the nip
    pinch_x, half = fit["exit"][0], fit["card"][0] / 2
    for hit in hits:
        assert hit.low[X] < pinch_x < hit.high[X], str(hit)
        assert 10 < min(abs(hit.low[Y]), abs(hit.high[Y])) < half, str(hit)
        assert "in the way" in str(hit) and hit.body in str(hit)
    assert {hit.low[Y] > 0 for hit in hits} == {True, False}


def test_the_sweep_finds_a_gate_set_too_low_and_a_working_face_too_deep(
    bodies: dict[str, Any], fit: dict[str, Any]
) -> None:
    low_gate = cardpath.load_bodies(["gate shim"], throat_h=0.3)
    assert [hit.body for hit in cardpath.sweep(fit, low_gate)] == ["gate shim", "gate shim"]
    # the idler 0.2 mm under the land: deeper into the card's path than a thickest card lifts it
    sunk = cardpath.load_bodies(["idler O-rings"], nip_lift=-0.2)
    hits = cardpath.sweep(fit, sunk)
    assert hits and all(h.allowed == fit["card_contacts"][2][1] for h in hits), hits


def test_the_pinch_stands_outside_the_card_and_its_springs_bear_on_steel(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_pinch(fit)
    magazine, floor_z0 = meshes["magazine"], fit["magazine_z0"]
    pinch_x, idler_zc = fit["exit"][0], fit["exit"][5]
    ear_in, ear_out, _, idler_len = fit["pinch_ears"]
    # across the nose at the pinch, from the card's height to over the idler: nothing inside
    # the ears' faces
    for z in (fit["land"][0] + 0.2, idler_zc, idler_zc + 8):
        solid = magazine.material((pinch_x, 0, z - floor_z0), Y)
        inner = [(lo, hi) for lo, hi in solid if lo < ear_in - 0.01 and hi > 0.01 - ear_in]
        assert inner == [], (z, inner)
        if z != idler_zc:  # (at the pin's height the slot runs through the ears)
            assert any(lo == pytest.approx(ear_in, abs=0.01) for lo, _ in solid), (z, solid)
    # the pin's slot runs through both ears; over the pin each ear's spring bore, then the
    # set screw's pilot hole through the top: the spring bears on steel at both ends
    assert free_along(magazine, (pinch_x, 0, idler_zc - floor_z0), Y)
    diameter, installed = fit["pinch_springs"][0][1], fit["pinch_springs"][1]
    pin_top = idler_zc + fit["pinch_ears"][2][0] / 2 - floor_z0
    for side in (-1, 1):
        bore = (pinch_x, side * (ear_in + ear_out) / 2, 0)
        solid = magazine.material((pinch_x + 1.8, bore[1], 0), Z)  # in the bore, by the pilot
        assert solid[0][0] == pytest.approx(0, abs=0.01)  # the ear stands on the bed
        assert solid[0][1] < pin_top - 2  # under the pin
        assert solid[1][0] == pytest.approx(pin_top + installed, abs=0.01)  # the screw's tip
        # the pilot hole, open to the top
        assert magazine.material(bore, Z) == [pytest.approx(solid[0])]
    across = magazine.material((pinch_x, 0, pin_top + 3), Y)
    holes = [lo - hi for (_, hi), (lo, _) in itertools.pairwise(across)]
    assert [h for h in holes if h < 10] == [pytest.approx(diameter + 0.4, abs=0.05)] * 2
    idler = meshes["idler_roller"]
    assert idler.size()[Z] == pytest.approx(idler_len, abs=0.01) and idler_len < 2 * ear_in


# ------------------------------------------------------------------ the turret and the base


def test_the_turret_turns_360_degrees_through_2_to_1_gears(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    fitcheck.check_turret(fit)
    # the meshes: the turret gear's tips and the servo gear's, the hollow middle
    turntable, gear = meshes["turntable"], meshes["servo_gear"]
    tip_turret, tip_servo = fit["gear_tip_r"]
    assert turntable.size()[X] == pytest.approx(fit["turntable"][0], abs=0.1)
    assert gear.size()[X] == pytest.approx(2 * tip_servo, abs=0.2)
    top = turntable.size()[Z]
    gear_ring = turntable.material((0, 0.31, top - 1), X)  # print frame: the gear on top
    assert gear_ring[-1][1] == pytest.approx(tip_turret, abs=0.3)
    assert not turntable.solid_at((0.3, 0.3, 0), Z, top / 2)  # hollow all the way
    # the horn's screws go into the servo gear; its hub passes
    for a in (45, 135, 225, 315):
        r = fit["horn"][1]
        x = r * math.cos(math.radians(a)) + gear.bounds()[0][X] + tip_servo
        y = r * math.sin(math.radians(a)) + gear.bounds()[0][Y] + tip_servo
        assert free_along(gear, (x, y, 0), Z)


@pytest.mark.parametrize(
    ("setting", "value"),
    [("gear_teeth", "[24, 24]"), ("cable_bore_d", 6), ("gear_teeth", "[32, 64]")],
)
def test_the_turret_check_fails_when_set_wrong(setting: str, value: object) -> None:
    with pytest.raises(fitcheck.FitError):
        fitcheck.check_turret(scad.fit_values(**{setting: value}))  # type: ignore[arg-type]


def test_the_turning_launcher_clears_everything_over_the_whole_travel(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    # everything on the turntable, as drawn at home; the turret turns it a full turn, so its
    # reach is a circle
    reach = max(meshes[n].max_radius() for n in ("chassis", "magazine", "turntable"))
    assert fit["turning_stand_ins"]
    reach = max([reach] + [math.hypot(x, y) for x, y in fit["turning_stand_ins"]])
    fitcheck.check_sweep(fit, reach)
    fitcheck.check_base_layout(fit)
    with pytest.raises(fitcheck.FitError, match="reaches"):
        fitcheck.check_sweep(fit, fit["button"][0] - 10)


def test_the_base_layout_check_fails_when_set_wrong() -> None:
    with pytest.raises(fitcheck.FitError, match="hits"):
        fitcheck.check_base_layout(scad.fit_values(speaker_xy="[-42, -10]"))
    with pytest.raises(fitcheck.FitError, match="HIT dome"):
        fitcheck.check_sweep(scad.fit_values(button_x=90), 0)


def test_the_box_stays_upright_full_and_empty_at_every_turret_angle(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    worst = fitcheck.check_stays_upright(fit, meshes)
    assert set(worst) == {"full", "empty", "full, camera arm", "empty, camera arm"}
    # the full magazine's weight is part of the model: it moves the centre of gravity
    full = fitcheck.centre_of_gravity(fitcheck.masses(fit, meshes, fit["cards_full"]), 0)
    empty = fitcheck.centre_of_gravity(fitcheck.masses(fit, meshes, 0), 0)
    assert full[Z] > empty[Z] + 5
    # the camera's arm with the heaviest webcam is part of it, and leans the box toward the tray
    names = {m.name for m in fitcheck.masses(fit, meshes, 0)}
    assert set(fit["camera_parts"]) <= names
    assert not set(fit["camera_parts"]) & {m.name for m in fitcheck.masses(fit, meshes, 0, False)}
    assert empty[Y] < -5


def test_the_upright_check_fails_when_set_wrong(meshes: dict[str, scad.Mesh]) -> None:
    # a base cut down to the launcher's own width, or one that stops just behind the axis
    with pytest.raises(fitcheck.FitError, match="cards, turret"):
        fitcheck.check_stays_upright(scad.fit_values(base_w=60, base_x0=-30), meshes)
    with pytest.raises(fitcheck.FitError, match="cards, turret"):
        fitcheck.check_stays_upright(scad.fit_values(base_x0=-20), meshes)
    # the camera's weight counts, over the tray screwed to the mast: 20 kg at the lens tips it
    with pytest.raises(fitcheck.FitError, match="camera arm: 112 cards, turret"):
        fitcheck.check_stays_upright(scad.fit_values(mass_webcam=20000), meshes)


def test_mating_screw_holes_line_up(meshes: dict[str, scad.Mesh], fit: dict[str, Any]) -> None:
    tray, deck, bracket = meshes["base_tray"], meshes["deck"], meshes["turret_bracket"]
    for x, y in fit["base_corners"]:
        assert free_along(deck, (x, y, 0), Z), (x, y)
        boss = tray.material((x, y, 0), Z)
        assert boss[-1][1] < tray.size()[Z] - 5  # the insert's hole opens at the top
        assert tray.solid_at((x + 3, y, 0), Z, tray.size()[Z] - 1)  # in a boss
    bracket_top = bracket.size()[Z]
    for x, y in fit["bracket_posts"]:
        assert free_along(deck, (x, y, 0), Z)
        assert not bracket.solid_at((x, y, 0), Z, bracket_top - 1)  # insert hole in the post
        assert bracket.solid_at((x + 3, y, 0), Z, bracket_top - 1)
    for x, y in fit["turret_servo_holes"]:  # pilot holes for the servo's tabs, in the plate
        assert free_along(bracket, (x, y, 0), Z) and bracket.solid_at((x, y + 8, 0), Z, 1)
    turntable, chassis, magazine = meshes["turntable"], meshes["chassis"], meshes["magazine"]
    for x, y in fit["ch_screw"]:
        assert free_along(meshes["retrofit_plate"], (x, y, 0), Z)
        assert free_along(turntable, (x, y, 0), Z) and free_along(chassis, (x, y, 0), Z)
        assert chassis.solid_at((x + 4.5, y, 0), Z, 1.5), (x, y)
    top = chassis.size()[Z]
    for x, y in fit["mag_bosses"]:
        assert free_along(magazine, (x, y, 0), Z)
        assert not chassis.solid_at((x, y, 0), Z, top - 1)  # insert hole at the top
        assert chassis.solid_at((x, y, 0), Z, top - 7) and chassis.solid_at(
            (x + 3.5, y, 0), Z, top - 1
        )
    for x, y in fit["pi_holes"] + fit["dist_holes"]:
        standoff = tray.material((x, y, 0), Z)
        assert standoff[0][1] == pytest.approx(2.4, abs=0.01)  # pilot hole above the floor
        assert tray.solid_at((x + 2.4, y, 0), Z, 2.4 + 5)
    # the feed servo's tab holes in the chassis' wall
    for x, y, z in fit["feed_servo_holes"]:
        hole = (x, 0, z - fit["turntable"][2])
        assert not chassis.solid_at(hole, Y, y + 2.5) and chassis.solid_at(
            (x, 0, hole[2] + 2), Y, y + 2.5
        )


def test_the_turntable_sits_in_the_bearing(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    bearing_d, bore, width, inner_race, lip_hole, _ = fit["bearing"]
    deck, turntable = meshes["deck"], meshes["turntable"]
    deck_t = -fit["z"][1]

    def gap_around_axis(mesh: scad.Mesh, z: float) -> float:
        solid = mesh.material((0, 0.31, z), X)
        return min(lo for lo, _ in solid if lo > 0) - max(hi for _, hi in solid if hi < 0)

    # the collar holds the 6806's outer ring; the lip under it carries the outer ring only
    assert bearing_d < gap_around_axis(deck, deck_t + width / 2) <= bearing_d + 0.3
    assert inner_race < gap_around_axis(deck, deck_t / 2) == pytest.approx(lip_hole, abs=0.3)
    # the hub is a press fit in the bore (the turntable is printed upside down)
    launcher_z0 = fit["turntable"][2]
    hub = turntable.material((0, 0.31, launcher_z0 - width / 2), X)
    assert bore - 0.3 <= hub[-1][1] - hub[0][0] <= bore  # polygon flats: a little under


# ------------------------------------------------------------------ the camera arm and its tray


def test_each_camera_sees_the_card_at_the_readers_size_and_the_whole_tray(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    views = fitcheck.check_camera(fit)
    assert set(views) == {"Camera Module 3", "webcam 60°", "webcam 70°"}
    # the tray's floor and rim, as printed: a card at any angle lies inside
    tray = meshes["discard_tray"]
    (_, inside, rim, floor, rim_h) = fit["tray"]
    width, depth, height = tray.size()
    assert (width, height) == pytest.approx((inside[0] + 2 * rim, rim_h), abs=0.01)
    assert depth > inside[1] + 2 * rim  # and the tab under the mast
    low, _ = tray.bounds()
    middle = (low[X] + rim + inside[0] / 2, low[Y] + rim + inside[1] / 2, 0)
    assert tray.material(middle, Z) == [pytest.approx((0, floor), abs=0.01)]
    # the Camera Module 3's lens looks down through its mount; the webcam's screw hole is open
    for name in ("camera_mount_cm3", "camera_mount_usb"):
        mount = meshes[name]
        (mx0, my0, _), (mx1, my1, _) = mount.bounds()
        assert free_along(mount, ((mx0 + mx1) / 2, (my0 + my1) / 2, 0), Z), name


def test_the_camera_check_fails_when_set_wrong() -> None:
    for setting, message in (
        ({"lens_h": "[400, 245]"}, "Camera Module 3: a card is"),
        ({"tray_in": "[200, 110]"}, "a card turned may not lie flat"),
        ({"tray_in": "[300, 150]"}, "sees"),
        ({"joint_drop": 40}, "webcam lens height"),
    ):
        with pytest.raises(fitcheck.FitError, match=message):
            fitcheck.check_camera(scad.fit_values(**setting))


def test_the_arm_clears_the_turning_launcher_and_the_thrown_cards(fit: dict[str, Any]) -> None:
    low, high = fitcheck.check_arm_clear(fit)
    assert -70 < low < high < -10 and high - low <= 60
    # a card thrown along the blocked headings' middle meets the mast; one 10° outside does not
    assert fitcheck.blocked_headings(fit) == (low, high)
    for setting, message in (
        ({"mast_x": 30}, "the mast is"),
        ({"lens_h": "[100, 45]"}, "the boom"),
        ({"mast_w": 80}, "the mast blocks"),
    ):
        with pytest.raises(fitcheck.FitError, match=message):
            fitcheck.check_arm_clear(scad.fit_values(**setting))


def test_the_mast_screws_into_the_base_wall_and_the_cable_slot_is_open(
    meshes: dict[str, scad.Mesh], fit: dict[str, Any]
) -> None:
    base = meshes["base_tray"]
    base_z0 = fit["z"][0]
    mast_x, y0 = fit["mast"][0], fit["mast"][2]
    in_wall = y0 + 1.2
    assert base.solid_at((mast_x + 6, in_wall, fit["mast"][6][0] - base_z0), Y, in_wall)
    for z in fit["mast"][6]:
        assert not base.solid_at((mast_x, in_wall, z - base_z0), Y, in_wall), z
    x, width, height = fit["cable_slot"]
    deck = fit["z"][1]
    slot = (x + width / 2, in_wall, deck - base_z0 - 3 - height / 2)
    assert not base.solid_at(slot, Y, in_wall)
