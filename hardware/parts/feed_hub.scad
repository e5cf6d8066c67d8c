// Feed hub (print two): one on the FS90R's round horn (4 x M2 x 6), one on the back wheel's pin;
// a 6 mm steel pin pressed in is each one-way bearing's shaft, the O-ring belt runs on their rims.
// Printed as shown (flat, horn side down). Dimensions: lib/dims.scad.
include <lib/parts.scad>

feed_hub_flat();
