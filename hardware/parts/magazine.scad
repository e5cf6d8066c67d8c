// Magazine: card pocket over the feed tyre and the back roller, front wall holding the gate, the
// nose with the pinch idler's slots and the IR beam arch. Printed as shown (floor on the bed).
// Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -floor_z0]) magazine();
