// Camera mast: stands on the table against the base's -Y wall; the arm is screwed beside it at
// one of two heights (Camera Module 3 or webcam). Printed lying on its side (no supports).
// Dimensions: lib/dims.scad.
include <lib/parts.scad>

rotate([0, -90, 0]) translate([-(mast_x - mast_w / 2), 0, 0]) camera_mast();
