// Separator: screwed over the gate with the gate's screws; its sleeve holds the shoe and its
// spring over the card path. Printed standing on the plate's and the sleeve's lower edges, so
// every face the shoe can touch is a wall, not a bridge (only the roof, where the spring bears,
// bridges). Dimensions: lib/dims.scad.
include <lib/parts.scad>

rotate([90, 0, 0]) separator_flat();
