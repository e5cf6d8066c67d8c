"""The project's own card drawings and table scenes: what the default model learns from and what
the tests and benches measure the reader on.

Nothing here is Mattel artwork: each face is drawn with OpenCV's Hershey fonts and plain shapes
(arrows for Inversion, a circle-slash for Passer, "2x" for Appuyer 2x, stacked cards for Poser
Tout, a four-colour wheel for the Joker, a burst for Coup Extrême, +2 and +4). A :class:`Style` is
one printing of a deck: font, stroke width, symbol designs, corner layout and colour hues all vary,
so a reader tuned on some styles can be measured on one it never saw (:data:`HELD_OUT_FONT`).

A scene is a 640 × 480 camera frame looking down at a discard pile: a table of wood, felt or cloth,
cards lying rotated under the top one, shadows, a warm or cold lamp, glare, blur, noise, JPEG, a
tilted camera and sometimes a hand. :func:`sequence` films a stretch of play at 10 frames a second
with its ground truth: each card played and the moment the hand that laid it left the picture.

(Over 500 lines: the faces, the scenes and the films share one face cache and one geometry of
the frame; the films' hard plays are the last part, :data:`HARD_PLAYS`.)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .kinds import COLOURLESS, Card, may_follow
from .types import Floats, Image

FACE_W, FACE_H = 200, 310  # 56 × 87 mm
FRAME_W, FRAME_H = 640, 480
FPS = 10
BGR = {
    "red": (40, 35, 205),
    "yellow": (30, 200, 235),
    "green": (70, 160, 40),
    "blue": (185, 95, 25),
}
WHEEL = ("red", "yellow", "green", "blue")
TRAIN_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)
HELD_OUT_FONT = cv2.FONT_HERSHEY_TRIPLEX
TABLES = ("wood", "felt", "cloth")
LAMPS = {"neutral": (1.0, 1.0, 1.0), "warm": (0.72, 0.9, 1.08), "cold": (1.08, 1.0, 0.84)}


@dataclass(frozen=True, eq=False)  # a printing is itself: compared by identity
class Style:
    """One printing of a deck. ``held_out`` styles use a font no training style uses."""

    font: int
    italic: bool
    stroke: float  # line width, relative
    border: float  # white border, fraction of the card's width
    oval_angle: float
    oval_size: float
    number_size: float
    index_size: float
    four_corners: bool
    outline: bool  # a dark outline around the central symbol
    underline: bool  # 6 and 9 underlined (else a dot beside them)
    reverse_design: int
    skip_angle: float
    hit2_design: int
    stack_count: int
    wheel_design: int
    burst_points: int
    draw4_design: int
    hues: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    @classmethod
    def random(cls, rng: np.random.Generator, *, held_out: bool = False) -> Style:
        font = HELD_OUT_FONT if held_out else int(rng.choice(TRAIN_FONTS))
        hues = {
            name: tuple(int(np.clip(c + rng.integers(-18, 19), 0, 255)) for c in colour)
            for name, colour in BGR.items()
        }
        return cls(
            font=font,
            italic=bool(rng.random() < 0.3),
            stroke=float(rng.uniform(0.8, 1.4)),
            border=float(rng.uniform(0.055, 0.085)),
            oval_angle=float(rng.uniform(25, 45)),
            oval_size=float(rng.uniform(0.85, 1.0)),
            number_size=float(rng.uniform(0.8, 1.05)),
            index_size=float(rng.uniform(0.8, 1.2)),
            four_corners=bool(rng.random() < 0.3),
            outline=bool(rng.random() < 0.5),
            underline=bool(rng.random() < 0.7),
            reverse_design=int(rng.integers(0, 2)),
            skip_angle=float(rng.choice([-45.0, 45.0]) + rng.uniform(-10, 10)),
            hit2_design=int(rng.integers(0, 2)),
            stack_count=int(rng.integers(3, 5)),
            wheel_design=int(rng.integers(0, 2)),
            burst_points=int(rng.integers(7, 12)),
            draw4_design=int(rng.integers(0, 2)),
            hues=hues,  # type: ignore[arg-type]
        )


def styles(count: int, seed: int, *, held_out: bool = False) -> list[Style]:
    rng = np.random.default_rng(seed)
    return [Style.random(rng, held_out=held_out) for _ in range(count)]


# ---------------------------------------------------------------- faces


def _text(
    img: Image,
    text: str,
    centre: tuple[float, float],
    height: float,
    colour: tuple[int, int, int],
    style: Style,
    thickness: float,
) -> None:
    font = style.font | (cv2.FONT_ITALIC if style.italic else 0)
    (w, h), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(h, 1)
    thick = max(1, round(thickness))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    origin = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    if style.outline and thickness > 3:
        cv2.putText(img, text, origin, font, scale, (20, 20, 20), thick + 4, cv2.LINE_AA)
    cv2.putText(img, text, origin, font, scale, colour, thick, cv2.LINE_AA)


def _arrow(
    img: Image, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int], t: int
) -> None:
    p, q = (round(a[0]), round(a[1])), (round(b[0]), round(b[1]))
    cv2.arrowedLine(img, p, q, colour, t, cv2.LINE_AA, tipLength=0.45)


def _symbol(
    img: Image,
    card: Card,
    centre: tuple[float, float],
    size: float,
    colour: tuple[int, int, int],
    style: Style,
    small: bool,
) -> None:
    """The card's symbol, ``size`` tall, centred on ``centre``."""
    cx, cy = centre
    t = max(1, round(size * 0.09 * style.stroke))
    kind = card.kind
    if kind.isdigit():
        _text(img, kind, centre, size * 0.8 * style.number_size, colour, style, t * 1.2)
        if kind in ("6", "9"):
            if style.underline:
                y = cy + size * 0.5
                x = size * 0.22
                cv2.line(img, (round(cx - x), round(y)), (round(cx + x), round(y)), colour, t)
            else:
                dot = (round(cx + size * 0.38), round(cy + size * 0.38))
                cv2.circle(img, dot, max(1, t), colour, -1, cv2.LINE_AA)
    elif kind == "reverse":
        r = size * 0.38
        if style.reverse_design == 0:
            _arrow(img, (cx - r, cy + r * 0.2), (cx + r * 0.5, cy - r), colour, t)
            _arrow(img, (cx + r, cy - r * 0.2), (cx - r * 0.5, cy + r), colour, t)
        else:
            axes = (round(r), round(r * 0.75))
            ctr = (round(cx), round(cy))
            cv2.ellipse(img, ctr, axes, -30, 200, 340, colour, t, cv2.LINE_AA)
            cv2.ellipse(img, ctr, axes, -30, 20, 160, colour, t, cv2.LINE_AA)
            for ang, turn in ((340, 1), (160, 1)):
                rad = math.radians(ang - 30)
                tip = (cx + r * math.cos(rad), cy + r * 0.75 * math.sin(rad))
                back = math.radians(ang - 30 - 25 * turn)
                tail = (cx + r * 0.95 * math.cos(back), cy + r * 0.7 * math.sin(back))
                _arrow(img, tail, tip, colour, t)
    elif kind == "skip":
        r = round(size * 0.36)
        cv2.circle(img, (round(cx), round(cy)), r, colour, t, cv2.LINE_AA)
        a = math.radians(style.skip_angle)
        dx, dy = r * math.cos(a), r * math.sin(a)
        cv2.line(img, (round(cx - dx), round(cy - dy)), (round(cx + dx), round(cy + dy)), colour, t)
    elif kind == "hit2":
        if style.hit2_design == 0:
            _text(img, "2x", centre, size * 0.55, colour, style, t)
        else:
            cv2.circle(img, (round(cx), round(cy - size * 0.22)), round(size * 0.16), colour, -1)
            _text(img, "x2", (cx, cy + size * 0.22), size * 0.36, colour, style, t)
    elif kind == "discard_all":
        w, h = size * 0.34, size * 0.5
        n = style.stack_count
        for i in range(n):
            off = (i - (n - 1) / 2) * size * 0.12
            p = (round(cx - w / 2 + off), round(cy - h / 2 - off))
            q = (round(cx + w / 2 + off), round(cy + h / 2 - off))
            cv2.rectangle(img, p, q, (250, 250, 250) if small else colour, -1)
            cv2.rectangle(img, p, q, colour if not small else (40, 40, 40), max(1, t // 2))
    elif kind in ("draw2", "draw4"):
        text = "+2" if kind == "draw2" else "+4"
        if kind == "draw4" and not small:
            _wheel(img, centre, size * 0.75, style, style.draw4_design)
            _text(img, text, centre, size * 0.4, (250, 250, 250), style, t)
        else:
            _text(img, text, centre, size * 0.55, colour, style, t)
    elif kind == "wild":
        _wheel(img, centre, size * (0.5 if small else 0.95), style, style.wheel_design)
    elif kind == "coup_extreme":
        n = style.burst_points
        pts = []
        for i in range(2 * n):
            r = size * (0.5 if i % 2 == 0 else 0.26)
            a = math.pi * i / n
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        poly = np.array(pts, np.int32)
        cv2.fillPoly(img, [poly], style.hues["red"], cv2.LINE_AA)
        inner = ((poly - (cx, cy)) * 0.55 + (cx, cy)).astype(np.int32)
        cv2.fillPoly(img, [inner], style.hues["yellow"], cv2.LINE_AA)


def _wheel(img: Image, centre: tuple[float, float], size: float, style: Style, design: int) -> None:
    cx, cy = round(centre[0]), round(centre[1])
    if design == 0:
        axes = (round(size * 0.3), round(size * 0.45))
        for i, name in enumerate(WHEEL):
            cv2.ellipse(img, (cx, cy), axes, 20, i * 90, i * 90 + 90, style.hues[name], -1)
    else:
        d = size * 0.2
        for (dx, dy), name in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), WHEEL, strict=True):
            ctr = (round(cx + dx * d), round(cy + dy * d))
            cv2.ellipse(
                img, ctr, (round(size * 0.17), round(size * 0.24)), 20, 0, 360, style.hues[name], -1
            )


