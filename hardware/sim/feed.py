"""The launcher's feed as a rigid-body model in MuJoCo, built from ``dims.scad``'s numbers.

The model, in the launcher's frame (x along the card's way out, z up, z = 0 the card path, which
is the top of the silicone O-rings seated in the feed wheels' grooves): the bottom ``MODELLED``
cards of the stack are thin boxes; the rest of the stack and the follower are one box over them
with their weight and centre of gravity. The stack rests on two tyres, front and back, turned
together (one servo, an O-ring belt) through one-way bearings: they push forward, overrun, never
brake; the floor stands ``floor_relief`` lower, the nose ``nose_drop`` lower. The gate stops what
stands higher than the throat; the separator's shoe (its arc as drawn) rests on the nose floor,
pushed by its spring at the rate and preload ``dims.scad`` computes from the wire; the exit pinch
is a roller on a DC motor (torque falling linearly from stall to no-load speed) with an idler
pulled onto it by its two springs. A vertical beam after the pinch counts the cards.

Every position, size, mass, stiffness and friction comes from ``fit.scad``'s echo (a print error
the sweep draws is added to the dimension it belongs to, and reported); nothing here moves a part
away from where it is drawn (``tests/test_hardware_sim.py`` checks the built model against the
echo).

A feed command runs the feed until the beam has seen one card (or a time-out calls it a jam),
lets the pinch run on, and reports how many cards went past the beam. A firing runs the feed
until the beam has counted N cards, as the software does. A card thrown is put back at the top
of the modelled cards (the box over them loses one card's weight), so a stack is fed one card
after another, down to empty, with whatever the last feed left behind.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import mujoco
import numpy as np

MODELLED = 4  # cards modelled as boxes at the bottom of the stack
MM = 1e-3
WEIGHT_BOX_H = 1e-3  # the box standing for the upper cards and the follower (its height only)
FOLLOWER_H = 10e-3  # the follower's body over it, which the front wall stops
BEHIND_GATE = 1e-4  # the stack's cards lie this far behind the gate's face at the start
# The gate's lower edge is sharp; a box there would push a card that stands a little into it out
# along the least overlap, down under its whole underside, pinching it. So the edge is a round of
# EDGE_R along the throat, whose underside is the throat (a card standing more than EDGE_R into it
# meets it face on and stops), and the gate's face is a box from FACE_ABOVE_EDGE over the throat
# up (the third card and higher: their undersides stand at least two cards over the path).
EDGE_R = 2e-5
FACE_ABOVE_EDGE = 0.15e-3


@dataclass(frozen=True)
class Geometry:
    """The numbers the model is built from, in metres, kilograms, newtons (from ``fit.scad``)."""

    card_w: float
    card_l: float
    card_mass: float
    card_modulus: float  # Pa, the card stock's bending modulus
    follower_mass: float
    follower_x: float  # the follower's centre of gravity
    follower_front: float  # the follower's front face: behind the front wall, short of the gate
    pocket_front: float  # px1: the upper cards lie against the front wall
    front_wall_z: float  # the front wall over the pocket's sides stands from here up
    gate_x: float
    gate_t: float
    throat: float
    floor_relief: float
    nose_drop: float  # the nose floor under the card path
    sep_x: float
    sep_len: float
    sep_w: float
    sep_force: float  # the spring's push with the shoe on the floor
    sep_rate: float  # N/m
    sep_shoe_r: float
    sep_shoe_mass: float
    feed_x: float
    tyre_r: float
    tyre_w: float
    feed_speed: float  # rad/s
    feed_torque: float
    back_x: float
    back_r: float
    back_w: float
    pinch_x: float
    exit_r: float
    exit_w: float
    exit_speed: float  # rad/s, no load
    exit_stall: float
    idler_r: float
    idler_w: float
    pinch_force: float
    pinch_rate: float  # N/m, both springs
    nip_lift: float  # the exit roller's top over the card path
    beam_x: float
    nose_x1: float
    launch_height: float  # card path over the table
    launch_angle: float  # degrees
    plastic_mu: float  # card on the printed floor, nose and gate

    @classmethod
    def from_fit(cls, fit: Mapping[str, Any]) -> Geometry:
        card_w, card_l, _ = fit["card"]
        feed_x, _, tyre_r, tyre_w, feed_rpm, feed_torque = fit["feed"]
        back_x, _, back_r, back_w = fit["back_wheel"]
        pinch_x, _, exit_r, exit_w, exit_rpm, _, idler_r, pinch_force, exit_stall = fit["exit"]
        sep_x, sep_len, sep_force, sep_w, sep_rate, shoe_r, shoe_mass = fit["separator"]
        gate_x, gate_t, _ = fit["gate"]
        path = fit["path_z"]
        millimetres = {
            "card_w": card_w, "card_l": card_l, "follower_x": fit["follower"][2],
            "follower_front": fit["follower"][3],
            "pocket_front": fit["pocket"][1], "gate_x": gate_x, "gate_t": gate_t,
            "front_wall_z": fit["front_wall_z"] - path,
            "throat": fit["throat_h"], "floor_relief": path - fit["floor_top"],
            "nose_drop": path - fit["nose_top"],
            "sep_x": sep_x, "sep_len": sep_len, "sep_w": sep_w, "sep_shoe_r": shoe_r,
            "feed_x": feed_x, "tyre_r": tyre_r, "tyre_w": tyre_w,
            "back_x": back_x, "back_r": back_r, "back_w": back_w,
            "pinch_x": pinch_x, "exit_r": exit_r, "exit_w": exit_w, "idler_r": idler_r,
            "idler_w": exit_w, "nip_lift": fit["nip_lift"], "beam_x": fit["beam"][0],
            "nose_x1": fit["nose_x1"], "launch_height": fit["table_to_deck"] + path,
        }  # fmt: skip
        return cls(
            **{name: value * MM for name, value in millimetres.items()},
            card_mass=fit["card_mass"] / 1000,
            card_modulus=fit["card_modulus"] * 1e6,
            follower_mass=fit["follower"][1] / 1000,
            sep_force=sep_force,
            sep_rate=sep_rate / MM,
            sep_shoe_mass=shoe_mass / 1000,
            feed_speed=feed_rpm * 2 * math.pi / 60,
            feed_torque=feed_torque,
            exit_speed=exit_rpm * 2 * math.pi / 60,
            exit_stall=exit_stall,
            pinch_force=pinch_force,
            pinch_rate=fit["pinch"][1] / MM,
            launch_angle=fit["launch_angle"],
            plastic_mu=fit["friction"][2],
        )

    def printed(self, errors: PrintErrors) -> Geometry:
        """The design as one print came out: the gate's edge, the nose floor and the
        separator's spring off by the errors drawn."""
        return replace(
            self,
            throat=self.throat + errors.throat,
            nose_drop=self.nose_drop - errors.nose,
            sep_force=self.sep_force * (1 + errors.separator),
        )

    def control(self, thickness: float) -> Geometry:
        """The negative control: the throat at two cards and no separator."""
        return replace(self, throat=2 * thickness + 0.05 * MM, sep_force=0.0)


