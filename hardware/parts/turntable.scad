// Turntable: disc, hub pressed into the 6806 bearing and the 24-tooth turret gear under the deck,
// hollow for the cables. Printed as shown (upside down, gear up). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, launcher_z0]) mirror([0, 0, 1]) turntable();
