"""The launcher's feed as a rigid-body simulation (MuJoCo), built from ``dims.scad``."""