@dataclass(frozen=True)
class PrintErrors:
    """How far one print is off the drawing: the throat and the nose floor's height (metres,
    + is higher) and the separator spring's preload (a fraction, + is stronger)."""

    throat: float = 0.0
    nose: float = 0.0
    separator: float = 0.0


@dataclass(frozen=True)
class Stack:
    """One stack: its size and the friction and thickness it drew."""

    seed: int
    cards: int
    mu_card: float
    mu_tyre: float  # silicone on card: the tyres, the exit pinch's O-rings and the shoe's pad
    thickness: float  # metres


@dataclass(frozen=True)
class Feed:
    cards_out: int
    jam: bool
    exit_speed: float  # m/s of the first card as it leaves the pinch (0 if none)
    to_beam: float = 0.0  # seconds from the feed's start until the beam saw the card
    held: bool = False  # a second card went past the gate and the separator held it


@dataclass(frozen=True)
class Firing:
    """A counted firing: what the beam counted, how, and where the cards landed."""

    asked: int
    counted: int
    cards_out: int  # cards that went past the beam
    doubles: int  # dark spells with two cards in the beam at once
    jam: bool
    seconds: float  # from the command until the last card left the beam
    speeds: tuple[float, ...] = field(default=())  # each card's speed leaving the pinch
    landing: tuple[float, ...] = field(default=())  # metres from the box's axis


