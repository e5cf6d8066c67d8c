// Gate: its lower edge sets the throat a little over one card; slotted holes let you adjust it.
// Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

gate_flat();
