// Chassis: the feed servo (FS90R) and its wheel, the back roller's ears, the exit motor's cradle
// and the magazine's bosses. Printed as shown (plate on the bed). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -launcher_z0]) chassis();
