"""``python -m hardware.sim``: the feed's tolerance sweep, or one feed at given values."""

import sys

from .sweep import main

sys.exit(main(sys.argv[1:]))
