"""The MJCF (MuJoCo's model file) of one stack on the feed, built from the drawn parts.

Every printed part within the card's reach is a set of convex mesh pieces (``shapes.py``) on the
body the part belongs to: fixed to the launcher (magazine, chassis, separator's sleeve) or moving
(the gate as far as it can rise, the separator's shoe in its sleeve, the feed wheels, the exit
roller, the pinch idler). What is bought, not printed, is drawn here from the numbers
``dims.scad`` gives it: the silicone O-rings on the wheels and rollers (capsules of the seated
ring's top radius), the shoe's silicone pad (its arc), the cards (boxes), the upper cards and the
follower (one box over the modelled cards, with their weight).

Contacts are chosen by group, and each material sets the friction and softness of its contacts
(the higher ``priority`` wins; two cards mix as equals): a card meets cards, printed plastic and
silicone; the shoe meets its sleeve; its pad meets the nose floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .shapes import BODY_OF, EDGE_BAND, Shapes

if TYPE_CHECKING:
    from .feed import Geometry, PrintErrors, Settings, Stack

MODELLED = 4  # cards modelled at the bottom of the stack
SEGMENTS = 6  # each card a chain of this many boxes, hinged across: it bends as card stock does
WEIGHT_BOX_H = 1e-3  # the box standing for the upper cards and the follower (its height only)
FOLLOWER_H = 10e-3  # the follower's body over it, which the front wall stops
BEHIND_GATE = 1e-4  # the stack's cards lie this far behind the gate's face at the start
YAXIS = "0.7071068 0.7071068 0 0"  # turns a capsule's axis (z) onto y

DRAWN_GROUP = 1  # the drawn parts' pieces (a ray cast on this group sees the drawing)
# contact groups (contype / conaffinity bits)
CARD, PLASTIC, SILICONE, SHOE, PAD = 1, 2, 4, 8, 16


def fmt(*values: float) -> str:
    return " ".join(f"{v:.7g}" for v in values)


def _mesh_assets(shapes: Shapes) -> str:
    out = []
    for name in shapes.names():
        for i, (vertices, faces) in enumerate(shapes.pieces[name]):
            out.append(
                f'<mesh name="{name}.{i}" vertex="{fmt(*np.ravel(vertices))}" '
                f'face="{" ".join(str(int(f)) for f in np.ravel(faces))}"/>'
            )
    return "".join(out)


def _mesh_geoms(
    shapes: Shapes, body: str | None, origin: Sequence[float], cls: str, only: str | None = None
) -> str:
    """The mesh pieces of every part on ``body`` (or of part ``only``), placed relative to the
    body's frame."""
    out = []
    for name in shapes.names():
        if BODY_OF.get(name, None) != body or (only is not None and name != only):
            continue
        if only is None and name == "separator_pad":
            continue  # silicone, not plastic: placed on its own
        for i in range(len(shapes.pieces[name])):
            out.append(
                f'<geom name="{name}.{i}" class="{cls}" type="mesh" mesh="{name}.{i}" '
                f'pos="{fmt(*(-np.asarray(origin)))}" group="{DRAWN_GROUP}"/>'
            )
    return "".join(out)


def _defaults(g: Geometry, stack: Stack, settings: Settings) -> str:
    solref, solimp = fmt(*settings.solref), fmt(*settings.solimp)
    soft = fmt(*settings.silicone_solref)
    soft_imp = fmt(*settings.silicone_solimp)
    mu = 'friction="{0:.4g} {0:.4g} 0.001"'
    return (
        f'<default><geom contype="0" conaffinity="0" solref="{solref}" solimp="{solimp}"/>'
        f'<default class="card"><geom contype="{CARD}" conaffinity="{CARD | PLASTIC | SILICONE}" '
        f'{mu.format(stack.mu_card)} priority="0"/></default>'
        f'<default class="plastic"><geom contype="{PLASTIC}" conaffinity="{SHOE | PAD}" '
        f'{mu.format(g.plastic_mu)} priority="1" mass="0"/></default>'
        f'<default class="silicone"><geom contype="{SILICONE}" conaffinity="0" '
        f'{mu.format(stack.mu_tyre)} priority="1" solref="{soft}" solimp="{soft_imp}" '
        f'mass="0"/></default>'
        f'<default class="shoe"><geom contype="{SHOE}" conaffinity="0" '
        f'{mu.format(g.guide_mu)} priority="2" mass="0"/></default>'
        f'<default class="pad"><geom contype="{PAD | SILICONE}" conaffinity="0" '
        f'{mu.format(stack.mu_tyre)} priority="1" solref="{soft}" solimp="{soft_imp}" '
        f'mass="0"/></default>'
        f"</default>"
    )


