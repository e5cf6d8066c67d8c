"""Render the launcher's OpenSCAD parts and read back what they say.

- :func:`render_parts` turns every ``hardware/parts/*.scad`` into an STL, in parallel, cached by
  a hash of the parts' ``.scad`` sources (``build/hardware/<hash>/``), so an unchanged model is not
  rendered twice.
- :func:`fit_values` reads the dimensions ``hardware/fit.scad`` echoes (``FIT name=value``).
- :class:`Mesh` parses an STL and answers the questions the fit tests ask: is it one closed
  solid, how big is it, where along a line is there material.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import shutil
import struct
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HARDWARE = Path(__file__).resolve().parents[1]
PARTS_DIR = HARDWARE / "parts"
ASSEMBLY = HARDWARE / "assembly.scad"
FIT = HARDWARE / "fit.scad"
BUILD = HARDWARE.parent / "build" / "hardware"

Vec = tuple[float, float, float]


class RenderError(RuntimeError):
    """OpenSCAD failed or warned: the message carries its output."""


def openscad() -> str:
    found = shutil.which("openscad")
    if found is None:
        raise RenderError("openscad is not installed (Debian: apt install openscad)")
    return found


def part_names() -> list[str]:
    return sorted(p.stem for p in PARTS_DIR.glob("*.scad"))


def source_digest() -> str:
    """A hash of the parts' .scad files (parts/ and parts/lib/) and of the OpenSCAD version."""
    digest = hashlib.sha256()
    for path in sorted(PARTS_DIR.rglob("*.scad")):
        digest.update(path.relative_to(HARDWARE).as_posix().encode())
        digest.update(path.read_bytes())
    version = subprocess.run([openscad(), "--version"], capture_output=True, text=True)
    digest.update((version.stdout + version.stderr).encode())
    return digest.hexdigest()[:16]


def run_openscad(source: Path, output: Path, *args: str, display: bool = False) -> str:
    """Run OpenSCAD once; raise :class:`RenderError` on failure or on any warning."""
    command = [openscad(), "-o", str(output), *args, str(source)]
    if display and not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            raise RenderError("PNG export needs a display: install xvfb (xvfb-run)")
        command = [xvfb, "-a", *command]
    done = subprocess.run(command, capture_output=True, text=True)
    log = done.stdout + done.stderr
    problems = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    if done.returncode != 0 or problems or not output.exists():
        raise RenderError(f"{source.name}: openscad failed\n" + "\n".join(problems or [log]))
    return log


def render_parts(names: Iterable[str] | None = None, jobs: int | None = None) -> dict[str, Path]:
    """STL of each part (all by default), rendered in parallel or taken from the cache."""
    wanted = list(names) if names is not None else part_names()
    folder = BUILD / source_digest()
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / f"{name}.stl" for name in wanted}

    def one(name: str) -> None:
        target = paths[name]
        if target.exists():
            return
        partial = target.with_suffix(f".{os.getpid()}.tmp.stl")
        run_openscad(PARTS_DIR / f"{name}.scad", partial)
        partial.replace(target)  # atomic: a killed run never leaves half an STL in the cache

    # One renderer at a time per cache folder: a second process (pytest -n 2) waits, then finds
    # the STLs made, instead of rendering them all again on the same cores.
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
            list(pool.map(one, wanted))
    return paths


def fit_values(source: Path = FIT, **overrides: float) -> dict[str, Any]:
    """The ``FIT name=value`` lines OpenSCAD echoes, values decoded as JSON. ``overrides`` set
    top-level values of ``dims.scad`` (``-D name=value``): everything computed from them follows."""
    BUILD.mkdir(parents=True, exist_ok=True)
    target = BUILD / f"{source.stem}.{os.getpid()}.echo"  # one per test process
    settings = [arg for name, value in overrides.items() for arg in ("-D", f"{name}={value}")]
    run_openscad(source, target, *settings)
    values: dict[str, Any] = {}
    lines = target.read_text().splitlines()
    target.unlink()
    for line in lines:
        if line.startswith('ECHO: "FIT '):
            name, _, value = line[len('ECHO: "FIT ') : -1].partition("=")
            values[name] = json.loads(value)
    return values


