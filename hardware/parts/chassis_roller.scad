// Ejector chassis, roller variant: a continuous micro servo (FS90R) turns a tyred wheel under the cards.
// Printed as shown (plate on the bed). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -launcher_z0]) chassis("roller");
