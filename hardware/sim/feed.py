"""The launcher's feed in MuJoCo, built from the parts the maker prints.

The model (``mjcf.py``), in the launcher's frame (x along the card's way out, z up, z = 0 the
card path, the top of the silicone O-rings seated in the feed wheels' grooves): every printed
part within the card's reach is loaded from its OpenSCAD drawing, placed as the assembly places
it and cut into convex pieces (``parts.py``, ``shapes.py``); the bottom ``MODELLED`` cards of the
stack are thin boxes; the rest of the stack and the follower are one box over them with their
weight and centre of gravity. The stack rests on two tyres (silicone O-rings, soft: it sinks
into them as silicone of ``SHORE_A`` does), turned by the feed servo (its torque falling with its
speed, ``DRIVE_SHARE`` of its rating) on the front wheel and by the O-ring belt, as far as it
grips, on the back one, through one-way bearings. The gate is clamped: its edge rises only as
far as a print lets it (``PrintErrors.rise``), its lower edge rounded as printed. The
separator's shoe slides in its sleeve, with friction, pushed by its spring onto the nose floor;
the exit pinch is a roller on a DC motor with an idler pulled onto it by its two springs. A
vertical beam after the pinch counts the cards, read by the software's own sensor code
(``beam.py``).

Every number comes from ``fit.scad``'s echo or the drawing itself (a print error the sweep draws
moves the part it belongs to, and is reported); ``tests/test_hardware_sim.py`` checks the built
model against the drawing.

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

from . import shapes as drawn
from .beam import Beam
from .mjcf import BEHIND_GATE, FOLLOWER_H, MODELLED, SEGMENTS, WEIGHT_BOX_H, build_xml

MM = 1e-3
SHORE_A = 65  # the silicone O-rings and pad: VMQ 60-70 Shore A (dims.scad)
GUIDE_MU = 0.45  # printed PLA/PETG sliding on itself: the shoe in its sleeve (0.4-0.5)
BELT_MU = 0.5  # silicone on printed plastic, dry: the O-ring belt on the hubs
DRIVE_SHARE = 0.8  # the feed servo gives this share of its rated torque (a worn or warm one)


def shore_a_modulus(shore: float) -> float:
    """Young's modulus (Pa) of a rubber of Shore A hardness ``shore`` (Gent, 1958)."""
    return 1e6 * 0.0981 * (56 + 7.62336 * shore) / (0.137505 * (254 - 2.54 * shore))


def oring_sink(force: float, cord: float, top_r: float, shore: float = SHORE_A) -> float:
    """How far (m) an O-ring of ``cord`` (m) seated at ``top_r`` (m) sinks under ``force`` (N)
    on a flat card: Hertz's contact of two crossed radii (the cord's, the ring's), silicone
    incompressible (Poisson 0.5) on a far stiffer card."""
    modulus = shore_a_modulus(shore) / (1 - 0.5**2)
    radius = math.sqrt(cord / 2 * top_r)
    return float((9 * force**2 / (16 * modulus**2 * radius)) ** (1 / 3))


def belt_torque_limit(fit: Mapping[str, Any], mu: float = BELT_MU) -> float:
    """The most torque (N m) the belt carries to the back wheel before it slips: none for a
    toothed (timing) belt; for an O-ring belt, its tension from its stretch round the two hubs
    (silicone's modulus), and the capstan law over half a turn in a 90° V groove (which wedges
    it: the friction over sin 45°)."""
    if "belt" not in fit:
        return math.inf  # a toothed belt: its teeth carry whatever the servo gives
    (inside, cord), groove_r, centres = fit["belt"]
    pitch_r = groove_r + (cord / 2) / math.sin(math.radians(45))
    stretch = (2 * centres + 2 * math.pi * pitch_r) / (math.pi * (inside + cord)) - 1
    tension = shore_a_modulus(SHORE_A) * math.pi * (cord * MM) ** 2 / 4 * max(stretch, 0.0)
    grip = math.exp(mu / math.sin(math.radians(45)) * math.pi)
    return 2 * tension * (grip - 1) / (grip + 1) * pitch_r * MM


