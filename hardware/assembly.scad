// The whole box, every printed part in place, with stand-ins for the servos, motor, cards, boards,
// speaker and button. Render pictures with: openscad -o box.png --camera=... assembly.scad (see
// tools/build.py).
include <parts/lib/parts.scad>

variant = "feed";       // [feed, retrofit]
turret = 0;             // turret turned from home, degrees
explode = 0;            // 0: assembled; 40: parts pulled apart along Z
cut = false;            // true: cut away the front (-Y) half to see inside
stand_ins = true;       // servos, motor, cards, boards, speaker and button (not printed)
launcher_shown = true;
tray_shown = true;
deck_shown = true;
cards = cards_full;
camera = "cm3";         // [cm3, usb, none]: the camera on its arm over the discard tray

module launcher() {
    color("#f2c14e") turntable();
    if (variant == "retrofit") {
        color("#4e8ff2") translate([0, 0, explode]) retrofit_plate();
        // the real launcher, roughly (not printed)
        if (stand_ins) color("#d22", 0.5) translate([0, 0, launcher_z0 + retrofit_t + 2 * explode])
            cylinder(d = launcher_d - 1, h = 120);
    } else printed_launcher();
}

module printed_launcher() {
    color("#4e8ff2") translate([0, 0, explode]) chassis();
    translate([0, 0, explode]) {
        color("#e07a5f") feed_wheel();
        color("#f4a261") feed_hub();
        color("#e07a5f") back_wheel();
        color("#f4a261") feed_hub(back_x);
        color("#e07a5f") exit_roller();
        if (stand_ins) color("#222") belt();
        if (stand_ins) {
            translate([feed_body_cx, feed_tab_y + sv_tab_z(micro_servo), feed_zc]) rotate([90, 0, 0]) servo_body(micro_servo);
            n20_motor();
            color("#c33") { tyre_orings(feed_x); tyre_orings(back_x); exit_orings(); }
        }
    }
    translate([0, 0, 2 * explode]) {
        color("#eeeeee") magazine();
        color("#bbbbbb") pinch_idler();
        if (stand_ins) {
            color("#c33") idler_orings();
            color("#888") idler_pin();
            color("#ddd") pinch_springs();
        }
        if (stand_ins && cards > 0) card_stack(cards);
        if (stand_ins) separator_pad();
        color("#9b5de5") translate([0, 0, explode]) separator_shoe();
    }
    color("#c77dff") translate([2 * explode, 0, 2 * explode]) gate();
    if (stand_ins) translate([2.5 * explode, 0, 2 * explode]) gate_shim();
    color("#9b5de5") translate([3 * explode, 0, 2 * explode]) separator();
    color("#bbbbbb") translate([0, 0, 3 * explode]) follower(cards);
}

module box() {
    if (tray_shown) color("#9aa5b1") translate([0, 0, -2 * explode]) base_tray();
    if (stand_ins && tray_shown) translate([0, 0, -2 * explode]) {
        pi_board();
        dist_board();
        amp_board();
        speaker();
    }
    // The turret bracket, its servo, its gear and the HIT button hang from the deck: without the
    // deck they would float over the tray.
    if (deck_shown) {
        color("#c9d2db") deck();
        color("#f2c14e") translate([0, 0, -explode]) turret_bracket();
        color("#e07a5f") translate([0, 0, -0.5 * explode]) rotate_about(servo_gear_xy, -turret / gear_ratio) servo_gear();
        if (stand_ins) {
            translate([t_body_cx, 0, t_body_bot_z - explode]) rotate(180) servo_body(turret_servo);
            button_dome();
        }
    }
    if (launcher_shown) rotate(home_heading + turret) translate([0, 0, explode]) launcher();
    if (camera != "none" && tray_shown) camera_arm_shown(camera == "usb");
}
module camera_arm_shown(webcam) {
    color("#3d405b") translate([0, -explode, 0]) camera_mast();
    translate([0, -explode, -(webcam ? joint_drop : 0) + explode]) {
        color("#3d405b") translate([explode, 0, 0]) camera_arm();
        color("#f2c14e") translate([0, 0, -explode]) if (webcam) camera_mount_usb(); else camera_mount_cm3();
        if (stand_ins) translate([0, 0, -explode]) camera_stand_ins(webcam);
    }
    color("#2b2d42") translate([0, -2 * explode, -explode]) discard_tray();
}
module rotate_about(p, a) translate([p[0], p[1], 0]) rotate(a) translate([-p[0], -p[1], 0]) children();

// (the cut-away block stays small: OpenCSG draws a difference wrongly seen from inside the block)
if (cut) difference() { box(); translate([-250, -150.5, -100]) cube([500, 150, 300]); }
else box();