def chain(name: str, g: Geometry, t: float, at: Sequence[float], mass: float, layers: float) -> str:
    """A card (or ``layers`` cards as one, sliding on each other: their stiffnesses add) as a
    chain of SEGMENTS boxes ``t`` thick from its tail (the chain's root, free) to its front,
    each hinged to the one behind across the card with the bending stiffness of card stock
    over one segment (E I / length): the weight over it bends it down onto the land."""
    seg = g.card_l / SEGMENTS
    hw, ht = g.card_w / 2, t / 2
    card_t = g.card_t
    stiffness = layers * g.card_modulus * (g.card_w * card_t**3 / 12) / seg
    x0 = at[0] - g.card_l / 2 + seg / 2
    xml = ""
    for k in reversed(range(SEGMENTS)):  # built from the front in, each inside the one behind
        joint = (
            "<freejoint/>"
            if k == 0
            else f'<joint name="{name}.{k}" type="hinge" axis="0 1 0" pos="{fmt(-seg / 2, 0, 0)}" '
            f'stiffness="{stiffness:.6g}" damping="{stiffness * 2e-4:.6g}"/>'
        )
        pos = (x0, at[1], at[2]) if k == 0 else (seg, 0.0, 0.0)
        xml = (
            f'<body name="{name}.{k}" pos="{fmt(*pos)}">{joint}'
            f'<geom name="{name}.{k}" class="card" type="box" size="{fmt(seg / 2, hw, ht)}" '
            f'mass="{max(mass / SEGMENTS, 1e-6):.6g}"/>{xml}</body>'
        )
    return xml


def _wheel(name: str, x: float, r: float, w: float, mass: float, shapes: Shapes) -> str:
    """A wheel or roller turning on its axis (along y at ``x``, ``r`` under its top, which is
    the seated O-ring's top): its O-rings and its printed core."""
    axis = (x, 0.0, -r)
    return (
        f'<body name="{name}" pos="{fmt(*axis)}">'
        f'<inertial pos="0 0 0" mass="{mass}" diaginertia="{fmt(0.3 * mass * r * r, 0.5 * mass * r * r, 0.3 * mass * r * r)}"/>'  # noqa: E501
        f'<joint name="{name}" type="hinge" axis="0 1 0" damping="1e-6" armature="1e-6"/>'
        f'<geom name="{name}_rings" class="silicone" type="capsule" size="{fmt(r, w / 2)}" '
        f'quat="{YAXIS}"/>'
        f"{_mesh_geoms(shapes, name, axis, 'plastic')}</body>"
    )


