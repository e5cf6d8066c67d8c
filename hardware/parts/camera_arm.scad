// Camera arm: one L, its leg screwed beside the mast, its boom over the discard tray carrying the
// camera mount and the two LED pieces. Printed lying on its side (no supports). Dimensions:
// lib/dims.scad.
include <lib/parts.scad>

rotate([0, -90, 0]) translate([-arm_x0, 0, 0]) camera_arm();