def draw_face(card: Card, style: Style) -> Image:
    """The card face, FACE_H × FACE_W BGR, its white border included (corners square: the scene
    cuts them round)."""
    img = np.full((FACE_H, FACE_W, 3), 246, np.uint8)
    b = round(style.border * FACE_W)
    wild = card.kind in COLOURLESS
    field_colour = (28, 28, 28) if wild else style.hues[card.colour]
    cv2.rectangle(img, (b, b), (FACE_W - b - 1, FACE_H - b - 1), field_colour, -1)
    centre = (FACE_W / 2, FACE_H / 2)
    ink = (250, 250, 250) if wild else field_colour
    if not wild:
        axes = (round(FACE_W * 0.36 * style.oval_size), round(FACE_H * 0.36 * style.oval_size))
        cv2.ellipse(
            img,
            (FACE_W // 2, FACE_H // 2),
            axes,
            style.oval_angle,
            0,
            360,
            (246, 246, 246),
            -1,
            cv2.LINE_AA,
        )
    _symbol(img, card, centre, FACE_W * 0.62, ink, style, small=False)
    index = FACE_W * 0.15 * style.index_size
    corner = b + index * 0.75
    spots = [(corner, corner + index * 0.1)]
    if style.four_corners:
        spots.append((FACE_W - corner, corner + index * 0.1))
    for spot in spots:
        _symbol(img, card, spot, index, (250, 250, 250), style, small=True)
    # The bottom corners are the top ones turned half a turn, as printed.
    bottom = cv2.rotate(img[: FACE_H // 2], cv2.ROTATE_180)
    mask = np.zeros((FACE_H // 2, FACE_W), np.uint8)
    size = round(corner + index)
    mask[:size, :size] = 1
    if style.four_corners:
        mask[:size, FACE_W - size :] = 1
    bottom_mask = cv2.rotate(mask, cv2.ROTATE_180)
    lower = img[FACE_H - FACE_H // 2 :]
    lower[bottom_mask == 1] = bottom[bottom_mask == 1]
    return img


# ---------------------------------------------------------------- scenes


@dataclass(frozen=True)
class Lighting:
    """A lamp: colour gains, brightness, a gradient across the frame, an optional glare spot."""

    lamp: str = "neutral"
    brightness: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    glare: tuple[float, float, float, float] | None = None  # x, y, radius, strength


@dataclass(frozen=True)
class Camera:
    blur: float = 0.0
    noise: float = 0.0
    jpeg: int = 90
    tilt: tuple[float, ...] = (0.0,) * 8  # corner offsets, pixels


@dataclass(frozen=True)
class Placed:
    """A card lying on the table: face, centre (pixels), angle (degrees), length (pixels)."""

    card: Card
    style: Style
    x: float
    y: float
    angle: float
    length: float


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from ``edge``: the fingertips at (x, y); it may hold a card."""

    x: float
    y: float
    edge: str = "bottom"
    tone: tuple[int, int, int] = (120, 160, 215)
    holding: Placed | None = None


@dataclass(frozen=True)
class Table:
    kind: str
    seed: int
    tone: float = 1.0


def table_texture(table: Table) -> Floats:
    """The bare table, float32 BGR (drawn at half size: wood grain and cloth are smooth)."""
    rng = np.random.default_rng(table.seed)
    h, w = FRAME_H // 2, FRAME_W // 2
    img: Floats
    if table.kind == "wood":
        base = np.array(rng.choice([[40, 75, 120], [30, 55, 90], [60, 100, 150]]), np.float32)
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        wobble = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h)) * 9
        grain = np.sin((y + wobble + x * 0.05) * rng.uniform(0.3, 0.7)) * 0.5 + 0.5
        shade = 0.8 + 0.25 * grain
        img = shade[..., None] * base[None, None, :]
    elif table.kind == "felt":
        base = np.array(rng.choice([[50, 110, 30], [100, 60, 20], [40, 40, 110]]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    else:
        a = np.array(rng.choice([[110, 70, 40], [50, 50, 140], [60, 110, 60]]), np.float32)
        bcol = a * 0.45 + 50
        period = int(rng.integers(8, 20))
        yy, xx = np.mgrid[0:h, 0:w]
        check = (((yy // period) + (xx // period)) % 2).astype(np.float32)[..., None]
        img = check * a + (1 - check) * bcol
    img = cv2.resize(img.astype(np.float32) * table.tone, (FRAME_W, FRAME_H))
    img += _grain(rng) * 5
    return img


_GRAIN: list[Floats] = []


def _grain(rng: np.random.Generator) -> Floats:
    """Unit Gaussian noise the size of a frame: one field drawn once, shifted at random."""
    if not _GRAIN:
        _GRAIN.append(
            np.random.default_rng(0).standard_normal((FRAME_H * 2, FRAME_W, 3), dtype=np.float32)
        )
    start = int(rng.integers(0, FRAME_H))
    return _GRAIN[0][start : start + FRAME_H]


def card_corners(p: Placed) -> np.ndarray:
    w = p.length * FACE_W / FACE_H
    a = math.radians(p.angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -math.sin(a), math.cos(a)
    pts = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        pts.append(
            (
                p.x + sx * w / 2 * ux + sy * p.length / 2 * vx,
                p.y + sx * w / 2 * uy + sy * p.length / 2 * vy,
            )
        )
    return np.array(pts, np.float32)


_MASK_CACHE: dict[int, Image] = {}


def _face_mask() -> Image:
    mask = _MASK_CACHE.get(0)
    if mask is None:
        mask = np.zeros((FACE_H, FACE_W), np.uint8)
        r = 14
        cv2.rectangle(mask, (r, 0), (FACE_W - r - 1, FACE_H - 1), 255, -1)
        cv2.rectangle(mask, (0, r), (FACE_W - 1, FACE_H - r - 1), 255, -1)
        for cx, cy in (
            (r, r),
            (FACE_W - r - 1, r),
            (r, FACE_H - r - 1),
            (FACE_W - r - 1, FACE_H - r - 1),
        ):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
        _MASK_CACHE[0] = mask
    return mask


class FaceCache:
    """Faces drawn once per (card, style) while a scene set is made."""

    def __init__(self) -> None:
        self._faces: dict[tuple[Card, int], Image] = {}

    def face(self, card: Card, style: Style) -> Image:
        key = (card, id(style))
        if key not in self._faces:
            self._faces[key] = draw_face(card, style)
        return self._faces[key]

    def put(self, card: Card, style: Style, face: Image) -> None:
        """Lays ``face`` wherever ``card`` of ``style`` is drawn (a card of another deck)."""
        self._faces[(card, id(style))] = face


def _lay(canvas: Floats, p: Placed, faces_: FaceCache, shadow: float) -> None:
    """Lays the card on ``canvas`` (in place), working only on the box around it."""
    src = np.array([(0, 0), (FACE_W, 0), (FACE_W, FACE_H), (0, FACE_H)], np.float32)
    dst = card_corners(p)
    x0 = max(0, int(dst[:, 0].min()) - 16)
    y0 = max(0, int(dst[:, 1].min()) - 16)
    x1 = min(FRAME_W, int(dst[:, 0].max()) + 24)
    y1 = min(FRAME_H, int(dst[:, 1].max()) + 24)
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    roi = canvas[y0:y1, x0:x1]
    mask = cv2.warpPerspective(_face_mask(), m, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    mask /= 255.0
    if shadow > 0:
        shifted = np.zeros_like(mask)
        shifted[4:, 5:] = mask[:-4, :-5]
        soft = cv2.GaussianBlur(shifted, (0, 0), 4)
        roi *= (1 - shadow * soft)[..., None]
    face = cv2.warpPerspective(faces_.face(p.card, p.style), m, size, flags=cv2.INTER_LINEAR)
    roi *= (1 - mask)[..., None]
    roi += face.astype(np.float32) * mask[..., None]


def hand_mask(hand: Hand) -> Image:
    """Where the hand (palm, fingers, arm to the frame's edge) covers the frame: 255."""
    mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
    x, y = round(hand.x), round(hand.y)
    dx, dy = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[hand.edge]
    palm = (x + dx * 55, y + dy * 55)
    far = (x + dx * 900, y + dy * 900)
    cv2.line(mask, palm, far, 255, 70)
    cv2.ellipse(mask, palm, (48, 48), 0, 0, 360, 255, -1)
    for i in range(4):
        off = (i - 1.5) * 22
        base = (round(palm[0] + dy * off), round(palm[1] + dx * off))
        tip = (round(x + dy * off - dx * 10 * (i % 2)), round(y + dx * off - dy * 10 * (i % 2)))
        cv2.line(mask, base, tip, 255, 17)
    return mask


def _hand(canvas: Floats, hand: Hand, faces_: FaceCache) -> None:
    if hand.holding is not None:
        _lay(canvas, replace(hand.holding, x=hand.x, y=hand.y), faces_, 0.25)
    mask = hand_mask(hand)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32) / 255
    # The shadow is soft: drawn at a quarter of the size.
    quarter = cv2.resize(np.roll(mask, (12, 16), axis=(0, 1)), (FRAME_W // 4, FRAME_H // 4))
    shadow = cv2.resize(cv2.GaussianBlur(quarter, (0, 0), 2.2), (FRAME_W, FRAME_H))
    canvas *= (1 - (0.45 / 255) * shadow.astype(np.float32))[..., None]
    tone = np.array(hand.tone, np.float32)
    canvas *= (1 - soft)[..., None]
    canvas += soft[..., None] * tone


@dataclass(frozen=True)
class Scene:
    table: Table
    pile: tuple[Placed, ...]  # bottom first; the last is the top card
    light: Lighting = Lighting()
    camera: Camera = Camera()
    hand: Hand | None = None


def draw_pile(table: Table, pile: tuple[Placed, ...], faces_: FaceCache) -> Floats:
    """The table and the pile, lit evenly (float32 BGR)."""
    canvas = table_texture(table)
    for placed in pile:
        _lay(canvas, placed, faces_, 0.35)
    return canvas


def draw_scene(
    scene: Scene,
    faces_: FaceCache,
    *,
    encode: bool = True,
    pile: Floats | None = None,
    shot: int = 0,
) -> Image:
    """The camera's frame of ``scene``, BGR 640 × 480 (JPEG-decoded when ``encode``);
    ``pile`` is :func:`draw_pile` of the scene's table and pile, when already drawn; ``shot``
    numbers the frames of a film (each has its own sensor noise)."""
    base = draw_pile(scene.table, scene.pile, faces_) if pile is None else pile
    canvas = base.copy()
    if scene.hand is not None:
        _hand(canvas, scene.hand, faces_)
    light = scene.light
    gains = np.array(LAMPS[light.lamp], np.float32) * light.brightness
    gx, gy = light.gradient
    ramp_x = np.linspace(-gx, gx, FRAME_W, dtype=np.float32)[None, :]
    ramp_y = np.linspace(-gy, gy, FRAME_H, dtype=np.float32)[:, None]
    canvas *= (1 + ramp_x + ramp_y)[..., None] * gains
    if light.glare is not None:
        x, y, r, strength = light.glare
        spot: Floats = np.zeros((FRAME_H // 4, FRAME_W // 4), np.float32)
        axes = (max(1, round(r / 4)), max(1, round(r * 0.6 / 4)))
        cv2.ellipse(spot, (round(x / 4), round(y / 4)), axes, 30, 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), r * 0.35 / 4)
        spot = cv2.resize(spot, (FRAME_W, FRAME_H))
        canvas += (strength * 255 * spot)[..., None]
    cam = scene.camera
    if cam.noise > 0:
        rng = np.random.default_rng(shot + int(canvas[0, 0, 0] * 1000) % 2**31)
        canvas += _grain(rng) * cam.noise
    frame: Image = np.clip(canvas, 0, 255).astype(np.uint8)
    if any(cam.tilt):
        src = np.array([(0, 0), (FRAME_W, 0), (FRAME_W, FRAME_H), (0, FRAME_H)], np.float32)
        dst = src + np.array(cam.tilt, np.float32).reshape(4, 2)
        m = cv2.getPerspectiveTransform(src, dst)
        frame = cv2.warpPerspective(frame, m, (FRAME_W, FRAME_H), borderMode=cv2.BORDER_REFLECT)
    if cam.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), cam.blur)
    if encode:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None  # OpenCV's own JPEG
        frame = decoded
    return frame


# ---------------------------------------------------------------- random scenes


def random_conditions(rng: np.random.Generator) -> tuple[Table, Lighting, Camera]:
    table = Table(str(rng.choice(TABLES)), int(rng.integers(1 << 30)), float(rng.uniform(0.7, 1.1)))
    glare = None
    if rng.random() < 0.3:
        glare = (
            float(rng.uniform(200, 440)),
            float(rng.uniform(150, 330)),
            float(rng.uniform(15, 35)),
            float(rng.uniform(0.3, 0.6)),
        )
    light = Lighting(
        lamp=str(rng.choice(list(LAMPS))),
        brightness=float(rng.uniform(0.7, 1.15)),
        gradient=(float(rng.uniform(-0.15, 0.15)), float(rng.uniform(-0.15, 0.15))),
        glare=glare,
    )
    tilt = tuple(float(v) for v in rng.uniform(-18, 18, 8)) if rng.random() < 0.6 else (0.0,) * 8
    camera = Camera(
        blur=float(rng.uniform(0, 1.2)),
        noise=float(rng.uniform(0, 6)),
        jpeg=int(rng.integers(50, 95)),
        tilt=tilt,
    )
    return table, light, camera


def random_pile(
    rng: np.random.Generator,
    top: Card,
    style: Style,
    deck: tuple[Card, ...],
    *,
    under: int | None = None,
) -> tuple[Placed, ...]:
    length = float(rng.uniform(150, 210))
    cx = float(rng.uniform(FRAME_W / 2 - 60, FRAME_W / 2 + 60))
    cy = float(rng.uniform(FRAME_H / 2 - 30, FRAME_H / 2 + 30))
    count = int(rng.integers(0, 5)) if under is None else under
    pile = []
    for _ in range(count):
        card = deck[int(rng.integers(len(deck)))]
        pile.append(
            Placed(
                card,
                style,
                cx + float(rng.uniform(-0.45, 0.45)) * length,
                cy + float(rng.uniform(-0.35, 0.35)) * length,
                float(rng.uniform(0, 360)),
                length,
            )
        )
    pile.append(Placed(top, style, cx, cy, float(rng.uniform(0, 360)), length))
    return tuple(pile)


def random_still(
    rng: np.random.Generator, top: Card, style: Style, deck: tuple[Card, ...]
) -> Scene:
    """A still of a pile topped by ``top``; a hand sometimes rests at the frame's edge."""
    table, light, camera = random_conditions(rng)
    hand = None
    if rng.random() < 0.25:
        edge = str(rng.choice(["bottom", "left", "right"]))
        x = {"left": 40.0, "right": FRAME_W - 40.0}.get(edge, float(rng.uniform(80, FRAME_W - 80)))
        y = FRAME_H - 30.0 if edge == "bottom" else float(rng.uniform(60, FRAME_H - 60))
        hand = Hand(x, y, edge, tone=_skin(rng))
    return Scene(table, random_pile(rng, top, style, deck), light, camera, hand)


def _skin(rng: np.random.Generator) -> tuple[int, int, int]:
    base = np.array(rng.choice([[120, 160, 215], [90, 130, 190], [60, 90, 140], [40, 60, 95]]))
    return tuple(int(v) for v in np.clip(base + rng.integers(-15, 16, 3), 0, 255))  # type: ignore[return-value]


@dataclass(frozen=True)
class Still:
    image: Image
    card: Card


def still_set(count: int, seed: int, styles_: list[Style], deck: tuple[Card, ...]) -> list[Still]:
    """``count`` stills, each face of ``deck`` in turn, styles taken in turn."""
    rng = np.random.default_rng(seed)
    cache = FaceCache()
    out = []
    for i in range(count):
        card = deck[int(rng.integers(len(deck)))] if i >= len(deck) else deck[i]
        style = styles_[i % len(styles_)]
        out.append(Still(draw_scene(random_still(rng, card, style, deck), cache), card))
    return out


# ---------------------------------------------------------------- sequences


@dataclass(frozen=True)
class Frame:
    t_ms: int
    image: Image


@dataclass(frozen=True)
class Play:
    """A card laid on the pile, and when the hand that laid it left the picture."""

    card: Card
    hand_left_ms: int


@dataclass
class Sequence:
    frames: list[Frame]
    plays: list[Play]

    def save(self, folder: Path) -> None:
        """``folder/frames.json`` and one JPEG a frame (the watcher's folder format, marked
        ``"drawn": true``: read with the drawings' model), and ``truth.json`` with the plays."""
        folder.mkdir(parents=True, exist_ok=True)
        listing = []
        for i, frame in enumerate(self.frames):
            name = f"frame_{i:05d}.jpg"
            cv2.imwrite(str(folder / name), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            listing.append({"file": name, "t_ms": frame.t_ms})
        (folder / "frames.json").write_text(
            json.dumps({"frames": listing, "drawn": True}), encoding="utf-8"
        )
        truth = [
            {"kind": p.card.kind, "colour": p.card.colour, "hand_left_ms": p.hand_left_ms}
            for p in self.plays
        ]
        (folder / "truth.json").write_text(json.dumps({"plays": truth}), encoding="utf-8")


def _path(
    start: tuple[float, float], end: tuple[float, float], steps: int
) -> list[tuple[float, float]]:
    return [
        (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        for k in range(1, steps + 1)
    ]


# The plays a watcher finds hardest, each in every film of :data:`HARD_PLAYS` plays or more: the
# same symbol in another colour laid nearly where the last card lies, the same card laid again
# a little aside, a card laid askew over the last one, and a card laid just after the lamp
# changed. They are drawn from their own random stream: a film without them is unchanged.
HARD_PLAYS = ("other_colour", "again", "askew", "after_lamp")
TRICKS_SEED = 7919


def _hard_plan(
    tricks: np.random.Generator, plays: int, scripted: bool, lamps: int
) -> dict[int, str]:
    """Which play is laid which hard way (a scripted film's cards are its script's: only where
    and when they are laid is chosen)."""
    modes = [m for m in HARD_PLAYS if not scripted or m in ("askew", "after_lamp")]
    modes = [m for m in modes if m != "after_lamp" or lamps]
    if plays < len(modes):
        return {}
    chosen = tricks.choice(plays, size=len(modes), replace=False)
    return {int(i): mode for i, mode in zip(chosen, modes, strict=True)}


def _hard_card(
    mode: str, card: Card, below: Card, deck: tuple[Card, ...], tricks: np.random.Generator
) -> Card:
    if mode == "again":
        return below
    others = [c for c in deck if c.kind == below.kind and c.colour not in ("", below.colour)]
    if mode == "other_colour" and others:
        return others[int(tricks.integers(len(others)))]
    return card


def _hard_place(mode: str, laid: Placed, below: Placed, tricks: np.random.Generator) -> Placed:
    """Where a hard play lies: the same symbol in another colour nearly where the last card
    lies, the same card again a little aside and turned, an askew card half across it."""
    turn = float(tricks.choice([-1.0, 1.0]))
    if laid.card.kind == below.card.kind and laid.card != below.card:
        shift, angle = 1.0, float(tricks.uniform(-1, 1))
    elif laid.card == below.card:
        shift, angle = 22.0, turn * float(tricks.uniform(12, 25))
    elif mode == "askew":
        shift, angle = 30.0, turn * float(tricks.uniform(30, 60))
    else:
        return laid
    dx, dy = (float(v) * shift for v in tricks.uniform(-1, 1, 2))
    return replace(laid, x=below.x + dx, y=below.y + dy, angle=below.angle + angle)


def sequence(
    seed: int,
    style: Style,
    deck: tuple[Card, ...],
    *,
    plays: int = 3,
    passes: int = 1,
    lamp_changes: int = 1,
    rests: int = 0,
    cards: tuple[Card, ...] = (),
    start: Card | None = None,
    hard: bool | None = None,
) -> Sequence:
    """A stretch of play filmed at :data:`FPS`: ``plays`` cards laid (each may follow the one
    below by the rules), ``passes`` hands passing over without laying anything, ``rests`` hands
    resting still over the pile for a second or so, and ``lamp_changes`` times the room light
    changes. Every frame is JPEG-decoded. With ``hard`` (the default for four plays or more,
    unless ``cards`` are given) the film holds each of :data:`HARD_PLAYS`.

    ``cards`` lays exactly those cards in that order instead (a scripted evening, filmed), on a
    pile that starts with ``start`` on top (else a card of ``deck``)."""
    rng = np.random.default_rng(seed)
    tricks = np.random.default_rng(seed + TRICKS_SEED)
    count = len(cards) if cards else plays
    hard = (not cards and plays >= len(HARD_PLAYS)) if hard is None else hard
    plan = _hard_plan(tricks, count, bool(cards), lamp_changes) if hard else {}
    table, light, camera = random_conditions(rng)
    light = replace(light, glare=None)
    cache = FaceCache()
    to_lay = list(cards)
    plays = len(to_lay) if to_lay else plays
    top = start if start is not None else deck[int(rng.integers(len(deck)))]
    pile = list(random_pile(rng, top, style, deck, under=int(rng.integers(1, 4))))
    frames: list[Frame] = []
    truth: list[Play] = []
    t = 0

    drawn: dict[tuple[Placed, ...], Floats] = {}

    def shoot(hand: Hand | None, steps: int) -> None:
        nonlocal t
        key = tuple(pile)
        if key not in drawn:
            drawn.clear()
            drawn[key] = draw_pile(table, key, cache)
        for _ in range(steps):
            scene = Scene(table, key, light, camera, hand)
            frames.append(Frame(t, draw_scene(scene, cache, pile=drawn[key], shot=t + 1)))
            t += 1000 // FPS

    shoot(None, int(rng.integers(4, 8)))
    events = ["play"] * plays + ["pass"] * passes + ["lamp"] * lamp_changes + ["rest"] * rests
    rng.shuffle(events)
    after_lamp = [i for i, mode in plan.items() if mode == "after_lamp"]
    if after_lamp:  # the first lamp change comes just before that play
        events.remove("lamp")
        at = [i for i, e in enumerate(events) if e == "play"][after_lamp[0]]
        events.insert(at, "lamp")
    played = 0
    for event in events:
        if event == "lamp":
            light = replace(
                light,
                lamp=str(rng.choice([k for k in LAMPS if k != light.lamp])),
                brightness=float(np.clip(light.brightness * rng.uniform(0.8, 1.2), 0.7, 1.15)),
            )
            shoot(None, int(rng.integers(5, 9)))
            continue
        edge = str(rng.choice(["bottom", "left", "right", "top"]))
        outside = {
            "bottom": (FRAME_W / 2 + rng.uniform(-150, 150), FRAME_H + 160),
            "top": (FRAME_W / 2 + rng.uniform(-150, 150), -160),
            "left": (-160, FRAME_H / 2 + rng.uniform(-100, 100)),
            "right": (FRAME_W + 160, FRAME_H / 2 + rng.uniform(-100, 100)),
        }[edge]
        below = pile[-1]
        aim = (below.x + rng.uniform(-30, 30), below.y + rng.uniform(-25, 25))
        tone = _skin(rng)
        steps_in, steps_out = int(rng.integers(3, 6)), int(rng.integers(3, 6))
        if event in ("pass", "rest"):
            over = (aim[0] + rng.uniform(-40, 40), aim[1] + rng.uniform(-40, 40))
            for x, y in _path((float(outside[0]), float(outside[1])), over, steps_in):
                shoot(Hand(x, y, edge, tone), 1)
            if event == "rest":  # the hand stays over the pile, hiding the top card
                shoot(Hand(over[0], over[1], edge, tone), int(rng.integers(8, 15)))
            for x, y in _path(over, (float(outside[0]), float(outside[1])), steps_out):
                shoot(Hand(x, y, edge, tone), 1)
            shoot(None, int(rng.integers(6, 10)))
            continue
        candidates = [c for c in deck if may_follow(below.card, c) and c != below.card]
        card = to_lay.pop(0) if to_lay else candidates[int(rng.integers(len(candidates)))]
        laid = Placed(card, style, aim[0], aim[1], float(rng.uniform(0, 360)), below.length)
        if hard:
            mode = plan.get(played, "")
            if not cards:
                laid = replace(laid, card=_hard_card(mode, card, below.card, deck, tricks))
            laid = _hard_place(mode, laid, below, tricks)
            card, aim = laid.card, (laid.x, laid.y)
        played += 1
        for x, y in _path((float(outside[0]), float(outside[1])), aim, steps_in):
            shoot(Hand(x, y, edge, tone, holding=laid), 1)
        pile.append(laid)
        pile[:] = pile[-5:]
        shoot(Hand(aim[0], aim[1], edge, tone), 1)
        left = -1
        for x, y in _path(aim, (float(outside[0]), float(outside[1])), steps_out):
            hand = Hand(x, y, edge, tone)
            if left < 0 and not hand_mask(hand).any():
                left = t
            shoot(hand, 1)
        truth.append(Play(card, left if left >= 0 else t))
        shoot(None, int(rng.integers(8, 13)))
    return Sequence(frames, truth)
