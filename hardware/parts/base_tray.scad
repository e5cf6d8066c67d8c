// Base tray: holds the Pi, the distribution board, the amplifier's cradle, the speaker's ring over
// its grille, the piezo, the barrel jack and the shutdown button; the deck screws on top.
// Printed as shown (floor on the bed, no supports). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, deck_t + tray_h]) base_tray();
