// Ejector chassis, pusher variant: a standard servo (MG996R) swings an arm that drives the sled.
// Printed as shown (plate on the bed). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -launcher_z0]) chassis("pusher");
