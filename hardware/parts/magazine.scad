// Magazine: card pocket, front wall holding the gate, exit tray and the IR beam arch.
// Printed as shown (floor on the bed). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -launcher_z0 - floor_z0]) magazine();