@dataclass(frozen=True)
class Settings:
    """Time step and soft contacts, tuned on one card (``tests/test_hardware_sim.py`` checks it):
    the contact's time constant is a few steps, and the impedance reaches its top within
    a few micrometres, so a 0.27 mm card sinks less than 3 µm into what it rests on."""

    timestep: float = 1e-4
    solref: tuple[float, float] = (4e-4, 1.0)
    solimp: tuple[float, float, float] = (0.95, 0.99, 5e-6)
    impratio: float = 10  # friction stiffer than the normal force: sliding at the cone's edge
    timeout: float = 0.5  # seconds of feeding without a card at the beam: a jam
    run_out: float = 0.08  # seconds the pinch runs on after the beam saw the card
    settle: float = 0.03  # seconds the stack settles before each command

    def halved(self) -> Settings:
        return replace(self, timestep=self.timestep / 2)


def _fmt(*values: float) -> str:
    return " ".join(f"{v:.6g}" for v in values)


def _flat(name: str) -> str:
    """A card's joints: it slides along and across the path, rises and falls, and turns in its
    plane, but lies flat. A card is limp: lying on the card under it, it follows it instead of
    rocking on the tyres' two narrow lines as a rigid plate would (a rigid plate rocking by a
    tenth of a millimetre would slip the card over the bottom one under the gate)."""
    return "<freejoint/>"


