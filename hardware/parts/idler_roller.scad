// Idler roller: over the exit roller on two MR63ZZ bearings (pressed into its ends) and a 3 mm
// steel pin, pulled down by two extension springs; two 1.5 mm O-rings grip the card. Printed as
// shown (standing). Dimensions: lib/dims.scad.
include <lib/parts.scad>

idler_roller_flat();
