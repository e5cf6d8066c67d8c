"""The launcher's geometry facts, checked on the numbers ``hardware/fit.scad`` echoes.

Each ``check_*`` function raises :class:`FitError` naming the fact that fails. The fit tests run
them on the design as drawn, and again with one dimension set wrong (``scad.fit_values(name=...)``)
to show that each check can fail.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .scad import Mesh

Fit = Mapping[str, Any]
G = 9.81


class FitError(AssertionError):
    """A geometry fact the launcher needs does not hold."""


def require(ok: bool, message: str) -> None:
    if not ok:
        raise FitError(message)


PRINT_ERROR = 0.1  # mm: the throat and the floors may come out this far off (half a layer)
SPRING_ERROR = 0.3  # the separator spring's preload may be this far off
SLENDER = 4  # a compression spring longer than this many mean coil diameters may buckle


def check_throat(fit: Fit) -> None:
    """The gap between the gate's steel edge and the land under it passes one thickest card and
    stops three thinnest ones, even set PRINT_ERROR off: at most two cards ever reach the
    separator. The edge is steel and stands under the printed gate, so it is what cards meet."""
    thin, thick = fit["card_t_range"]
    land = fit["land"][0]
    throat = fit["gate"][2] - land
    require(abs(throat - fit["throat_h"]) < 1e-6, f"gate edge {throat:.3f} mm over the land")
    shim_x, shim_t, shim_edge, proud, *_ = fit["gate_shim"]
    require(abs(shim_edge - fit["gate"][2]) < 1e-6, "the throat is not the shim's edge")
    require(proud >= 2 * PRINT_ERROR + thick, "the printed gate's edge reaches the throat")
    require(shim_x + shim_t <= fit["land"][1], "the land ends before the throat")
    low, high = throat - PRINT_ERROR, throat + PRINT_ERROR
    require(low >= thick + 0.05, f"throat {low:.2f} mm at its lowest: a {thick} mm card sticks")
    require(high <= 3 * thin - 0.05, f"throat {high:.2f} mm at its highest: three cards pass")


def check_separator(fit: Fit) -> None:
    """The separator's shoe rests on the nose floor just past the gate, clear of the pinch; its
    spring, at its weakest, holds back a second card dragged by the first at the worst friction
    (the shoe's silicone pad against card on card), and, at its strongest, brakes the fed card
    less than the tyres can push beyond the card on it; its sleeve clears two thickest cards."""
    sep_x, sep_len, force, _, rate, _, _ = fit["separator"]
    sleeve_z0, rest_z, roof_z, spring_len, solid = fit["separator_sleeve"]
    gate_x, gate_t, _ = fit["gate"]
    pinch_x, idler_r = fit["exit"][0], fit["exit"][6]
    require(sep_x - sep_len / 2 >= gate_x + gate_t, "separator shoe under the gate")
    require(sep_x + sep_len / 2 <= pinch_x - idler_r, "separator shoe in the pinch")
    require(abs(rest_z - fit["land"][0]) < 1e-6, "the shoe does not rest on the land")
    require(sep_x + sep_len / 2 <= fit["land"][1], "the shoe rests past the land")
    (_, card_hi), (tyre_lo, tyre_hi), _ = fit["friction"]
    card_n = fit["card_mass"] / 1000 * G
    weakest, strongest = force * (1 - SPRING_ERROR), force * (1 + SPRING_ERROR)
    require(
        tyre_lo * weakest >= 1.1 * card_hi * (weakest + card_n),
        f"separator presses {weakest:.3f} N at its weakest: a second card slips by",
    )
    _, thick = fit["card_t_range"]
    lift_n = rate * 2 * thick
    stack_n = fit["follower"][1] / 1000 * G
    require(
        tyre_hi * (strongest + lift_n) <= 0.8 * (tyre_lo - card_hi) * stack_n,
        f"separator presses {strongest + lift_n:.2f} N at its strongest: it brakes the fed card",
    )
    land = fit["land"][0]
    require(sleeve_z0 - fit["gate_adjust"] >= land + 2 * thick + 0.5, "sleeve over the cards")
    require(spring_len >= solid + 2 * thick + 1, "the spring goes solid before the shoe lifts")
    require(roof_z > sleeve_z0, "the sleeve has no room for the spring")
    # it slides: air all round the shoe even with the sleeve printed PRINT_ERROR tight, and a
    # spring too short to buckle
    clear, (wire, diameter, _, free) = fit["separator_guide"]
    require(clear >= 2 * PRINT_ERROR + 0.2, f"the shoe has {clear:.2f} mm of air: it binds")
    mean = diameter - wire
    require(free <= SLENDER * mean, f"separator spring {free / mean:.1f} diameters long")


def check_orings(fit: Fit, least: float = 0.03, most: float = 0.15) -> None:
    """Every O-ring is stretched in its groove (it cannot creep or fall off) but not overly."""
    for name, _, stretch, _, _ in fit["orings"]:
        require(least <= stretch <= most, f"{name} O-ring stretched {100 * stretch:.0f} %")


def check_drive(fit: Fit, speed: float = 0.5) -> tuple[float, float]:
    """The GT2 belt's loop fits the hubs as drawn (a toothed belt has no stretch to spare), and
    the feed servo, at its 4.8 V stall torque falling to nothing at its no-load speed, still
    pushes at ``speed`` of that speed what the full deck's worst corner needs: the bottom card
    dragged from under the whole stack and the follower at the highest card-on-card friction,
    and the separator's pad braking it at the highest silicone friction. Both tyres can pass
    that push on, through the belt's teeth. Returns (push, need) in newtons."""
    (pitch, pulley, belt, _), centres = fit["timing_belt"]
    loop = 2 * centres + pulley * pitch
    require(abs(loop - belt * pitch) <= 0.1, f"a {belt * pitch} mm belt on a {loop:.1f} mm path")
    torque, tyre_r = fit["feed"][5], fit["feed"][2]
    push = torque * (1 - speed) * 1000 / tyre_r
    (_, card_hi), (_, tyre_hi), _ = fit["friction"]
    stack = (fit["cards_full"] * fit["card_mass"] + fit["follower"][1]) / 1000 * G
    need = card_hi * stack + tyre_hi * fit["separator"][2]
    require(push >= need, f"the servo pushes {push:.1f} N, the full deck needs {need:.1f} N")
    return push, need


def check_nose(fit: Fit) -> None:
    """The floor under the stack and the land stand under the tyres' top even with the tyres
    sunk their most and the floor printed PRINT_ERROR high (the stack's weight stays on the
    tyres); past the land the nose floor ramps down at least two layers, so it is never flush
    with the land whatever the layers: a card going out never meets a step."""
    _, sink = fit["tyre_sink"]
    top = fit["path_z"] - sink
    require(
        fit["floor_top"] + PRINT_ERROR <= top - 0.05, "the floor can stand above the sunk tyres"
    )
    land, _, ramp = fit["land"]
    drop = land - fit["nose_top"]
    require(drop >= 2 * fit["layer"] - 1e-9, f"the nose floor only {drop:.2f} mm under the land")
    require(ramp >= 5 * drop, "the ramp down from the land is steep")


def check_pinch(fit: Fit, least: float = 2.0, most: float = 5.0) -> None:
    """The pinch's springs press the idler with a force that grips the card without stalling
    the exit motor, and hardly change as a card lifts the idler."""
    # nothing but the O-rings over the card: the ears and their springs stand outside it
    ear_in, ear_out, (_, pin_len), idler_len = fit["pinch_ears"]
    card_w = fit["card"][0]
    require(ear_in >= card_w / 2 + 0.5, f"the pinch's ears stand {ear_in:.1f} mm from the middle")
    require(idler_len <= 2 * ear_in - 0.5, "the idler roller is longer than the ears' gap")
    require(pin_len / 2 >= ear_out, "the idler's pin does not reach through the ears")
    (wire, diameter, coils, free), installed, lift = fit["pinch_springs"]
    mean = diameter - wire
    require(free <= SLENDER * mean, f"pinch springs {free / mean:.1f} diameters long")
    require(installed - lift >= wire * (coils + 2), "a pinch spring goes solid as the idler lifts")
    force, rate, _ = fit["pinch"]
    _, thick = fit["card_t_range"]
    require(least <= force <= most, f"pinch presses {force:.1f} N")
    require(rate * thick <= 0.1 * force, f"pinch springs too stiff: {rate:.2f} N/mm")


def check_handover(fit: Fit, margin: float = 15) -> None:
    """The exit pinch grips the card before the feed tyre lets go of it, and the stack rests on
    the two tyres only."""
    card_l = fit["card"][1]
    feed_x, feed_zc, tyre_r = fit["feed"][:3]
    pinch_x, exit_zc, exit_r = fit["exit"][:3]
    gate_x = fit["gate"][0]
    tail = gate_x - card_l  # cards lie against the gate
    require(pinch_x - feed_x <= card_l - margin, f"tyre to nip {pinch_x - feed_x:.1f} mm")
    require(tail < feed_x - 10, "the tyre is not under the card")
    back_x, back_zc, back_r = fit["back_wheel"][:3]
    require(tail + 5 <= back_x <= feed_x - 25, "the back wheel is not under the card's back")
    path = fit["path_z"]
    for name, top in (("tyre", feed_zc + tyre_r), ("back wheel", back_zc + back_r)):
        require(abs(top - path) < 1e-3, f"{name}'s top {top - path:+.3f} mm off the card path")
    # the nip stands a little over the land: the card's nose meets the driven roller first; the
    # card, tilting on the land onto it, must still pass under the gate
    lift = exit_zc + exit_r - fit["land"][0]
    tilt_at_gate = lift * (gate_x - feed_x) / (pinch_x - feed_x)
    _, thick = fit["card_t_range"]
    require(lift >= 0.02, f"exit roller's top {lift:+.2f} mm off the land")
    require(thick + tilt_at_gate <= fit["throat_h"] - 0.03, f"nip {lift:.2f} mm high: stubs")
    require(fit["floor_top"] <= path - 0.3, "the floor takes weight off the tyre")
    require(gate_x < pinch_x < fit["beam"][0] - exit_r, "the beam is not after the pinch")


def check_magazine_holds_a_deck(fit: Fit) -> None:
    _, thick = fit["card_t_range"]
    follower_h = fit["follower"][0]
    room = fit["wall_top"] - fit["path_z"]
    require(room >= fit["cards_min"] * thick + follower_h + 3, f"{room:.0f} mm for the stack")


def check_follower(fit: Fit, printed_grams: float, within: float = 0.1) -> float:
    """The follower's printed body and its steel ballast weigh what the feed's sums assume
    (``follower_mass``, to ``within``), and the ballast lies in its pocket, under the top.
    Returns their weight (g)."""
    (length, width, thick), density = fit["ballast"]
    total = length * width * thick / 1000 * density + printed_grams
    target = fit["follower"][1]
    require(abs(total - target) <= within * target, f"the follower weighs {total:.0f} g")
    require(thick + 1 <= fit["follower"][0], "the ballast stands out of the follower")
    return float(total)


def check_turret(fit: Fit) -> None:
    """360° from the servo's range through the gears, the gears mesh, the turret gear passes
    through the bearing, the hollow middle takes the cables."""
    m, z_turret, z_servo, _, _ = fit["gears"]
    require(fit["turret_range"] >= 360, f"the turret covers {fit['turret_range']}°")
    require(abs(fit["servo_range"] * z_servo / z_turret - fit["turret_range"]) < 1e-6, "ratio")
    centre = math.hypot(*fit["servo_gear_xy"])
    require(abs(centre - m * (z_turret + z_servo) / 2) < 0.01, f"gear centres {centre} mm")
    tip_turret, tip_servo = fit["gear_tip_r"]
    bore = fit["bearing"][1]
    require(2 * tip_turret <= bore - 1, "the turret gear does not pass through the bearing")
    require(fit["cable_bore_d"] >= 10, "the hollow middle is too small for the cable loop")
    require(fit["cable_bore_d"] / 2 + 2 <= m * z_turret / 2 - 1.25 * m, "gear rim too thin")
    require(centre - tip_servo >= fit["cable_bore_d"] / 2 + 2, "servo gear over the cable bore")
    for post in fit["bracket_posts"]:
        gap = math.dist(post, fit["servo_gear_xy"]) - fit["boss_d"] / 2 - tip_servo
        require(gap >= 1, f"bracket post {post} in the servo gear's way")


def check_sweep(fit: Fit, reach: float) -> None:
    """Everything that turns stays inside ``sweep_r`` over the whole travel, clear of the HIT
    dome; the turntable clears the collar."""
    require(reach <= fit["sweep_r"] + 0.01, f"the launcher reaches {reach:.1f} mm")
    button_x, _, dome = fit["button"][:3]
    require(button_x - dome / 2 >= fit["sweep_r"] + 2, "the HIT dome is in the launcher's way")
    diameter, underside, _ = fit["turntable"]
    require(diameter / 2 + 2 <= button_x - dome / 2, "the turntable is under the HIT dome")
    require(underside - fit["bearing"][2] >= 0.5, "the turntable rubs the bearing's top")


def overlap(a: list[list[float]], b: list[list[float]]) -> bool:
    return all(a[0][i] < b[1][i] and b[0][i] < a[1][i] for i in range(3))


def check_base_layout(fit: Fit) -> None:
    """What sits in the base keeps clear of each other, of the walls, the floor and the deck."""
    boxes = fit["base_boxes"]
    x0, x1, width = fit["base"]
    tray_z0, deck_z = fit["z"][0], fit["z"][1]
    for name, low, high in boxes:
        require(x0 + 2 <= low[0] and high[0] <= x1 - 2, f"{name} through an end wall")
        require(-width / 2 + 2 <= low[1] and high[1] <= width / 2 - 2, f"{name} through a side")
        require(tray_z0 <= low[2] and high[2] <= deck_z, f"{name} through the floor or the deck")
    for i, (name, low, high) in enumerate(boxes):
        for other, olow, ohigh in boxes[i + 1 :]:
            require(not overlap([low, high], [olow, ohigh]), f"{name} hits the {other}")


@dataclass(frozen=True)
class Mass:
    name: str
    grams: float
    at: tuple[float, float, float]
    turns: bool


def masses(fit: Fit, meshes: Mapping[str, Mesh], cards: int, camera: bool = True) -> list[Mass]:
    """Every part's mass and centre in the assembly at home: printed parts weighed from their
    STLs (volume x density x the fraction printed solid), stand-ins from ``dims.scad``; without
    the camera's arm, tray and light when ``camera`` is false."""
    if not camera:
        return [m for m in masses(fit, meshes, cards) if m.name not in fit["camera_parts"]]
    grams_per_mm3 = fit["density"] / 1000 * fit["print_fill"]
    out = []
    for name, dz, mirrored, turns in fit["placements"]:
        volume, (x, y, z) = meshes[name].volume_centroid()
        out.append(
            Mass(name, volume * grams_per_mm3, (x, y, dz - z if mirrored else z + dz), turns)
        )
    for name, x0 in fit.get("laid_on_side", []):
        volume, (px, py, pz) = meshes[name].volume_centroid()
        out.append(Mass(name, volume * grams_per_mm3, (pz + x0, py, -px), False))
    for name, at, turns in fit["centres"]:
        volume, _ = meshes[name].volume_centroid()
        out.append(Mass(name, volume * grams_per_mm3, tuple(at), turns))
    for name, grams, at, turns in fit["stand_ins"]:
        out.append(Mass(name, grams, tuple(at), turns))
    card_l, card_t = fit["card"][1], fit["card"][2]
    gate_x, path = fit["gate"][0], fit["path_z"]
    follower_h, follower_g = fit["follower"][:2]
    stack_x = gate_x - card_l / 2
    if cards:
        out.append(
            Mass("cards", cards * fit["card_mass"], (stack_x, 0, path + cards * card_t / 2), True)
        )
    top = path + cards * card_t + follower_h / 2
    out.append(Mass("follower", follower_g, (fit["follower"][2], 0, top), True))
    return out


def centre_of_gravity(parts: list[Mass], heading_deg: float) -> tuple[float, float, float]:
    """The box's centre of gravity with the launcher turned ``heading_deg`` about Z."""
    c, s = math.cos(math.radians(heading_deg)), math.sin(math.radians(heading_deg))
    total = sum(p.grams for p in parts)
    sums = [0.0, 0.0, 0.0]
    for p in parts:
        x, y, z = p.at
        if p.turns:
            x, y = c * x - s * y, s * x + c * y
        for i, v in enumerate((x, y, z)):
            sums[i] += p.grams * v
    return (sums[0] / total, sums[1] / total, sums[2] / total)


def hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out[:-1]

    return half(pts) + half(pts[::-1])


def tip_angle(fit: Fit, cog: tuple[float, float, float], camera: bool = False) -> float:
    """Degrees the box can lean before its centre of gravity passes the nearest edge of what
    stands on the table (the base's feet, and with the camera the tray screwed to its mast;
    negative: already outside)."""
    feet = hull([(p[0], p[1]) for p in fit["feet" if camera else "base_corners"]])
    inside = min(
        ((b[0] - a[0]) * (cog[1] - a[1]) - (b[1] - a[1]) * (cog[0] - a[0])) / math.dist(a, b)
        for a, b in zip(feet, feet[1:] + feet[:1], strict=True)
    )
    height = cog[2] - (fit["z"][0] - fit["z"][2])  # above the table, on the feet
    return math.degrees(math.atan2(inside, height))


def check_stays_upright(
    fit: Fit, meshes: Mapping[str, Mesh], least_tip_deg: float = 20
) -> dict[str, float]:
    """With a full and an empty magazine at every turret angle (5° steps), with and without the
    camera's arm and tray, the centre of gravity stays over what stands on the table with at
    least ``least_tip_deg`` of lean to spare. Returns the worst of each."""
    worst: dict[str, float] = {}
    home = fit["home_heading"]
    for camera in (False, True):
        for cards in (fit["cards_full"], 0):
            parts = masses(fit, meshes, cards, camera)
            key = ("full" if cards else "empty") + (", camera arm" if camera else "")
            for step in range(72):
                angle = tip_angle(fit, centre_of_gravity(parts, home + step * 5), camera)
                require(
                    angle >= least_tip_deg,
                    f"{key}: {cards} cards, turret {step * 5}°: {angle:.1f}°",
                )
                worst[key] = min(worst.get(key, 90.0), angle)
    return worst


def card_px(fit: Fit, distance: float, across_deg: float, across_px: float) -> float:
    """A card's length in pixels at ``distance`` mm from a lens seeing ``across_deg`` over
    ``across_px`` pixels."""
    field = 2 * distance * math.tan(math.radians(across_deg / 2))
    return float(fit["card"][1] * across_px / field)


def camera_views(fit: Fit) -> dict[str, tuple[float, float, float]]:
    """For each camera: the card's length in pixels on the tray's floor and the frame's width and
    height there (mm). The Camera Module 3 gives a 4:3 frame from its 16:9 sensor by cropping the
    sides: its whole height (41°) is kept."""
    (width_px, height_px), _, (_, cm3_v), hfovs, heights, _ = fit["camera_optics"]
    views = {}
    v_field = 2 * heights[0] * math.tan(math.radians(cm3_v / 2))
    views["Camera Module 3"] = (
        card_px(fit, heights[0], cm3_v, height_px),
        v_field * width_px / height_px,
        v_field,
    )
    for hfov in hfovs:
        h_field = 2 * heights[1] * math.tan(math.radians(hfov / 2))
        views[f"webcam {hfov}°"] = (
            card_px(fit, heights[1], hfov, width_px),
            h_field,
            h_field * height_px / width_px,
        )
    return views


def check_camera(fit: Fit, margin: float = 10) -> dict[str, tuple[float, float, float]]:
    """Each camera sees a card at the size the reader was measured at, the whole tray in its
    frame, from straight over the tray's middle; the tray holds a card at any angle."""
    (centre, inside, rim, floor, _), table = fit["tray"], fit["table_z"]
    low, high = fit["camera_optics"][1]
    heights, depth = fit["camera_optics"][4], fit["camera_optics"][5]
    views = camera_views(fit)
    outer = (inside[0] + 2 * rim, inside[1] + 2 * rim)
    for name, (px, width, height) in views.items():
        require(low <= px <= high, f"{name}: a card is {px:.0f} px long, not {low}-{high}")
        require(outer[0] <= width and outer[1] <= height, f"{name} sees {width:.0f} × {height:.0f}")
    card_w, card_l = fit["card"][:2]
    require(
        min(inside) >= math.hypot(card_w, card_l) + 2 * margin, "a card turned may not lie flat"
    )
    arm_x0, arm_t, *_, lens_z, drop = fit["arm"]
    require(abs(arm_x0 + arm_t / 2 - centre[0]) < 0.01, "the lens is not over the tray's middle")
    require(abs(lens_z - (table + floor + heights[0])) < 0.01, "Camera Module 3 lens height")
    webcam_lens = lens_z - drop - depth
    require(abs(webcam_lens - (table + floor + heights[1])) < 0.01, "webcam lens height")
    mast_holes, (leg_low, leg_high) = fit["mast"][5], fit["arm"][3]
    for shift in (0, drop):
        for z in (leg_low - shift, leg_high - shift):
            require(any(abs(z - h) < 0.01 for h in mast_holes), f"no mast hole for the arm at {z}")
    return views


def blocked_headings(fit: Fit, margin: float = 5) -> tuple[float, float]:
    """The launcher's headings (degrees, as bearings from +X) whose thrown card would meet the
    mast or the arm's leg: a card flies flat from the nip, ``card_w / 2 + margin`` either side of
    its line, lower than the mast's top."""
    mast_x, mast_w, y0, y1 = fit["mast"][:4]
    arm_x0, arm_t = fit["arm"][:2]
    x_low, x_high = mast_x - mast_w / 2, arm_x0 + arm_t
    half = fit["card"][0] / 2 + margin
    # the band meets the footprint (a rectangle, narrower than the band) where it meets its edge
    edge = [(x_low + (x_high - x_low) * i / 20, y) for i in range(21) for y in (y0, y1)]
    edge += [(x, y1 + (y0 - y1) * j / 10) for j in range(11) for x in (x_low, x_high)]
    blocked = []
    for step in range(-720, 720):
        ux, uy = math.cos(math.radians(step / 4)), math.sin(math.radians(step / 4))
        if any(x * ux + y * uy > 0 and abs(y * ux - x * uy) <= half for x, y in edge):
            blocked.append(step / 4)
    return (min(blocked), max(blocked)) if blocked else (0.0, 0.0)


def check_arm_clear(fit: Fit, least_gap: float = 5, widest: float = 60) -> tuple[float, float]:
    """The mast and the arm stay clear of the turning launcher over its whole turn, the boom
    passes high over every card thrown, and the mast takes at most ``widest`` degrees of the
    table: the place the tray takes, where no seat is set. Returns those headings."""
    mast_x, mast_w, y0 = fit["mast"][:3]
    boom_z0 = fit["arm"][4]
    nearest = math.hypot(mast_x - mast_w / 2, y0)
    require(nearest >= fit["sweep_r"] + least_gap, f"the mast is {nearest:.0f} mm from the axis")
    require(boom_z0 >= fit["wall_top"] + 50, "the boom is low over the launcher")
    # the boom (only it reaches out of the mast's headings) is far over any card thrown
    require(boom_z0 >= fit["path_z"] + 100, "the boom is in the cards' way")
    low, high = blocked_headings(fit)
    require(high - low <= widest, f"the mast blocks {high - low:.0f}° of the table")
    centre = fit["tray"][0]
    bearing = math.degrees(math.atan2(centre[1], centre[0]))
    require(low <= bearing <= high, "the tray is not in front of the mast: two places lost")
    return low, high
