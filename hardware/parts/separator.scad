// Separator: screwed over the gate with the gate's screws; its sleeve holds the shoe and its
// spring over the card path. Printed as shown (plate flat, the sleeve's far wall bridging).
// Dimensions: lib/dims.scad.
include <lib/parts.scad>

separator_flat();
