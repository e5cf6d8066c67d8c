// Exit roller: pressed on the N20 motor's D shaft, two 2 mm O-rings grip the card.
// Printed as shown (standing). Dimensions: lib/dims.scad.
include <lib/parts.scad>

exit_roller_flat();