@dataclass(frozen=True)
class Geometry:
    """The numbers the model is built from, in metres, kilograms, newtons (from ``fit.scad``)."""

    card_w: float
    card_l: float
    card_t: float  # nominal (a stack's own thickness is its Stack's)
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
    belt_limit: float = 0.0  # N m the belt carries to the back wheel
    idler_low: float = 0.0  # the idler's underside over the card path (resting on the roller)
    shoe_rest: float = 0.0  # the separator's pad, resting, over the card path
    edge_x: float = 0.0  # the gate's edge (its steel shim, or its printed edge): its face
    edge_t: float = 0.0  # and its thickness
    guide_mu: float = GUIDE_MU
    drive_share: float = DRIVE_SHARE

    @classmethod
    def from_fit(cls, fit: Mapping[str, Any]) -> Geometry:
        card_w, card_l, card_t = fit["card"]
        feed_x, _, tyre_r, tyre_w, feed_rpm, feed_torque = fit["feed"]
        back_x, _, back_r, back_w = fit["back_wheel"]
        pinch_x, _, exit_r, exit_w, exit_rpm, _, idler_r, pinch_force, exit_stall = fit["exit"]
        sep_x, sep_len, sep_force, sep_w, sep_rate, shoe_r, shoe_mass = fit["separator"]
        gate_x, gate_t, _ = fit["gate"]
        path = fit["path_z"]
        millimetres = {
            "card_w": card_w, "card_l": card_l, "card_t": card_t,
            "follower_x": fit["follower"][2],
            "follower_front": fit["follower"][3],
            "pocket_front": fit["pocket"][1], "gate_x": gate_x, "gate_t": gate_t,
            "front_wall_z": fit["front_wall_z"] - path,
            "throat": fit["gate"][2] - path, "floor_relief": path - fit["floor_top"],
            "nose_drop": path - fit["nose_top"],
            "sep_x": sep_x, "sep_len": sep_len, "sep_w": sep_w, "sep_shoe_r": shoe_r,
            "feed_x": feed_x, "tyre_r": tyre_r, "tyre_w": tyre_w,
            "back_x": back_x, "back_r": back_r, "back_w": back_w,
            "pinch_x": pinch_x, "exit_r": exit_r, "exit_w": exit_w, "idler_r": idler_r,
            "idler_w": exit_w, "nip_lift": fit["exit"][1] + exit_r - path,
            "beam_x": fit["beam"][0], "idler_low": fit["exit"][5] - idler_r - path,
            "shoe_rest": fit["separator_sleeve"][1] - path,
            "edge_x": fit["gate_shim"][0] if "gate_shim" in fit else gate_x,
            "edge_t": fit["gate_shim"][1] if "gate_shim" in fit else gate_t,
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
            belt_limit=belt_torque_limit(fit),
        )

    def control(self, thickness: float) -> Geometry:
        """The negative control: the gate's edge two cards and 0.05 mm over the floor the card
        lies on there (the land, or the path where there is none), and no separator."""
        under = -self.floor_relief if self.edge_x != self.gate_x else 0.0
        return replace(self, throat=under + 2 * thickness + 0.05 * MM, sep_force=0.0)


@dataclass(frozen=True)
class PrintErrors:
    """How far one print is off the drawing: the throat and the nose floor's height (metres,
    + is higher), the separator spring's preload (a fraction, + is stronger), how far the
    clamped gate's edge can rise (a card bending under it, the shim's give; metres) and the
    radius its lower edge came out with (metres)."""

    throat: float = 0.0
    nose: float = 0.0
    separator: float = 0.0
    rise: float = 0.0
    edge_r: float = 0.15 * MM


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
    past_gate: int = 0  # cards whose front went a card's thickness and more past the gate
    unstable: bool = False  # MuJoCo found the state diverging during this feed (and reset it)