def build_xml(g: Geometry, stack: Stack, settings: Settings) -> str:
    """The MJCF model of one stack on the feed."""
    t = stack.thickness
    hl, hw, ht = g.card_l / 2, g.card_w / 2, t / 2
    card_x = g.gate_x - hl - BEHIND_GATE  # the bottom cards lie against the gate
    solref = _fmt(*settings.solref)
    solimp = _fmt(*settings.solimp)
    yaxis = "0.7071068 0.7071068 0 0"  # a capsule's axis along y
    bodies = []
    for i in range(MODELLED):
        bodies.append(
            f'<body name="card{i}" pos="{_fmt(card_x, 0, ht + i * t)}">{_flat(f"card{i}")}'
            f'<geom name="card{i}" type="box" size="{_fmt(hl, hw, ht)}" '
            f'mass="{g.card_mass}"/></body>'
        )
    # the rest of the stack and the follower: one box over the modelled cards
    bodies.append(
        f'<body name="weight" pos="{_fmt(card_x, 0, MODELLED * t + WEIGHT_BOX_H / 2)}">'
        f'{_flat("weight")}<inertial pos="0.001 0.0001 0" mass="{g.follower_mass}" '
        f'diaginertia="1e-4 1e-4 1e-4"/>'
        f'<geom name="weight" type="box" size="{_fmt(hl, hw, WEIGHT_BOX_H / 2)}" mass="0"/>'
        f'<geom name="follower" type="box" pos="'
        f'{_fmt(g.follower_front - g.gate_x + BEHIND_GATE, 0, WEIGHT_BOX_H + FOLLOWER_H / 2)}" '
        f'size="{_fmt(hl, hw, FOLLOWER_H / 2)}" mass="0"/></body>'
    )
    # the separator's shoe: its underside an arc of sep_shoe_r (a capsule across the path),
    # resting on the nose floor (the joint's lower limit), pushed down by its spring
    nose_top = -g.nose_drop
    bodies.append(
        f'<body name="pad" pos="{_fmt(g.sep_x, 0, nose_top + g.sep_shoe_r)}">'
        f'<joint name="pad" type="slide" axis="0 0 1" limited="true" range="0 0.004" '
        f'solreflimit="{solref}" solimplimit="{solimp}" '
        f'stiffness="{g.sep_rate:.6g}" springref="{-max(g.sep_force, 0.0) / g.sep_rate:.6g}" '
        f'damping="0.02"/>'
        f'<geom name="pad" type="capsule" size="{_fmt(g.sep_shoe_r, g.sep_w / 2)}" '
        f'quat="{yaxis}" mass="{g.sep_shoe_mass}"/></body>'
    )
    bodies.append(
        f'<body name="tyre" pos="{_fmt(g.feed_x, 0, -g.tyre_r)}">'
        f'<joint name="tyre" type="hinge" axis="0 1 0" damping="1e-5" armature="2e-6"/>'
        f'<geom name="tyre" type="capsule" size="{_fmt(g.tyre_r, g.tyre_w / 2)}" '
        f'quat="{yaxis}" mass="0.01"/></body>'
    )
    bodies.append(
        f'<body name="back" pos="{_fmt(g.back_x, 0, -g.back_r)}">'
        f'<joint name="back" type="hinge" axis="0 1 0" damping="1e-5" armature="2e-6"/>'
        f'<geom name="back" type="capsule" size="{_fmt(g.back_r, g.back_w / 2)}" '
        f'quat="{yaxis}" mass="0.01"/></body>'
    )
    bodies.append(
        f'<body name="exit" pos="{_fmt(g.pinch_x, 0, g.nip_lift - g.exit_r)}">'
        f'<joint name="exit" type="hinge" axis="0 1 0" damping="1e-6" armature="5e-7"/>'
        f'<geom name="exit" type="capsule" size="{_fmt(g.exit_r, g.exit_w / 2)}" '
        f'quat="{yaxis}" mass="0.005"/></body>'
    )
    # the idler on its ball bearings: free to turn; its springs pull it down onto the roller
    bodies.append(
        f'<body name="idler" pos="{_fmt(g.pinch_x, 0, g.nip_lift + g.idler_r)}">'
        f'<joint name="idler_z" type="slide" axis="0 0 1" stiffness="{g.pinch_rate:.6g}" '
        f'springref="{-g.pinch_force / g.pinch_rate:.6g}" damping="0.2"/>'
        f'<joint name="idler" type="hinge" axis="0 1 0" damping="1e-7"/>'
        f'<geom name="idler" type="capsule" size="{_fmt(g.idler_r, g.idler_w / 2)}" '
        f'quat="{yaxis}" mass="0.002"/></body>'
    )
    # fixed parts: floor under the pocket, the nose floor (before and after the exit roller's
    # slot), the gate (the front wall over its opening holds the upper cards, whose weight is in
    # the box over the modelled cards)
    slab = 1 * MM  # half the height of the fixed boxes: only their top faces matter
    slot0, slot1 = g.pinch_x - g.exit_r, g.pinch_x + g.exit_r
    statics = [
        ("floor", (card_x - 0.01, 0, -g.floor_relief - slab), (hl + 0.01, hw, slab)),
        ("nose", ((g.gate_x + slot0) / 2, 0, nose_top - slab),
         ((slot0 - g.gate_x) / 2, hw, slab)),
        ("nose2", ((slot1 + g.nose_x1) / 2, 0, nose_top - slab),
         ((g.nose_x1 - slot1) / 2, hw, slab)),
    ]  # fmt: skip
    static_xml = "".join(
        f'<geom name="{n}" type="box" pos="{_fmt(*p)}" size="{_fmt(*s)}"/>' for n, p, s in statics
    )
    # the gate: its sharp lower edge at the throat (a round of EDGE_R: see above), its face over
    # it; the front wall behind it stops the follower
    # A card that slips under the edge is not pinched there: the bottom card under it bends down
    # into the floor's relief. So the edge gives way upward with the stiffness of the bottom
    # card's overhang from the front tyre to the gate (3 E I / L^3), and stops cards face on.
    overhang = g.gate_x - g.feed_x
    bend = 3 * g.card_modulus * (g.card_w * t**3 / 12) / overhang**3
    static_xml += (
        f'<body name="gate" pos="{_fmt(g.gate_x, 0, g.throat)}">'
        f'<joint name="gate" type="slide" axis="0 0 1" limited="true" range="0 0.002" '
        f'stiffness="{bend:.6g}" damping="0.01" solreflimit="{solref}" solimplimit="{solimp}"/>'
        f'<geom name="gate" type="capsule" pos="{_fmt(EDGE_R, 0, EDGE_R)}" '
        f'size="{_fmt(EDGE_R, hw + MM)}" quat="{yaxis}" mass="{g.card_mass}"/>'
        f'<geom name="gate_face" type="box" '
        f'pos="{_fmt(g.gate_t / 2, 0, FACE_ABOVE_EDGE + 5 * MM)}" '
        f'size="{_fmt(g.gate_t / 2, hw + MM, 5 * MM)}" mass="0"/></body>'
        f'<geom name="front_wall" type="box" '
        f'pos="{_fmt((g.pocket_front + g.gate_x) / 2, 0, g.front_wall_z + 5 * MM)}" '
        f'size="{_fmt((g.gate_x - g.pocket_front) / 2, hw + MM, 5 * MM)}"/>'
    )
    cards = [f"card{i}" for i in range(MODELLED)]
    plastic = g.plastic_mu
    pairs: list[tuple[str, str, float]] = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            pairs.append((a, b, stack.mu_card))
        pairs += [
            ("weight", a, stack.mu_card),  # a card is glued under the follower
            (a, "tyre", stack.mu_tyre),
            (a, "exit", stack.mu_tyre),
            (a, "back", stack.mu_tyre),
            (a, "idler", stack.mu_tyre),  # silicone O-rings on the pinch's idler too
            (a, "floor", plastic),
            (a, "nose", plastic),
            (a, "nose2", plastic),
            (a, "gate", plastic),
        ]
        if g.sep_force > 0:
            pairs.append((a, "pad", stack.mu_tyre))  # the shoe's silicone pad
    pairs += [("weight", "gate", plastic), ("weight", "gate_face", plastic)]
    pairs += [(a, "gate_face", plastic) for a in cards]
    pairs.append(("follower", "front_wall", plastic))
    pairs.append(("idler", "exit", stack.mu_tyre))
    pair_xml = "".join(
        f'<pair name="{a}-{b}" geom1="{a}" geom2="{b}" condim="3" '
        f'friction="{mu:.4g} {mu:.4g} 0.001 0 0" solref="{solref}" solimp="{solimp}"/>'
        for a, b, mu in pairs
    )
    # the feed servo drives both wheels (the belt shares its torque), each through its one-way
    # bearing: forward torque only; the exit motor: a DC motor, torque = stall x (ctrl - speed /
    # no-load speed)
    driven = ("tyre", "back")
    torque = g.feed_torque / len(driven)
    actuators = "".join(
        f'<velocity name="{j}" joint="{j}" kv="{torque / 2:.6g}" '
        f'forcelimited="true" forcerange="0 {torque}"/>'
        for j in driven
    ) + (
        f'<general name="exit" joint="exit" biastype="affine" gainprm="{g.exit_stall}" '
        f'biasprm="0 0 {-g.exit_stall / g.exit_speed:.6g}" ctrllimited="true" ctrlrange="0 1"/>'
    )
    return (
        f'<mujoco model="feed"><option timestep="{settings.timestep}" integrator="implicitfast" '
        f'cone="elliptic" impratio="{settings.impratio}" jacobian="sparse"></option>'
        f'<default><geom contype="0" conaffinity="0"/></default>'
        f"<worldbody>{static_xml}{''.join(bodies)}</worldbody>"
        f"<contact>{pair_xml}</contact><actuator>{actuators}</actuator></mujoco>"
    )


