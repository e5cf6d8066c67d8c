// Idler roller: free on an M3 screw over the exit roller, pulled down by two rubber bands; two
// 1.5 mm O-rings grip the card. Printed as shown (standing). Dimensions: lib/dims.scad.
include <lib/parts.scad>

idler_roller_flat();
