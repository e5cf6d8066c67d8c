// Separator: screwed over the gate; a rubber pad under its leaf holds back a second card.
// Printed as shown (plate flat, leaf standing). Dimensions: lib/dims.scad.
include <lib/parts.scad>

separator_flat();
