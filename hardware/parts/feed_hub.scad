// Feed hub: screwed to the FS90R's round horn (4 x M2 x 6); a 6 mm steel pin pressed in is the shaft.
// Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

feed_hub_flat();
