"""Array types shared by the vision modules.

OpenCV's stubs type every picture as ``Mat | ndarray[Any, dtype[integer | floating]]``: the
aliases say what an array holds (8-bit BGR or grey, or 32-bit floats) without fighting them.
"""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

Image = npt.NDArray[Any]  # an OpenCV picture: uint8, BGR or grey
Floats = npt.NDArray[Any]  # float32 arrays: pictures being worked on, features, weights
