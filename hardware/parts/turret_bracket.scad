// Turret bracket: holds the turret servo under the deck on two posts outside the servo gear.
// Printed as shown (plate on the bed, posts up). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -(t_tab_z - bracket_t)]) turret_bracket();
