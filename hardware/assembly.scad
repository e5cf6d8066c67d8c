// The whole box, every printed part in place, with stand-ins for the servos, cards, Pi and button.
// Render pictures with: openscad -o box.png --camera=... assembly.scad (see tools/build.py).
include <parts/lib/parts.scad>

variant = "pusher";     // [pusher, roller, retrofit]
turret = 0;             // turret turned from home, degrees
ejector_angle = rest_angle;
explode = 0;            // 0: assembled; 40: parts pulled apart along Z
cut = false;            // true: cut away the front (-Y) half to see inside
stand_ins = true;       // servos, cards, Pi and button (not printed)
launcher_shown = true;
deck_shown = true;

module launcher() {
    color("#f2c14e") translate([0, 0, 0 * explode]) turntable();
    if (variant == "retrofit") {
        color("#4e8ff2") translate([0, 0, explode]) retrofit_plate();
        // the real launcher, roughly (not printed)
        if (stand_ins) color("#d22", 0.5) translate([0, 0, launcher_z0 + retrofit_t + 2 * explode])
            cylinder(d = launcher_d - 1, h = 120);
    } else printed_launcher();
}

module printed_launcher() {
    color("#4e8ff2") translate([0, 0, 1 * explode]) chassis(variant);
    if (variant == "pusher") {
        color("#7cc47c") translate([0, 0, 1 * explode]) sled(ejector_angle);
        color("#e07a5f") translate([0, 0, 1 * explode]) arm(ejector_angle);
        if (stand_ins) translate([e_body_cx, e_body_bot_y, launcher_z0 + shaft_z + explode]) rotate([-90, 0, 0]) servo_body(ejector_servo);
    } else {
        color("#e07a5f") translate([0, 0, 1 * explode]) wheel();
        if (stand_ins) translate([r_body_cx, r_body_bot_y, launcher_z0 + roller_zc + explode]) rotate([-90, 0, 0]) servo_body(roller_servo);
    }
    color("#eeeeee") translate([0, 0, 2 * explode]) magazine();
    color("#c77dff") translate([2 * explode, 0, 2 * explode]) gate();
    if (stand_ins) translate([0, 0, 2 * explode]) card_stack();
    color("#bbbbbb") translate([0, 0, 3 * explode]) follower();
}

module box() {
    color("#9aa5b1") translate([0, 0, -2 * explode]) base_tray();
    if (stand_ins) translate([0, 0, -2 * explode]) pi_board();  // sits in the tray
    // The turret bracket, its servo and the HIT button hang from the deck: without the deck
    // they would float over the tray.
    if (deck_shown) {
        color("#c9d2db") deck();
        color("#f2c14e") translate([0, 0, -1 * explode]) turret_bracket();
        if (stand_ins) {
            translate([0, t_body_cy, t_body_bot_z - explode]) rotate(-90) servo_body(turret_servo);
            button_dome();
        }
    }
    if (launcher_shown) rotate(home_heading + turret) translate([0, 0, explode]) launcher();
}

// The cut plane (y = -25) passes clear of the sled ledges (y -28.8 to -25.7): cutting through one
// left a 0.3 mm sliver floating in the picture.
if (cut) difference() { box(); translate([-200, -400 - 25, -200]) cube(400); }
else box();
