"""The Raspberry Pi as a system: what the installer sets up (:mod:`.plan`) and the checks of
``uno-companion doctor`` (:mod:`.doctor`). Nothing here runs at import time."""