@dataclass(frozen=True)
class Firing:
    """A counted firing: what the beam counted, how, and where the cards landed."""

    asked: int
    counted: int  # what the software's beam code counted
    cards_out: int  # cards that went past the beam
    doubles: int  # dark spells the software's beam code took for two cards or more
    jam: bool
    seconds: float  # from the command until the last card left the beam
    speeds: tuple[float, ...] = field(default=())  # each card's speed leaving the pinch
    landing: tuple[float, ...] = field(default=())  # metres from the box's axis
    dark: tuple[float, ...] = field(default=())  # seconds of each dark spell of the beam


@dataclass(frozen=True)
class Settings:
    """Time step and soft contacts, tuned on one card (``tests/test_hardware_sim.py`` checks it):
    the contact's time constant is a few steps, and the impedance reaches its top within
    a few micrometres, so a 0.27 mm card sinks less than 3 µm into what it rests on."""

    timestep: float = 1e-4
    solref: tuple[float, float] = (4e-4, 1.0)
    solimp: tuple[float, float, float] = (0.95, 0.99, 5e-6)
    # silicone: soft, a stack sinks 0.1-0.24 mm into the O-rings (Hertz, SHORE_A; the test
    # checks it)
    silicone_solref: tuple[float, float] = (1.75e-3, 1.0)
    silicone_solimp: tuple[float, float, float] = (0.9, 0.95, 2e-4)
    impratio: float = 10  # friction stiffer than the normal force: sliding at the cone's edge
    timeout: float = 0.5  # seconds of feeding without a card at the beam: a jam
    run_out: float = 0.08  # seconds the pinch runs on after the beam saw the card
    settle: float = 0.03  # seconds the stack settles before each command

    def halved(self) -> Settings:
        return replace(self, timestep=self.timestep / 2)


