// Base tray: holds the Pi, the piezo and the HIT button's switch; the deck screws on top.
// Printed as shown (floor on the bed, no supports). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, deck_t + tray_h]) base_tray();
