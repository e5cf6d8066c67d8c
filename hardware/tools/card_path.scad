// One solid of the launcher where it sits in the assembly (turret at home), for the card-path
// sweep (hardware/tools/cardpath.py): `openscad -D 'body="magazine"' -o magazine.stl`. Printed
// parts and the stand-ins a card could meet (O-rings, pin, springs, shim, pad, motors, belt).
// old_pinch draws the pinch as it was first drawn (its ears and springs inside the card's
// width), the case the sweep must catch.
include <../parts/lib/parts.scad>

body = "magazine";
old_pinch = false;

// the first drawing's pinch: 3 mm ears 10.5-13.5 mm either side of the middle, its extension
// springs from the pin's ends (14.5 mm out) down through slots under the nose floor
old_idler_w = 20;
module old_pinch_ears() for (s = [-1, 1])
    translate([0, s > 0 ? old_idler_w / 2 + 0.5 : -old_idler_w / 2 - 3.5, 0]) along_y(3) difference() {
        translate([pinch_x - 5, floor_z0 + floor_t / 2]) square([10, idler_zc + 6 - floor_z0 - floor_t / 2]);
        hull() for (dz = [-1, 2.5]) translate([pinch_x, idler_zc + dz]) circle(d = m3_hole);
    }
module old_pinch_springs() for (s = [-1, 1])
    translate([pinch_x, s * (exit_w / 2 + 4.5), floor_z0]) cylinder(d = pinch_spring[1], h = idler_zc - floor_z0, $fn = 16);

module body(name) {
    if (name == "magazine") magazine();
    else if (name == "chassis") chassis();
    else if (name == "gate") gate();
    else if (name == "gate shim") gate_shim();
    else if (name == "separator") separator();
    else if (name == "separator shoe") separator_shoe();
    else if (name == "separator pad") separator_pad();
    else if (name == "feed wheel") feed_wheel();
    else if (name == "back wheel") back_wheel();
    else if (name == "feed hub") feed_hub();
    else if (name == "back hub") feed_hub(back_x);
    else if (name == "exit roller") exit_roller();
    else if (name == "idler roller") pinch_idler();
    else if (name == "tyre O-rings") { tyre_orings(feed_x); tyre_orings(back_x); }
    else if (name == "exit roller O-rings") exit_orings();
    else if (name == "idler O-rings") idler_orings();
    else if (name == "idler pin and collars") idler_pin();
    else if (name == "pinch springs") pinch_springs();
    else if (name == "belt") belt();
    else if (name == "exit motor") n20_motor();
    else if (name == "feed servo") translate([feed_body_cx, feed_tab_y + sv_tab_z(micro_servo), feed_zc]) rotate([90, 0, 0]) servo_body(micro_servo);
    else if (name == "old idler ears") old_pinch_ears();
    else if (name == "old pinch springs") old_pinch_springs();
    else assert(false, str("no body named ", name));
}

body(body);
