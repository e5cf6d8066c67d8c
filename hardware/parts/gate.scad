// Gate: holds the steel shim whose edge sets the throat; two jack screws from the magazine's
// gussets press its top edge down onto a feeler on the land, slotted holes clamp it (and the
// shim, between it and the separator's plate) there. Printed flat, the shim's recess on top.
// Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, gate_t]) mirror([0, 0, 1]) gate_flat();