class FeedModel:
    """One stack on the feed, fed card after card."""

    def __init__(self, g: Geometry, stack: Stack, settings: Settings | None = None) -> None:
        self.g, self.stack = g, stack
        self.settings = settings or Settings()
        self.model = mujoco.MjModel.from_xml_string(build_xml(g, stack, self.settings))
        self.data = mujoco.MjData(self.model)
        m = self.model
        self.card_ids = [m.body(f"card{i}").id for i in range(MODELLED)]
        self.card_qpos = [m.jnt_qposadr[m.body_jntadr[b]] for b in self.card_ids]
        self.card_dof = [m.jnt_dofadr[m.body_jntadr[b]] for b in self.card_ids]
        self.weight_id = m.body("weight").id
        self.weight_qpos = m.jnt_qposadr[m.body_jntadr[self.weight_id]]
        self.feed_ctrl = [m.actuator(j).id for j in ("tyre", "back")]
        self.exit_ctrl = m.actuator("exit").id
        self.remaining = stack.cards
        self.in_play = [True] * MODELLED  # modelled cards still in the magazine
        self.follower_down = False  # the follower lies on the modelled cards
        for i in range(MODELLED):
            if i >= stack.cards:
                self._remove(i)
        self._set_weight()

    def snapshot(self) -> tuple[Any, ...]:
        """The state between two commands, to replay one at another time step."""
        d = self.data
        return (
            d.qpos.copy(),
            d.qvel.copy(),
            self.remaining,
            list(self.in_play),
            self.follower_down,
        )

    def restore(self, state: tuple[Any, ...]) -> None:
        qpos, qvel, self.remaining, in_play, self.follower_down = state
        self.in_play = list(in_play)
        self.data.qpos[:], self.data.qvel[:] = qpos, qvel
        for i, playing in enumerate(self.in_play):
            self.model.body_gravcomp[self.card_ids[i]] = 0.0 if playing else 1.0
        self._set_weight()

    def _set_weight(self) -> None:
        """The box over the modelled cards weighs the follower and the cards not modelled; its
        centre of gravity sits between the follower's and the upper cards' (against the front
        wall). Once no card is left over the modelled ones, the follower itself lies on them."""
        g, m = self.g, self.model
        upper = max(self.remaining - MODELLED, 0)
        mass = g.follower_mass + upper * g.card_mass
        card_x = g.gate_x - g.card_l / 2 - BEHIND_GATE
        x = (
            g.follower_mass * g.follower_x + upper * g.card_mass * (g.pocket_front - g.card_l / 2)
        ) / (mass)
        m.body_mass[self.weight_id] = mass
        m.body_ipos[self.weight_id] = [x - card_x, 1e-4, 0]  # (never quite 0: see build_xml)
        if not upper and not self.follower_down:
            # the follower itself now lies on the modelled cards: its front stands behind the
            # front wall, not against the gate
            self.follower_down = True
            m.geom_pos[m.geom("weight").id][0] -= g.gate_x - g.follower_front
        # mj_setConst works on the model's rest pose: keep the state around it
        d = self.data
        qpos, qvel, time = d.qpos.copy(), d.qvel.copy(), d.time
        mujoco.mj_setConst(m, d)
        d.qpos[:], d.qvel[:], d.time = qpos, qvel, time
        mujoco.mj_forward(m, d)

    def _step(self, seconds: float) -> None:
        for _ in range(round(seconds / self.settings.timestep)):
            mujoco.mj_step(self.model, self.data)

    def _front(self, i: int) -> float:
        return float(self.data.xpos[self.card_ids[i]][0]) + self.g.card_l / 2

    def _bottom(self) -> int | None:
        """The lowest card in the magazine (the one the tyres drive)."""
        playing = [i for i in range(MODELLED) if self.in_play[i]]
        if not playing:
            return None
        return min(playing, key=lambda i: float(self.data.xpos[self.card_ids[i]][2]))

    def feed_one(self) -> Feed:
        """One command: feed until the beam sees a card, or time out."""
        g, d, s = self.g, self.data, self.settings
        self._step(s.settle)
        d.ctrl[self.feed_ctrl] = g.feed_speed
        d.ctrl[self.exit_ctrl] = 1.0
        seen: set[int] = set()
        speed = 0.0
        elapsed, jam, to_beam = 0.0, False, 0.0
        check = 10  # steps between looks at the beam
        feeding = True
        stop_at = math.inf
        first = self._bottom()
        held = False
        while elapsed < stop_at:
            for _ in range(check):
                mujoco.mj_step(self.model, d)
            elapsed += check * s.timestep
            for i in range(MODELLED):
                if not self.in_play[i] or i in seen:
                    continue
                front = self._front(i)
                if i != first and front > g.sep_x - g.sep_len / 2:
                    held = True  # a second card reached the separator's shoe
                if front - g.card_l > g.pinch_x and not speed:
                    speed = float(d.qvel[self.card_dof[i]])  # first card as it leaves
                if front > g.beam_x:
                    seen.add(i)
            if seen and not to_beam:
                to_beam = elapsed
            # as the software does, the feed runs on until the card has left the beam (one-way
            # bearings: the pinch pulls it faster meanwhile)
            if feeding and seen and all(self._front(i) - g.card_l > g.beam_x for i in seen):
                feeding = False
                d.ctrl[self.feed_ctrl] = 0.0
                stop_at = elapsed + s.run_out
            if feeding and elapsed > s.timeout:
                jam = True
                break
        d.ctrl[:] = 0.0
        # a card left half out of the pinch is a jam too
        for i in range(MODELLED):
            if self.in_play[i] and i not in seen and self._front(i) > g.pinch_x + 1e-3:
                jam = True
        for i in seen:
            if speed == 0.0:
                speed = float(np.linalg.norm(d.qvel[self.card_dof[i] : self.card_dof[i] + 3]))
            self._put_back(i)
        return Feed(cards_out=len(seen), jam=jam, exit_speed=speed, to_beam=to_beam, held=held)

    def fire(
        self,
        cards: int,
        spin_up: float,
        duties: Sequence[float] = (1.0,),
        margin: float = 2.0,
        card_interval: float = 0.5,
    ) -> Firing:
        """A counted firing, as the software fires: the pinch spins up, the feed runs until the
        beam has counted ``cards`` (a card in the beam counts), then stops; the pinch runs on
        until the last card has left the beam. The exit motor's duty steps to ``duties[k]``
        once the beam has counted k cards (the last duty stays). No new card at the beam within
        ``margin`` x ``card_interval`` is a jam, as in the software."""
        g, d, s = self.g, self.data, self.settings
        self._step(s.settle)
        d.ctrl[self.exit_ctrl] = duties[0]
        elapsed = 0.0
        check = 5
        while elapsed < spin_up:
            mujoco.mj_step(self.model, d)
            elapsed += s.timestep
        d.ctrl[self.feed_ctrl] = g.feed_speed
        counted = 0
        cards_out = 0
        doubles = 0
        dark_cards: set[int] = set()  # cards in the beam during the current dark spell
        entered: set[int] = set()
        speeds: list[float] = []
        measured: set[int] = set()
        feeding, jam = True, False
        last_event = elapsed
        end = math.inf
        while elapsed < end:
            for _ in range(check):
                mujoco.mj_step(self.model, d)
            elapsed += check * s.timestep
            in_beam = set()
            for i in range(MODELLED):
                if not self.in_play[i]:
                    continue
                front = self._front(i)
                tail = front - g.card_l
                if front > g.beam_x > tail:
                    in_beam.add(i)
                if i not in measured and tail > g.pinch_x:
                    measured.add(i)
                    speeds.append(float(d.qvel[self.card_dof[i]]))
                if tail > g.beam_x and i in entered:
                    entered.discard(i)
                    cards_out += 1
                    self._put_back(i)
                    measured.discard(i)  # the same body comes round again as a later card
                    if not feeding and not entered:
                        end = elapsed
            if in_beam:
                new = in_beam - dark_cards
                if new:
                    dark_cards |= in_beam
                    entered |= new
                    if feeding:
                        counted = min(counted + 1, cards)
                        last_event = elapsed
                        d.ctrl[self.exit_ctrl] = duties[min(counted, len(duties) - 1)]
                if len(in_beam) > 1 and len(dark_cards) == 2:
                    doubles += 1
            elif dark_cards:
                dark_cards = set()
            if feeding and counted >= cards and not entered:
                # the last card counted has left the beam: the feed stops, as the software's
                feeding = False
                d.ctrl[self.feed_ctrl] = 0.0
                end = elapsed
            if feeding and elapsed - last_event > margin * card_interval:
                jam = True
                break
            if elapsed > spin_up + margin * card_interval * (cards + 2):
                jam = True
                break
        d.ctrl[:] = 0.0
        self._step(s.run_out)
        landing = tuple(
            throw_distance(v, g.launch_height, g.launch_angle, g.pinch_x) for v in speeds
        )
        return Firing(cards, counted, cards_out, doubles, jam, elapsed, tuple(speeds), landing)

    def _remove(self, i: int) -> None:
        """Card ``i`` leaves the model: far away, touching nothing, weightless."""
        d, q = self.data, self.card_qpos[i]
        self.in_play[i] = False
        d.qpos[q : q + 7] = [self.g.gate_x + 1.0 + i, 0, -1.0, 1, 0, 0, 0]
        self.model.body_gravcomp[self.card_ids[i]] = 1.0

    def _put_back(self, i: int) -> None:
        """The card that went out becomes the top modelled card (one card less in the box over
        them), or leaves the model when the stack has no more cards to model."""
        g, d = self.g, self.data
        self.remaining -= 1
        q, v = self.card_qpos[i], self.card_dof[i]
        d.qvel[v : v + 6] = 0
        if self.remaining < MODELLED:
            self._remove(i)
        else:
            t = self.stack.thickness
            tops = [
                float(d.xpos[b][2])
                for j, b in enumerate(self.card_ids)
                if j != i and self.in_play[j]
            ]
            top = max(tops) + t / 2 if tops else 0.0
            d.qpos[q : q + 7] = [g.gate_x - g.card_l / 2 - BEHIND_GATE, 0, top + t / 2, 1, 0, 0, 0]
            w = self.weight_qpos
            weight_z = float(d.xpos[self.weight_id][2])
            d.qpos[w + 2] += max(0.0, top + t + WEIGHT_BOX_H / 2 + 5e-5 - weight_z)
        self._set_weight()
        mujoco.mj_forward(self.model, d)


def throw_distance(speed: float, height: float, angle_deg: float, from_axis: float) -> float:
    """Where a card launched at ``speed`` from ``height`` over the table lands, measured from
    the box's axis (ballistics without drag; a flat card glides, so this is a first figure)."""
    a = math.radians(angle_deg)
    vx, vz = speed * math.cos(a), speed * math.sin(a)
    flight = (vz + math.sqrt(vz * vz + 2 * 9.81 * height)) / 9.81
    return from_axis + vx * flight
