// Deck: the base's lid with the 6806 bearing collar, HIT button hole, buzzer grille and the turret
// bracket's holes. Printed as shown (flat side on the bed). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, deck_t]) deck();
