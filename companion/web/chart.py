"""The score chart: running totals over rounds, drawn as a small SVG on the server.

No chart library and nothing from a CDN: one line per party, the round numbers along the bottom,
the totals up the side, the target as a dashed line, and a legend below with each party's rank,
total and the points left before the target. The SVG carries its own light and dark styles
(``prefers-color-scheme``), since an ``<img>`` does not inherit the page's colours. Colour is never
the only cue: each line also has its own dash pattern and point marker shape, so tied lines
drawn on top of each other stay apart, and the legend names everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

# Okabe-Ito colours (readable with the common colour-vision deficiencies), each given as
# (on a light page, on a dark page). The page uses the same palette for the players' colours.
PALETTE = (
    ("#0072b2", "#56b4e9"),  # blue / sky blue
    ("#d55e00", "#ff8c42"),  # vermilion
    ("#009e73", "#3fd4a5"),  # bluish green
    ("#cc79a7", "#e9a3c9"),  # reddish purple
    ("#a07800", "#f0e442"),  # yellow (darker on light)
    ("#6b4fa0", "#b89cf0"),  # violet
    ("#3a3a3a", "#e0e0e0"),  # ink
    ("#8a5a00", "#e69f00"),  # orange
)
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 4", "6 2 2 2")
WIDTH, PLOT_HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 24
LEGEND_ROW = 18
# A long game's line is drawn through at most this many of its rounds (about one per pixel
# across), and this many of them carry a marker: the picture stays small whatever the length.
MAX_POINTS, MAX_MARKERS = 300, 40


def running_totals(players: Sequence[str], rounds: Sequence[Mapping[str, int]]) -> list[list[int]]:
    """``totals[i][p]``: the total of ``players[p]`` after round ``i`` (starting from 0)."""
    totals = [[0] * len(players)]
    for points in rounds:
        last = totals[-1]
        totals.append([last[p] + int(points.get(name, 0)) for p, name in enumerate(players)])
    return totals


def _style() -> str:
    light = "".join(f".s{i}{{stroke:{c[0]}}}.f{i}{{fill:{c[0]}}}" for i, c in enumerate(PALETTE))
    dark = "".join(f".s{i}{{stroke:{c[1]}}}.f{i}{{fill:{c[1]}}}" for i, c in enumerate(PALETTE))
    return (
        "<style>"
        ".ink{fill:#1a1a1a}.grid{stroke:#1a1a1a;stroke-opacity:.18}.goal{stroke:#1a1a1a}"
        f".line{{fill:none;stroke-width:2.5;stroke-linejoin:round}}{light}"
        "@media (prefers-color-scheme: dark){.ink{fill:#f1f1f1}.grid{stroke:#f1f1f1}"
        f".goal{{stroke:#f1f1f1}}{dark}}}"
        "</style>"
    )


def _marker(kind: int, x: float, y: float, cls: str) -> str:
    """A small point marker whose shape tells the line apart (circle, square, diamond, triangle)."""
    shape = kind % 4
    if shape == 0:
        return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>'
    if shape == 1:
        return f'<rect class="{cls}" x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6"/>'
    if shape == 2:
        return f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f}l4 4-4 4-4-4z"/>'
    return f'<path class="{cls}" d="M{x:.1f} {y - 4:.1f}l4 7h-8z"/>'


def totals_svg(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    title: str,
    empty_text: str,
    target: int | None = None,
    to_go: str = "{points}",
    colours: Mapping[str, int] | None = None,
) -> str:
    """An SVG image of the running totals; ``rounds[i]`` maps each party to round i's points.

    ``to_go`` is the legend's text for the points left before the target (``{points}``);
    ``colours`` maps a party to its palette index (default: its place in ``players``)."""
    rows = len(players)
    height = TOP + PLOT_HEIGHT + BOTTOM + LEGEND_ROW * rows + 6
    quoted = escape(title, {'"': "&quot;"})
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{quoted}" '
        f'font-family="sans-serif" font-size="12"><title>{escape(title)}</title>{_style()}'
    )
    if not players or not rounds:
        return (
            f'{head}<text class="ink" x="{WIDTH / 2}" y="{PLOT_HEIGHT / 2}" '
            f'text-anchor="middle">{escape(empty_text)}</text></svg>'
        )
    totals = running_totals(players, rounds)
    top_value = max([1, *(max(row) for row in totals), *([target] if target else [])])
    plot_w = WIDTH - LEFT - RIGHT
    steps = len(totals) - 1

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(steps, 1)

    def y(v: int) -> float:
        return TOP + PLOT_HEIGHT * (1 - v / top_value)

    parts = [head]
    for k in range(5):
        value = round(top_value * k / 4)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}"/><text class="ink" x="{LEFT - 4}" y="{y(value) + 4:.1f}" '
            f'text-anchor="end">{value}</text>'
        )
    label_every = max(1, steps // 10)
    for i in range(0, steps + 1, label_every):
        parts.append(
            f'<text class="ink" x="{x(i):.1f}" y="{TOP + PLOT_HEIGHT + 16}" '
            f'text-anchor="middle">{i}</text>'
        )
    if target:
        parts.append(
            f'<line class="goal" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(target):.1f}" '
            f'y2="{y(target):.1f}" stroke-dasharray="4 3"/>'
        )
    final = totals[-1]
    order = sorted(range(rows), key=lambda p: -final[p])
    drawn = _spread(steps, MAX_POINTS)
    marked = _spread(steps, MAX_MARKERS)
    indexes = palette_indexes(players, colours or {})
    for p, name in enumerate(players):
        index = indexes[p]
        points = " ".join(f"{x(i):.1f},{y(totals[i][p]):.1f}" for i in drawn)
        quoted_name = escape(name, {'"': "&quot;"})
        parts.append(
            f'<polyline class="line s{index}" data-player="{quoted_name}" points="{points}"'
            f"{_dash(p)}/>"
        )
        parts.extend(_marker(p, x(i), y(totals[i][p]), f"f{index}") for i in marked)
    legend_top = TOP + PLOT_HEIGHT + BOTTOM + 4
    for place, p in enumerate(order):
        index = (colours or {}).get(players[p], p) % len(PALETTE)
        rank = 1 + sum(1 for q in range(rows) if final[q] > final[p])
        row_y = legend_top + place * LEGEND_ROW
        remaining = target - final[p] if target else 0
        left = f" · {escape(to_go.format(points=remaining))}" if remaining > 0 else ""
        parts.append(
            f'<line class="line s{index}" x1="{LEFT - 30}" x2="{LEFT - 6}" y1="{row_y + 8}" '
            f'y2="{row_y + 8}"{_dash(p)}/>{_marker(p, LEFT - 18, row_y + 8, f"f{index}")}'
            f'<text class="ink" x="{LEFT}" y="{row_y + 12}">{rank}. '
            f"{escape(players[p][:24])} — {final[p]}{left}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _spread(steps: int, most: int) -> list[int]:
    """The indices 0..steps, or ``most`` of them evenly spread (first and last included)."""
    if steps < most:
        return list(range(steps + 1))
    return sorted({round(k * steps / (most - 1)) for k in range(most)})


def _dash(p: int) -> str:
    dash = DASHES[p % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def palette_indexes(players: Sequence[str], chosen: Mapping[str, int]) -> list[int]:
    """Each line's colour: the one chosen at setup, else the least used one so far (a team's
    line, a player nobody gave a colour), as the page's ``colourOf`` does: no two lines share
    a colour while the palette has one free."""
    used = [0] * len(PALETTE)
    for name in players:
        if name in chosen:
            used[chosen[name] % len(PALETTE)] += 1
    indexes = []
    for name in players:
        if name in chosen:
            indexes.append(chosen[name] % len(PALETTE))
            continue
        free = used.index(min(used))
        used[free] += 1
        indexes.append(free)
    return indexes
