"""``python -m hardware.sim``: the feed's tolerance sweep, or one feed at given values (sweep.py)."""

import sys

from .sweep import main

sys.exit(main(sys.argv[1:]))
