"""The score chart: running totals over rounds, drawn as a small SVG on the server.

No chart library and nothing from a CDN: a few lines, one per player, with the round numbers
along the bottom and the totals up the side. Colours come from a palette readable on both the
dark and the light page; each line also ends with the player's name so colour is not the only
cue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from xml.sax.saxutils import escape

PALETTE = ("#f5c518", "#4fc3f7", "#ef5350", "#66bb6a", "#ba68c8", "#ff8a65", "#90a4ae", "#f06292")
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 70, 12, 28


def running_totals(players: Sequence[str], rounds: Sequence[Mapping[str, int]]) -> list[list[int]]:
    """``totals[i][p]``: the total of ``players[p]`` after round ``i`` (starting from 0)."""
    totals = [[0] * len(players)]
    for points in rounds:
        last = totals[-1]
        totals.append([last[p] + int(points.get(name, 0)) for p, name in enumerate(players)])
    return totals


def totals_svg(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    title: str,
    empty_text: str,
    target: int | None = None,
) -> str:
    """An SVG image of the running totals; ``rounds[i]`` maps each player to round i's points."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title, {chr(34): "&quot;"})}" '
        'font-family="sans-serif" font-size="11">'
        f"<title>{escape(title)}</title>"
    )
    if not players or not rounds:
        return (
            f'{head}<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle" '
            f'fill="currentColor">{escape(empty_text)}</text></svg>'
        )
    totals = running_totals(players, rounds)
    top_value = max([1, *(max(row) for row in totals), *([target] if target else [])])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = len(totals) - 1

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(steps, 1)

    def y(v: int) -> float:
        return TOP + plot_h * (1 - v / top_value)

    parts = [head]
    # Axes and grid: four horizontal lines with their totals.
    for k in range(5):
        value = round(top_value * k / 4)
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="currentColor" stroke-opacity="0.2"/>'
            f'<text x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end" '
            f'fill="currentColor">{value}</text>'
        )
    label_every = max(1, steps // 10)
    for i in range(0, steps + 1, label_every):
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle" '
            f'fill="currentColor">{i}</text>'
        )
    if target:
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
            'stroke="currentColor" stroke-dasharray="4 3"/>'
        )
    label_y = _spread([y(totals[-1][p]) for p in range(len(players))], gap=12.0)
    for p, name in enumerate(players):
        colour = PALETTE[p % len(PALETTE)]
        points = " ".join(f"{x(i):.1f},{y(row[p]):.1f}" for i, row in enumerate(totals))
        end_y = label_y[p]
        parts.append(
            f'<polyline class="series" data-player="{escape(name, {chr(34): "&quot;"})}" '
            f'points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
            'stroke-linejoin="round"/>'
            f'<text x="{LEFT + plot_w + 4}" y="{end_y + 4:.1f}" fill="{colour}">'
            f"{escape(name[:10])} {totals[-1][p]}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _spread(positions: Sequence[float], gap: float) -> list[float]:
    """Move label positions apart so no two are closer than ``gap`` (keeps their order)."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = list(positions)
    for before, after in pairwise(order):
        placed[after] = max(placed[after], placed[before] + gap)
    return placed