def build_xml(
    g: Geometry, stack: Stack, settings: Settings, shapes: Shapes, errors: PrintErrors
) -> str:
    """The model of one stack on the feed as one print came out (``errors``)."""
    t = stack.thickness
    hl, hw, ht = g.card_l / 2, g.card_w / 2, t / 2
    card_x = g.gate_x - hl - BEHIND_GATE  # the bottom cards lie against the gate
    bodies = [
        chain(f"card{i}", replace(g, card_t=t), t, (card_x, 0.0, ht + i * t), g.card_mass, 1)
        for i in range(MODELLED)
    ]
    # the rest of the stack: one chain over the modelled cards, as limp as its cards together
    # (FeedModel sets its mass and stiffness as the stack empties); the follower, rigid, on it
    upper = max(stack.cards - MODELLED, 0)
    bodies.append(
        chain(
            "upper",
            replace(g, card_t=t),
            WEIGHT_BOX_H,
            (card_x, 0.0, MODELLED * t + WEIGHT_BOX_H / 2),
            upper * g.card_mass,
            max(upper, 1),
        )
    )
    follower_hl = g.follower_front - g.follower_x
    bodies.append(
        f'<body name="follower" pos="'
        f'{fmt(g.follower_x, 0, MODELLED * t + WEIGHT_BOX_H + FOLLOWER_H / 2)}"><freejoint/>'
        f'<geom name="follower" class="card" type="box" '
        f'size="{fmt(follower_hl, hw - 1e-3, FOLLOWER_H / 2)}" mass="{g.follower_mass}"/></body>'
    )
    # The gate: clamped by its screws (its limits as stiff as a contact: MuJoCo's default limit
    # would let a card held at its face drag it down into the bottom card's way), so it rises
    # only as far as ``errors.rise`` lets it (what
    # a card bending under it, or the shim's give, allows) with the stiffness of the bottom
    # card's overhang from the front tyre to the gate (3 E I / L^3). Its drawn lower band is
    # drawn here with the edge's round: a box behind the round, the round, a box over it.
    r = errors.edge_r
    band = EDGE_BAND  # the drawn gate starts this far over its edge
    x0, thick = g.edge_x, g.edge_t
    overhang = g.edge_x - g.feed_x
    bend = 3 * g.card_modulus * (g.card_w * t**3 / 12) / overhang**3
    rise = max(errors.rise, 1e-7)
    gate_hw = hw + 1e-3
    bodies.append(
        f'<body name="gate" pos="0 0 {fmt(errors.throat)}">'
        f'<inertial pos="{fmt(x0, 0, g.throat)}" mass="0.005" diaginertia="1e-6 1e-6 1e-6"/>'
        f'<joint name="gate" type="slide" axis="0 0 1" limited="true" range="0 {fmt(rise)}" '
        f'stiffness="{bend:.6g}" damping="0.01" solreflimit="{fmt(*settings.solref)}" '
        f'solimplimit="{fmt(*settings.solimp)}"/>'
        f'<geom name="gate_edge" class="plastic" type="capsule" '
        f'pos="{fmt(x0 + r, 0, g.throat + r)}" size="{fmt(r, gate_hw)}" quat="{YAXIS}"/>'
        f'<geom name="gate_band_back" class="plastic" type="box" '
        f'pos="{fmt(x0 + (r + thick) / 2, 0, g.throat + band / 2)}" '
        f'size="{fmt(max((thick - r) / 2, 1e-6), gate_hw, band / 2)}"/>'
        f'<geom name="gate_band_front" class="plastic" type="box" '
        f'pos="{fmt(x0 + thick / 2, 0, g.throat + (r + band) / 2)}" '
        f'size="{fmt(thick / 2, gate_hw, max((band - r) / 2, 1e-6))}"/>'
        f"{_mesh_geoms(shapes, 'gate', (0, 0, 0), 'plastic')}</body>"
    )
    # The separator's shoe slides up and down in its sleeve (and the sleeve's clearance along
    # the path): the card's drag presses it on the sleeve's wall, whose friction it must beat to
    # rise. Its spring pushes it down; its silicone pad (an arc of sep_shoe_r) rests on the nose.
    rest = (g.sep_x, 0.0, g.shoe_rest + g.sep_shoe_r)
    spring_ref = -max(g.sep_force * (1 + errors.separator), 0.0) / g.sep_rate
    pad = g.sep_force > 0
    bodies.append(
        f'<body name="shoe" pos="{fmt(*rest)}">'
        f'<inertial pos="0 0 {fmt(-g.sep_shoe_r / 2)}" mass="{g.sep_shoe_mass}" '
        f'diaginertia="1e-8 1e-8 1e-8"/>'
        f'<joint name="shoe" type="slide" axis="0 0 1" stiffness="{g.sep_rate:.6g}" '
        f'springref="{spring_ref:.6g}" damping="0.01"/>'
        f'<joint name="shoe_x" type="slide" axis="1 0 0" damping="0.01"/>'
        + (
            _mesh_geoms(shapes, "shoe", rest, "pad", only="separator_pad")
            + _mesh_geoms(shapes, "shoe", rest, "shoe")
            if pad
            else ""
        )
        + "</body>"
    )
    bodies.append(_wheel("tyre", g.feed_x, g.tyre_r, g.tyre_w, 0.01, shapes))
    bodies.append(_wheel("back", g.back_x, g.back_r, g.back_w, 0.01, shapes))
    exit_axis = (g.pinch_x, 0.0, g.nip_lift - g.exit_r)
    bodies.append(
        f'<body name="exit" pos="{fmt(*exit_axis)}">'
        f'<inertial pos="0 0 0" mass="0.005" diaginertia="3e-7 2e-7 2e-7"/>'
        f'<joint name="exit" type="hinge" axis="0 1 0" damping="1e-6" armature="5e-7"/>'
        f'<geom name="exit_rings" class="silicone" type="capsule" '
        f'size="{fmt(g.exit_r, g.exit_w / 2)}" quat="{YAXIS}"/>'
        f"{_mesh_geoms(shapes, 'exit', exit_axis, 'plastic')}</body>"
    )
    # the idler on its ball bearings: free to turn; its springs pull it down onto the roller
    idler_axis = (g.pinch_x, 0.0, g.idler_low + g.idler_r)
    bodies.append(
        f'<body name="idler" pos="{fmt(*idler_axis)}">'
        f'<inertial pos="0 0 0" mass="0.002" diaginertia="4e-8 3e-8 3e-8"/>'
        f'<joint name="idler_z" type="slide" axis="0 0 1" stiffness="{g.pinch_rate:.6g}" '
        f'springref="{-g.pinch_force / g.pinch_rate:.6g}" damping="0.2"/>'
        f'<joint name="idler" type="hinge" axis="0 1 0" damping="1e-7"/>'
        f'<geom name="idler_rings" class="silicone" type="capsule" '
        f'size="{fmt(g.idler_r, g.idler_w / 2)}" quat="{YAXIS}"/>'
        f"{_mesh_geoms(shapes, 'idler', idler_axis, 'plastic')}</body>"
    )
    statics = _mesh_geoms(shapes, None, (0, 0, 0), "plastic")
    soft = fmt(*settings.silicone_solref)
    pair = (
        f'<contact><pair geom1="idler_rings" geom2="exit_rings" condim="3" '
        f'friction="{stack.mu_tyre:.4g} {stack.mu_tyre:.4g} 0.001 0 0" solref="{soft}"/>'
        f"</contact>"
    )
    # The feed servo's torque falls from its stall (its share of the rated) to nothing at its
    # no-load speed; it turns the front wheel, and the belt carries part of it, never more than
    # it grips, to the back wheel: torque = gain x (ctrl - speed / no-load speed), each through
    # its one-way bearing (forward only). The exit motor alike, from its stall.
    stall = g.drive_share * g.feed_torque
    back = min(g.belt_limit, stall / 2)
    actuators = "".join(
        f'<general name="{name}" joint="{name}" biastype="affine" gainprm="{gain:.6g}" '
        f'biasprm="0 0 {-gain / speed:.6g}" ctrllimited="true" ctrlrange="0 1" '
        f'forcelimited="{str(one_way).lower()}" forcerange="0 {gain:.6g}"/>'
        for name, gain, speed, one_way in (
            ("tyre", stall - back, g.feed_speed, True),
            ("back", back, g.feed_speed, True),
            ("exit", g.exit_stall, g.exit_speed, False),  # on the motor's shaft: it brakes too
        )
    )
    return (
        f'<mujoco model="feed">'
        f'<option timestep="{settings.timestep}" integrator="implicitfast" '
        f'cone="elliptic" impratio="{settings.impratio}" jacobian="sparse"></option>'
        f"{_defaults(g, stack, settings)}<asset>{_mesh_assets(shapes)}</asset>"
        f"<worldbody>{statics}{''.join(bodies)}</worldbody>"
        f"{pair}<actuator>{actuators}</actuator></mujoco>"
    )
