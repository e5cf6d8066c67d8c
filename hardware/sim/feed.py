"""The launcher's feed as a rigid-body model in MuJoCo, built from ``dims.scad``'s numbers.

The model, in the launcher's frame (x along the card's way out, z up, z = 0 the card path):
the bottom ``MODELLED`` cards of the stack are thin boxes; the rest of the stack and the
follower are one box over them with their weight and centre of gravity. The stack rests on two
tyres, front and back, turned together (one servo, an O-ring belt) through one-way bearings:
they push forward, overrun, never brake; the floor stands ``floor_relief`` lower. The gate
stops what stands higher than the throat; the separator pad hangs on a soft leaf just past it;
the exit pinch is a roller on a DC motor (torque falling linearly from stall to no-load speed)
with an O-ringed idler pressed on it. A vertical beam after the pinch counts the cards.

A feed command runs the feed until the beam has seen one card (or a time-out calls it a jam),
lets the pinch run on, and reports how many cards went past the beam. The fed card is then put
back at the top of the modelled cards (the box over them loses one card's weight), so a stack's
cards are fed one after another with whatever the last feed left behind.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import mujoco
import numpy as np

MODELLED = 4  # cards modelled as boxes at the bottom of the stack
MM = 1e-3
CARD_ON_PLASTIC = 0.3  # card on the printed floor and gate
PAD_ON_CARD = 1.0  # the separator's rubber pad


@dataclass(frozen=True)
class Geometry:
    """The numbers the model is built from, in metres, kilograms, newtons (from ``fit.scad``)."""

    card_w: float
    card_l: float
    card_mass: float
    follower_mass: float
    follower_x: float  # the follower's centre of gravity
    pocket_front: float  # px1: the upper cards lie against the front wall
    gate_x: float
    gate_t: float
    throat: float
    floor_relief: float
    sep_x: float
    sep_len: float
    sep_gap: float
    sep_force: float
    sep_w: float
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
    pinch_force: float
    nip_lift: float  # the exit roller's top over the card path
    beam_x: float
    launch_height: float  # card path over the table
    launch_angle: float  # degrees
    back_driven: bool = True  # the back wheel is a driven tyre (False: a free printed roller)

    @classmethod
    def from_fit(cls, fit: Mapping[str, Any]) -> Geometry:
        card_w, card_l, _ = fit["card"]
        feed_x, _, tyre_r, tyre_w, feed_rpm, feed_torque = fit["feed"]
        back_x, _, back_r, back_w = fit["back_wheel"]
        pinch_x, _, exit_r, exit_w, exit_rpm, _, idler_r, pinch_force, exit_stall = fit["exit"]
        sep_x, sep_len, sep_gap, sep_force, sep_w = fit["separator"]
        gate_x, gate_t, _ = fit["gate"]
        path = fit["path_z"]
        millimetres = {
            "card_w": card_w, "card_l": card_l, "follower_x": fit["follower"][2],
            "pocket_front": fit["pocket"][1], "gate_x": gate_x, "gate_t": gate_t,
            "throat": fit["throat_h"], "floor_relief": path - fit["floor_top"],
            "sep_x": sep_x, "sep_len": sep_len, "sep_gap": sep_gap, "sep_w": sep_w,
            "feed_x": feed_x, "tyre_r": tyre_r, "tyre_w": tyre_w,
            "back_x": back_x, "back_r": back_r, "back_w": back_w,
            "pinch_x": pinch_x, "exit_r": exit_r, "exit_w": exit_w, "idler_r": idler_r,
            "nip_lift": fit["nip_lift"], "beam_x": fit["beam"][0],
            "launch_height": fit["table_to_deck"] + path,
        }  # fmt: skip
        return cls(
            **{name: value * MM for name, value in millimetres.items()},
            card_mass=fit["card_mass"] / 1000,
            follower_mass=fit["follower"][1] / 1000,
            sep_force=sep_force,
            feed_speed=feed_rpm * 2 * math.pi / 60,
            feed_torque=feed_torque,
            exit_speed=exit_rpm * 2 * math.pi / 60,
            exit_stall=exit_stall,
            pinch_force=pinch_force,
            launch_angle=fit["launch_angle"],
        )

    def control(self, thickness: float) -> Geometry:
        """The negative control: the throat at two cards and no separator."""
        return replace(self, throat=2 * thickness + 0.05 * MM, sep_force=0.0)

    def plain(self) -> Geometry:
        """A plain bottom feed: one driven tyre, the back of the stack on a free roller, the
        floor at the card path carrying its share of the stack."""
        return replace(self, back_driven=False, floor_relief=0.0)


@dataclass(frozen=True)
class Stack:
    """One stack: its size and the friction and thickness it drew."""

    seed: int
    cards: int
    mu_card: float
    mu_tyre: float
    thickness: float  # metres


@dataclass(frozen=True)
class Feed:
    cards_out: int
    jam: bool
    exit_speed: float  # m/s of the first card as it leaves the pinch (0 if none)


@dataclass(frozen=True)
class Settings:
    """Time step and soft contacts, tuned on one card (``tests/test_hardware_sim.py`` checks it):
    the contact's time constant is a few steps, and the impedance reaches its top within
    a few micrometres, so a 0.27 mm card sinks less than 3 µm into what it rests on."""

    timestep: float = 2e-4
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


def build_xml(g: Geometry, stack: Stack, settings: Settings) -> str:
    """The MJCF model of one stack on the feed."""
    t = stack.thickness
    hl, hw, ht = g.card_l / 2, g.card_w / 2, t / 2
    card_x = g.gate_x - hl - 0.1 * MM  # the bottom cards lie against the gate
    solref = _fmt(*settings.solref)
    solimp = _fmt(*settings.solimp)
    yaxis = "0.7071068 0.7071068 0 0"  # a capsule's axis along y
    bodies = []
    for i in range(MODELLED):
        bodies.append(
            f'<body name="card{i}" pos="{_fmt(card_x, 0, ht + i * t)}"><freejoint/>'
            f'<geom name="card{i}" type="box" size="{_fmt(hl, hw, ht)}" '
            f'mass="{g.card_mass}"/></body>'
        )
    # the rest of the stack and the follower: one box over the modelled cards
    weight_h = 1 * MM
    bodies.append(
        f'<body name="weight" pos="{_fmt(card_x, 0, MODELLED * t + weight_h / 2)}"><freejoint/>'
        f'<inertial pos="0.001 0.0001 0" mass="{g.follower_mass}" diaginertia="1e-4 1e-4 1e-4"/>'
        f'<geom name="weight" type="box" size="{_fmt(hl, hw, weight_h / 2)}" mass="0"/></body>'
    )
    # the pad under the leaf's tip: its leading edge is round (the leaf bends), radius half its
    # length
    pad_r = g.sep_len / 2
    bodies.append(
        f'<body name="pad" pos="{_fmt(g.sep_x, 0, g.sep_gap + pad_r)}">'
        f'<joint name="pad" type="slide" axis="0 0 1" limited="true" range="0 0.003" '
        f'stiffness="20" springref="{-max(g.sep_force, 1e-6) / 20:.6g}" damping="0.05"/>'
        f'<geom name="pad" type="capsule" size="{_fmt(pad_r, g.sep_w / 2)}" quat="{yaxis}" '
        f'mass="0.001"/></body>'
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
    bodies.append(
        f'<body name="idler" pos="{_fmt(g.pinch_x, 0, g.nip_lift + g.idler_r)}">'
        f'<joint name="idler_z" type="slide" axis="0 0 1" stiffness="300" '
        f'springref="{-g.pinch_force / 300:.6g}" damping="0.2"/>'
        f'<joint name="idler" type="hinge" axis="0 1 0" damping="1e-6"/>'
        f'<geom name="idler" type="capsule" size="{_fmt(g.idler_r, g.exit_w / 2)}" '
        f'quat="{yaxis}" mass="0.002"/></body>'
    )
    # fixed parts: floor under the pocket and the nose, gate (the front wall over its opening
    # holds the upper cards, whose weight is in the box over the modelled cards)
    floor_z = -g.floor_relief - 1 * MM
    nose0, nose1 = g.gate_x, g.pinch_x - g.exit_r - 0.5 * MM  # at the card path
    statics = [
        ("floor", (card_x - 0.01, 0, floor_z), (hl + 0.01, hw, 1 * MM)),
        # (50 µm under the path: a card sinking a few µm into the tyres does not stub on it)
        ("nose", ((nose0 + nose1) / 2, 0, -1.05 * MM), ((nose1 - nose0) / 2, hw, 1 * MM)),
        ("gate", (g.gate_x + g.gate_t / 2, 0, g.throat + 5 * MM), (g.gate_t / 2, hw + MM, 5 * MM)),
    ]
    static_xml = "".join(
        f'<geom name="{n}" type="box" pos="{_fmt(*p)}" size="{_fmt(*s)}"/>' for n, p, s in statics
    )
    cards = [f"card{i}" for i in range(MODELLED)]
    pairs: list[tuple[str, str, float]] = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            pairs.append((a, b, stack.mu_card))
        pairs += [
            ("weight", a, stack.mu_card),
            (a, "tyre", stack.mu_tyre),
            (a, "exit", stack.mu_tyre),
            (a, "back", stack.mu_tyre if g.back_driven else CARD_ON_PLASTIC),
            (a, "idler", stack.mu_tyre),  # O-rings on the pinch's idler too
            (a, "floor", CARD_ON_PLASTIC),
            (a, "nose", CARD_ON_PLASTIC),
            (a, "gate", CARD_ON_PLASTIC),
        ]
        if g.sep_force > 0:
            pairs.append((a, "pad", PAD_ON_CARD))
    pairs.append(("weight", "gate", CARD_ON_PLASTIC))
    pairs.append(("idler", "exit", 1.0))
    pair_xml = "".join(
        f'<pair geom1="{a}" geom2="{b}" condim="3" friction="{mu:.4g} {mu:.4g} 0.001 0 0" '
        f'solref="{solref}" solimp="{solimp}"/>'
        for a, b, mu in pairs
    )
    # the feed servo drives both wheels (the belt shares its torque), each through its one-way
    # bearing: forward torque only; the exit motor: a DC motor, torque = stall x (ctrl - speed /
    # no-load speed)
    driven = ("tyre", "back") if g.back_driven else ("tyre",)
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
        self.feed_ctrl = [m.actuator(j).id for j in ("tyre", "back") if j in self._actuators()]
        self.exit_ctrl = m.actuator("exit").id
        self.remaining = stack.cards
        self.in_play = [True] * MODELLED  # modelled cards still in the magazine
        self._set_weight()

    def _actuators(self) -> list[str]:
        return [self.model.actuator(i).name for i in range(self.model.nu)]

    def _set_weight(self) -> None:
        """The box over the modelled cards weighs the follower and the cards not modelled; its
        centre of gravity sits between the follower's and the upper cards' (against the front
        wall)."""
        g, m = self.g, self.model
        upper = max(self.remaining - MODELLED, 0)
        mass = g.follower_mass + upper * g.card_mass
        card_x = g.gate_x - g.card_l / 2 - 0.1 * MM
        x = (
            g.follower_mass * g.follower_x + upper * g.card_mass * (g.pocket_front - g.card_l / 2)
        ) / (mass)
        m.body_mass[self.weight_id] = mass
        m.body_ipos[self.weight_id] = [x - card_x, 1e-4, 0]  # (never quite 0: see build_xml)
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

    def feed_one(self) -> Feed:
        """One command: feed until the beam sees a card, or time out."""
        g, d, s = self.g, self.data, self.settings
        self._step(s.settle)
        d.ctrl[self.feed_ctrl] = g.feed_speed
        d.ctrl[self.exit_ctrl] = 1.0
        seen: set[int] = set()
        speed = 0.0
        elapsed, jam = 0.0, False
        check = 10  # steps between looks at the beam
        feeding = True
        stop_at = math.inf
        while elapsed < stop_at:
            for _ in range(check):
                mujoco.mj_step(self.model, d)
            elapsed += check * s.timestep
            for i in range(MODELLED):
                if not self.in_play[i] or i in seen:
                    continue
                front = self._front(i)
                if front - g.card_l > g.pinch_x and not speed:
                    speed = float(d.cvel[self.card_ids[i]][3])  # first card as it leaves
                if front > g.beam_x:
                    seen.add(i)
            if feeding and seen:
                feeding = False
                d.ctrl[self.feed_ctrl] = 0.0  # the feed stops (one-way bearings: the card goes on)
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
                speed = float(np.linalg.norm(d.cvel[self.card_ids[i]][3:5]))
            self._put_back(i)
        return Feed(cards_out=len(seen), jam=jam, exit_speed=speed)

    def _put_back(self, i: int) -> None:
        """The card that went out becomes the top modelled card (one card less in the box over
        them), or leaves the model when the stack has no more cards to model."""
        g, d = self.g, self.data
        self.remaining -= 1
        q, v = self.card_qpos[i], self.card_dof[i]
        d.qvel[v : v + 6] = 0
        if self.remaining < MODELLED:
            self.in_play[i] = False
            d.qpos[q : q + 3] = [g.gate_x + 1.0 + i, 0, -1.0]  # far away, touching nothing
            d.qpos[q + 3 : q + 7] = [1, 0, 0, 0]
            self.model.body_gravcomp[self.card_ids[i]] = 1.0
        else:
            t = self.stack.thickness
            tops = [
                float(d.xpos[b][2])
                for j, b in enumerate(self.card_ids)
                if j != i and self.in_play[j]
            ]
            top = max(tops) + t / 2 if tops else 0.0
            d.qpos[q : q + 3] = [g.gate_x - g.card_l / 2 - 0.1e-3, 0, top + t / 2]
            d.qpos[q + 3 : q + 7] = [1, 0, 0, 0]
            w = self.weight_qpos
            d.qpos[w + 2] = max(float(d.qpos[w + 2]), top + t + 0.5e-3 + 0.05e-3)
        self._set_weight()
        mujoco.mj_forward(self.model, d)


def throw_distance(speed: float, height: float, angle_deg: float, from_axis: float) -> float:
    """Where a card launched at ``speed`` from ``height`` over the table lands, measured from
    the box's axis (ballistics without drag; a flat card glides, so this is a first figure)."""
    a = math.radians(angle_deg)
    vx, vz = speed * math.cos(a), speed * math.sin(a)
    flight = (vz + math.sqrt(vz * vz + 2 * 9.81 * height)) / 9.81
    return from_axis + vx * flight
