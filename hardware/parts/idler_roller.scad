// Idler roller (print two): free on an M3 screw, under the back of the stack and over the exit roller.
// Printed as shown (standing). Dimensions: lib/dims.scad.
include <lib/parts.scad>

idler_roller_flat();
