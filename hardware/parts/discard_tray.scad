// Discard tray: lies on the table beside the box, its near rim against the camera mast. Print it
// in a dark, matte filament: the reader finds a card by its white border. Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -table_z]) discard_tray();
