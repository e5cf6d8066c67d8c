// Roller wheel: screwed to the continuous servo's horn; a 2 mm O-ring is the tyre.
// Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

wheel_flat();
