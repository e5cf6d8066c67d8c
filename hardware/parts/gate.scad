// Gate: its lower edge sets the throat; two jack screws from the magazine's gussets press its
// top edge down onto a feeler, slotted holes clamp it there. Printed as shown (flat).
// Dimensions: lib/dims.scad.
include <lib/parts.scad>

gate_flat();
