// Gate: its lower edge sets the throat to one card; slotted holes let you adjust it.
// Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

gate_flat();