@dataclass(frozen=True)
class Mesh:
    """A triangle mesh (from an STL file)."""

    triangles: tuple[tuple[Vec, Vec, Vec], ...]

    @classmethod
    def read(cls, path: Path) -> Mesh:
        data = path.read_bytes()
        if data[:5] == b"solid" and b"facet" in data[:300]:
            return cls._read_ascii(data.decode())
        return cls._read_binary(data)

    @classmethod
    def _read_ascii(cls, text: str) -> Mesh:
        vertices = [
            (float(p[1]), float(p[2]), float(p[3]))
            for p in (line.split() for line in text.splitlines())
            if p and p[0] == "vertex"
        ]
        return cls(tuple(zip(vertices[0::3], vertices[1::3], vertices[2::3], strict=True)))

    @classmethod
    def _read_binary(cls, data: bytes) -> Mesh:
        (count,) = struct.unpack_from("<I", data, 80)
        triangles = []
        for index in range(count):
            v = struct.unpack_from("<12f", data, 84 + 50 * index)  # normal, then three vertices
            triangles.append(((v[3], v[4], v[5]), (v[6], v[7], v[8]), (v[9], v[10], v[11])))
        return cls(tuple(triangles))

    def bounds(self) -> tuple[Vec, Vec]:
        points = [p for t in self.triangles for p in t]
        low = (min(p[0] for p in points), min(p[1] for p in points), min(p[2] for p in points))
        high = (max(p[0] for p in points), max(p[1] for p in points), max(p[2] for p in points))
        return low, high

    def size(self) -> Vec:
        low, high = self.bounds()
        return (high[0] - low[0], high[1] - low[1], high[2] - low[2])

    def _edges(self) -> dict[tuple[Vec, Vec], list[int]]:
        edges: dict[tuple[Vec, Vec], list[int]] = defaultdict(list)
        for index, triangle in enumerate(self.triangles):
            keys = [tuple(round(c, 4) for c in p) for p in triangle]
            for a, b in ((0, 1), (1, 2), (2, 0)):
                edges[tuple(sorted((keys[a], keys[b])))].append(index)  # type: ignore[index]
        return edges

    def open_edges(self) -> int:
        """Edges not shared by exactly two triangles (0 for a closed, manifold surface)."""
        return sum(1 for users in self._edges().values() if len(users) != 2)

    def components(self) -> int:
        """Pieces of surface connected through shared edges (1 for a single solid)."""
        parent = list(range(len(self.triangles)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for users in self._edges().values():
            for other in users[1:]:
                parent[root(other)] = root(users[0])
        return len({root(i) for i in range(len(self.triangles))})

    def crossings(self, origin: Sequence[float], axis: int) -> list[float]:
        """Where the line through ``origin`` parallel to ``axis`` (0 x, 1 y, 2 z) meets the
        surface, sorted; between two consecutive crossings the line is inside the material."""
        u, v = [a for a in range(3) if a != axis]
        pu, pv = origin[u], origin[v]
        hits = []
        for a, b, c in self.triangles:
            if max(a[u], b[u], c[u]) < pu or min(a[u], b[u], c[u]) > pu:
                continue
            if max(a[v], b[v], c[v]) < pv or min(a[v], b[v], c[v]) > pv:
                continue
            det = (b[v] - c[v]) * (a[u] - c[u]) + (c[u] - b[u]) * (a[v] - c[v])
            if abs(det) < 1e-12:
                continue  # the triangle is edge-on to the line
            w1 = ((b[v] - c[v]) * (pu - c[u]) + (c[u] - b[u]) * (pv - c[v])) / det
            w2 = ((c[v] - a[v]) * (pu - c[u]) + (a[u] - c[u]) * (pv - c[v])) / det
            w3 = 1 - w1 - w2
            if min(w1, w2, w3) < 0:
                continue
            hits.append(w1 * a[axis] + w2 * b[axis] + w3 * c[axis])
        hits.sort()
        return hits

    def material(self, origin: Sequence[float], axis: int) -> list[tuple[float, float]]:
        """Intervals along the line that are inside the solid. The line is nudged off exact
        vertex positions so it never runs along an edge shared by two triangles."""
        nudged = [c + 0.00173 if i != axis else c for i, c in enumerate(origin)]
        hits = self.crossings(nudged, axis)
        if len(hits) % 2:
            raise ValueError(f"a line through {origin} crosses the surface an odd number of times")
        return list(zip(hits[0::2], hits[1::2], strict=True))

    def solid_at(self, origin: Sequence[float], axis: int, position: float) -> bool:
        return any(lo <= position <= hi for lo, hi in self.material(origin, axis))

    def facets(self) -> Iterable[tuple[tuple[Vec, Vec, Vec], Vec, float]]:
        """Each triangle with its unit normal (from the winding) and its area."""
        for triangle in self.triangles:
            a, b, c = triangle
            u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
            n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
            length = math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2)
            if length > 0:
                yield triangle, (n[0] / length, n[1] / length, n[2] / length), length / 2

    def volume_centroid(self) -> tuple[float, Vec]:
        """Enclosed volume (mm³) and its centroid, from signed tetrahedra on the origin."""
        volume, cx, cy, cz = 0.0, 0.0, 0.0, 0.0
        for a, b, c in self.triangles:
            v = (
                a[0] * (b[1] * c[2] - b[2] * c[1])
                - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0])
            ) / 6
            volume += v
            cx += v * (a[0] + b[0] + c[0]) / 4
            cy += v * (a[1] + b[1] + c[1]) / 4
            cz += v * (a[2] + b[2] + c[2]) / 4
        return volume, (cx / volume, cy / volume, cz / volume)

    def max_radius(self) -> float:
        """Farthest vertex from the Z axis (the turret's axis in the assembly frame)."""
        return max(math.hypot(p[0], p[1]) for t in self.triangles for p in t)
