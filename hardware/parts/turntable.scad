// Turntable: turns on the 608 bearing, pressed onto the turret servo's spline.
// Printed as shown (upside down, peg up). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, launcher_z0]) mirror([0, 0, 1]) turntable();
