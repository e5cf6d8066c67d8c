// Separator shoe: slides in the separator's sleeve, pushed down by its spring; a strip of 1 mm
// silicone sheet glued on its curved underside holds back a second card. Printed top down (the
// spring's pocket opens on the bed side). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, sep_shoe_h]) rotate([180, 0, 0]) separator_shoe_flat();