class FeedModel:
    """One stack on the feed, fed card after card."""

    def __init__(
        self,
        g: Geometry,
        stack: Stack,
        settings: Settings | None = None,
        errors: PrintErrors | None = None,
        shapes: drawn.Shapes | None = None,
    ) -> None:
        self.g, self.stack = g, stack
        self.settings = settings or Settings()
        self.errors = errors or PrintErrors()
        self.shapes = shapes or drawn.load(_fit(), self.errors.nose / MM)
        xml = build_xml(g, stack, self.settings, self.shapes, self.errors)
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        self.feeding = False  # the feed servo is on
        m = self.model
        self.tyre_dof = m.jnt_dofadr[m.joint("tyre").id]
        # each card's segments, tail (the chain's root) to front
        self.segments = [
            [m.body(f"card{i}.{k}").id for k in range(SEGMENTS)] for i in range(MODELLED)
        ]
        self.card_ids = [ids[0] for ids in self.segments]
        self.card_qpos = [m.jnt_qposadr[m.body_jntadr[b]] for b in self.card_ids]
        self.card_dof = [m.jnt_dofadr[m.body_jntadr[b]] for b in self.card_ids]
        self.hinge_qpos = [
            [m.jnt_qposadr[m.body_jntadr[b]] for b in ids[1:]] for ids in self.segments
        ]
        self.hinge_dof = [
            [m.jnt_dofadr[m.body_jntadr[b]] for b in ids[1:]] for ids in self.segments
        ]
        self.seg = g.card_l / SEGMENTS
        self.upper = [m.body(f"upper.{k}").id for k in range(SEGMENTS)]
        self.upper_qpos = m.jnt_qposadr[m.body_jntadr[self.upper[0]]]
        self.upper_hinges = [m.body_jntadr[b] for b in self.upper[1:]]
        self.card_ei = g.card_modulus * g.card_w * stack.thickness**3 / 12
        self.follower_id = m.body("follower").id
        self.follower_qpos = m.jnt_qposadr[m.body_jntadr[self.follower_id]]
        self.feed_ctrl = [m.actuator(j).id for j in ("tyre", "back")]
        self.exit_ctrl = m.actuator("exit").id
        self.remaining = stack.cards
        self.in_play = [True] * MODELLED  # modelled cards still in the magazine
        self.upper_gone = False  # no card left over the modelled ones: the follower lies on them
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
            self.upper_gone,
        )

    def restore(self, state: tuple[Any, ...]) -> None:
        qpos, qvel, self.remaining, in_play, self.upper_gone = state
        self.in_play = list(in_play)
        self.data.qpos[:], self.data.qvel[:] = qpos, qvel
        for i, playing in enumerate(self.in_play):
            self.model.body_gravcomp[self.segments[i]] = 0.0 if playing else 1.0
        self._set_weight()

    def _set_weight(self) -> None:
        """The chain over the modelled cards weighs the cards not modelled and bends as they
        do together; once none is left, it leaves and the follower lies on the modelled cards."""
        g, m, d = self.g, self.model, self.data
        upper = max(self.remaining - MODELLED, 0)
        m.body_mass[self.upper] = max(upper * g.card_mass / SEGMENTS, 1e-6)
        m.jnt_stiffness[self.upper_hinges] = max(upper, 1) * self.card_ei / self.seg
        m.body_gravcomp[self.upper] = 0.0 if upper else 1.0
        if not upper and not self.upper_gone:
            self.upper_gone = True
            q = self.upper_qpos
            d.qpos[q : q + 7] = [g.gate_x + 2.0, 0, -1.0, 1, 0, 0, 0]
        # mj_setConst works on the model's rest pose: keep the state around it
        d = self.data
        qpos, qvel, time = d.qpos.copy(), d.qvel.copy(), d.time
        mujoco.mj_setConst(m, d)
        d.qpos[:], d.qvel[:], d.time = qpos, qvel, time
        mujoco.mj_forward(m, d)

    def step(self, seconds: float) -> None:
        """Run the model ``seconds`` on (the feed servo on while ``feeding``)."""
        self._advance(round(seconds / self.settings.timestep))

    def _advance(self, steps: int) -> None:
        """``steps`` time steps, the feed servo's torque set from its speed first."""
        self.drive()
        for _ in range(steps):
            mujoco.mj_step(self.model, self.data)

    def drive(self) -> None:
        """The feed servo on or off (its torque follows its speed in the model itself)."""
        self.data.ctrl[self.feed_ctrl] = 1.0 if self.feeding else 0.0

    def front_of(self, i: int) -> float:
        """Where card ``i``'s front edge is along the card's way out (metres)."""
        return float(self.data.xpos[self.segments[i][-1]][0]) + self.seg / 2

    def _tail(self, i: int) -> float:
        return float(self.data.xpos[self.card_ids[i]][0]) - self.seg / 2

    def height_at(self, i: int, x: float) -> float:
        """The underside of card ``i`` where it lies over ``x`` (metres)."""
        k = min(
            range(SEGMENTS), key=lambda k: abs(float(self.data.xpos[self.segments[i][k]][0]) - x)
        )
        return float(self.data.xpos[self.segments[i][k]][2]) - self.stack.thickness / 2

    def _bottom(self) -> int | None:
        """The lowest card in the magazine (the one the tyres drive)."""
        playing = [i for i in range(MODELLED) if self.in_play[i]]
        if not playing:
            return None
        return min(playing, key=lambda i: float(self.data.xpos[self.card_ids[i]][2]))

    def feed_one(self) -> Feed:
        """One command: feed until the beam sees a card, or time out."""
        g, d, s = self.g, self.data, self.settings
        self.step(s.settle)
        self.feeding = True
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
            self._advance(check)
            elapsed += check * s.timestep
            for i in range(MODELLED):
                if not self.in_play[i] or i in seen:
                    continue
                front = self.front_of(i)
                if i != first and front > g.sep_x - g.sep_len / 2:
                    held = True  # a second card reached the separator's shoe
                if self._tail(i) > g.pinch_x and not speed:
                    speed = float(d.qvel[self.card_dof[i]])  # first card as it leaves
                if front > g.beam_x:
                    seen.add(i)
            if seen and not to_beam:
                to_beam = elapsed
            # as the software does, the feed runs on until the card has left the beam (one-way
            # bearings: the pinch pulls it faster meanwhile)
            if feeding and seen and all(self._tail(i) > g.beam_x for i in seen):
                feeding = self.feeding = False
                stop_at = elapsed + s.run_out
            if feeding and elapsed > s.timeout:
                jam = True
                break
        self.feeding = False
        d.ctrl[:] = 0.0
        past = {i for i in seen} | {
            i
            for i in range(MODELLED)
            if self.in_play[i] and self.front_of(i) > g.gate_x + g.gate_t + 1e-3
        }
        # a card left half out of the pinch is a jam too
        for i in range(MODELLED):
            if self.in_play[i] and i not in seen and self.front_of(i) > g.pinch_x + 1e-3:
                jam = True
        for i in seen:
            if speed == 0.0:
                speed = float(np.linalg.norm(d.qvel[self.card_dof[i] : self.card_dof[i] + 3]))
            self._put_back(i)
        warning = d.warning[mujoco.mjtWarning.mjWARN_BADQACC]
        unstable = bool(warning.number)
        warning.number = 0
        return Feed(len(seen), jam, speed, to_beam, held, len(past), unstable)

    def fire(
        self,
        cards: int,
        spin_up: float,
        duties: Sequence[float] = (1.0,),
        margin: float = 2.0,
        card_interval: float = 0.5,
        passing: Sequence[float] = (),
    ) -> Firing:
        """A counted firing, as the software fires: the pinch spins up, the feed runs until the
        beam has counted ``cards`` (a card in the beam counts), then stops; the pinch runs on
        until the last card has left the beam. The beam is read by the software's own sensor
        code (``beam.py``): what it counts is what the box would count. The exit motor's duty
        steps to ``duties[k]`` once the beam has counted k cards (the last duty stays); the beam
        judges the card after k counted at ``passing[k]`` of full duty, as the software does. No
        new card at the beam within ``margin`` x ``card_interval`` is a jam, as in the software."""
        d, s = self.data, self.settings
        self.step(s.settle)
        start = d.time
        beam = Beam(lambda: float(d.time) - start, passing)
        try:
            return self._fire(beam, cards, spin_up, duties, margin * card_interval)
        finally:
            beam.close()

    def _fire(
        self, beam: Beam, cards: int, spin_up: float, duties: Sequence[float], patience: float
    ) -> Firing:
        g, d, s = self.g, self.data, self.settings
        d.ctrl[self.exit_ctrl] = duties[0]
        elapsed = 0.0
        check = 5
        self._advance(round(spin_up / s.timestep))
        elapsed = spin_up
        self.feeding = True
        cards_out = 0
        entered: set[int] = set()  # cards whose front has reached the beam, not yet left it
        speeds: list[float] = []
        measured: set[int] = set()
        jam = False
        last_event = elapsed
        counted = 0
        while True:
            self._advance(check)
            elapsed += check * s.timestep
            dark = False
            for i in range(MODELLED):
                if not self.in_play[i]:
                    continue
                front = self.front_of(i)
                tail = self._tail(i)
                if front > g.beam_x > tail:
                    dark = True
                    entered.add(i)
                if i not in measured and tail > g.pinch_x:
                    measured.add(i)
                    speeds.append(float(d.qvel[self.card_dof[i]]))
                if tail > g.beam_x and i in entered:
                    entered.discard(i)
                    cards_out += 1
                    self._put_back(i)
                    measured.discard(i)  # the same body comes round again as a later card
            beam.see(dark)
            now = beam.counted()
            if now > counted:
                counted = now
                last_event = elapsed
                d.ctrl[self.exit_ctrl] = duties[min(counted, len(duties) - 1)]
            if self.feeding and counted >= cards:
                self.feeding = False  # the software stops the feed once it has counted them
            if not self.feeding and not dark and not entered:
                break  # the last card has left the beam
            if self.feeding and elapsed - last_event > patience:
                jam = True
                break
            if elapsed > spin_up + patience * (cards + 2):
                jam = True
                break
        self.feeding = False
        d.ctrl[:] = 0.0
        self.step(s.run_out)
        landing = tuple(
            throw_distance(v, g.launch_height, g.launch_angle, g.pinch_x) for v in speeds
        )
        return Firing(
            cards,
            min(beam.counted(), cards) if not jam else beam.counted(),
            cards_out,
            beam.doubles(),
            jam,
            elapsed,
            tuple(speeds),
            landing,
            tuple(beam.spells()),
        )

    def _place(self, i: int, x: float, z: float) -> None:
        """Card ``i`` lying flat and still, its middle at ``x``, at height ``z``."""
        d, q, v = self.data, self.card_qpos[i], self.card_dof[i]
        d.qpos[q : q + 7] = [x - self.g.card_l / 2 + self.seg / 2, 0, z, 1, 0, 0, 0]
        d.qvel[v : v + 6] = 0
        d.qpos[self.hinge_qpos[i]] = 0
        d.qvel[self.hinge_dof[i]] = 0

    def _remove(self, i: int) -> None:
        """Card ``i`` leaves the model: far away, touching nothing, weightless."""
        self.in_play[i] = False
        self._place(i, self.g.gate_x + 1.0 + i, -1.0)
        self.model.body_gravcomp[self.segments[i]] = 1.0

    def _put_back(self, i: int) -> None:
        """The card that went out becomes the top modelled card (one card less in the box over
        them), or leaves the model when the stack has no more cards to model."""
        g, d = self.g, self.data
        self.remaining -= 1
        if self.remaining < MODELLED:
            self._remove(i)
        else:
            t = self.stack.thickness
            tops = [
                float(d.xpos[b][2])
                for j in range(MODELLED)
                if j != i and self.in_play[j]
                for b in self.segments[j]
            ]
            top = max(tops) + t / 2 if tops else 0.0
            self._place(i, g.gate_x - g.card_l / 2 - BEHIND_GATE, top + t / 2)
            # what lies over the modelled cards rises by the card put under it
            over = self.follower_qpos if self.upper_gone else self.upper_qpos
            lowest = min(
                float(d.xpos[b][2]) for b in ([self.follower_id] if self.upper_gone else self.upper)
            )
            half = FOLLOWER_H / 2 if self.upper_gone else WEIGHT_BOX_H / 2
            lift = max(0.0, top + t + half + 5e-5 - lowest)
            d.qpos[over + 2] += lift
            if not self.upper_gone:
                d.qpos[self.follower_qpos + 2] += lift
        self._set_weight()
        mujoco.mj_forward(self.model, d)


def _fit() -> dict[str, Any]:
    from hardware.tools import scad

    return scad.fit_values()


def throw_distance(speed: float, height: float, angle_deg: float, from_axis: float) -> float:
    """Where a card launched at ``speed`` from ``height`` over the table lands, measured from
    the box's axis (ballistics without drag; a flat card glides, so this is a first figure)."""
    a = math.radians(angle_deg)
    vx, vz = speed * math.cos(a), speed * math.sin(a)
    flight = (vz + math.sqrt(vz * vz + 2 * 9.81 * height)) / 9.81
    return from_axis + vx * flight
