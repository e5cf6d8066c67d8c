"""``python -m hardware.sim [stacks]``: the feed's simulation sweep (see sweep.py)."""

import sys

from .sweep import main

sys.exit(main(sys.argv[1:]))
