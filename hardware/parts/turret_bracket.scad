// Turret bracket: holds the turret servo under the deck, spline on the bearing's axis.
// Printed as shown (flat, nut traps on the bed side). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -t_tab_top_z]) turret_bracket();
