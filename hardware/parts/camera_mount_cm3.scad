// Camera Module 3 mount: the board's four M2 holes, the lens through the plate; two bosses screw
// it under the arm's boom. Printed plate down. Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -lens_z]) camera_mount_cm3();
