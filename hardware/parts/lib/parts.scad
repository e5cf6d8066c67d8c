// uno-companion launcher: one module per printed part, drawn where it sits in the assembly
// (see dims.scad for the frame). The files in parts/ lay each one on the print bed.
include <dims.scad>

// a 2D outline in the YZ plane pushed along X (u = y, v = z)
module along_x(length) rotate([90, 0, 90]) linear_extrude(length, convexity = 10) children();
// a 2D outline in the XZ plane pushed along Y (u = x, v = z)
module along_y(length) translate([0, length, 0]) rotate([90, 0, 0]) linear_extrude(length, convexity = 10) children();

// an opening with a straight part and a 45-degree roof: prints without supports
module gable(width, straight) polygon([[-width / 2, 0], [width / 2, 0], [width / 2, straight],
                                       [0, straight + width / 2], [-width / 2, straight]]);

module nut_outline() circle(d = m3_nut_w, $fn = 6);

// How the parts are drawn: OpenSCAD 2021 hands every 3D boolean to CGAL, which takes a good
// fraction of a second per operation on these parts, while 2D booleans are nearly free. So:
// - a plate's through-holes are cut in 2D, before it is extruded;
// - a turned part, grooves and rims included, is one rotate_extrude();
// - solids that are unioned overlap (each rooted in the other) rather than touch along a face:
//   CGAL unions them several times faster;
// - the holes left for 3D are unioned first, then subtracted once;
// - translations go on the extrusions, never around a union: CGAL moves a finished solid slowly.
module slab(z0, z1) translate([0, 0, z0]) linear_extrude(z1 - z0, convexity = 10) children();   // 2D, z0 to z1
// (convexity = 10 on the extrusions: with fewer, the preview draws a concave one wrongly where
// another solid cuts it, as in the assembly's cutaway pictures)
// translates each child on its own (each must be a single extrusion or primitive)
module each_at(v) for (i = [0 : $children - 1]) translate(v) children(i);

// an arc-shaped slot with the facets rotate_extrude() would give it
module arc_slot(r0, r1, angle, fn) {
    n = max(floor(fn * angle / 360), 1);
    polygon([for (j = [0 : n]) r1 * [cos(j * angle / n), sin(j * angle / n)],
             for (j = [n : -1 : 0]) r0 * [cos(j * angle / n), sin(j * angle / n)]]);
}

base_len = base_x1 - base_x0;

// ---------------------------------------------------------------- base tray (under the deck)
vent_z = [12, 34];              // the vents' bottom and top, above the tray's underside
module base_tray() {
    z0 = -deck_t - tray_h;
    difference() {
        union() {
            // the floor reaches into the walls, and the bosses, standoffs and tube into the floor
            translate([base_x0 + wall / 2, -base_w / 2 + wall / 2, z0]) cube([base_len - wall, base_w - wall, wall]);
            // side walls with the vents beside the Pi
            for (s = [-1, 1]) translate([0, s > 0 ? base_w / 2 - wall : -base_w / 2, z0]) along_y(wall) difference() {
                translate([base_x0, 0]) square([base_len, tray_h]);
                for (i = [0 : 5]) translate([pi_x0 + 12 + i * 9, vent_z[0]]) square([3.5, vent_z[1] - vent_z[0]]);
            }
            // front wall with vents; back wall with the cable window (Pi and servo supply leads;
            // the deck closes it). Both between the side walls, into them.
            translate([base_x1 - wall, 0, z0]) along_x(wall) difference() {
                translate([-base_w / 2 + wall / 2, 0]) square([base_w - wall, tray_h]);
                for (i = [0 : 3]) translate([-30 + i * 9, vent_z[0]]) square([3.5, vent_z[1] - vent_z[0]]);
            }
            translate([base_x0, 0, z0]) along_x(wall) difference() {
                translate([-base_w / 2 + wall / 2, 0]) square([base_w - wall, tray_h]);
                translate([-25, tray_h - 16]) square([50, 17]);
            }
            // insert bosses in the corners
            slab(z0 + wall / 2, z0 + tray_h) for (c = base_corners) translate(c) circle(d = boss_d + 2);
            // Pi standoffs with pilot holes
            slab(z0 + wall / 2, z0 + wall + standoff_h) for (p = pi_holes) translate(p) difference() {
                circle(d = 6);
                circle(d = m25_pilot);
            }
            // piezo cradle: the disc rests on the tube's rim (radii: bore, tube, seat)
            translate([buzzer_xy[0], buzzer_xy[1], z0]) rotate_extrude(convexity = 10) let(
                r = [(buzzer_d - 5) / 2, (buzzer_d + 4) / 2, (buzzer_d + 0.8) / 2])
                polygon([[r[0], wall / 2], [r[1], wall / 2], [r[1], tray_h - 1.2],
                         [r[2], tray_h - 1.2], [r[2], tray_h - 2.2], [r[0], tray_h - 2.2]]);
        }
        union() {   // the blind holes, subtracted at once
            slab(z0 + tray_h - m3_insert_h, z0 + tray_h + 1) for (c = base_corners) translate(c) circle(d = m3_insert_d);
            // the piezo's wires leave the tube through its side
            translate([buzzer_xy[0] - 3, buzzer_xy[1] - buzzer_d, z0 + tray_h - 10]) cube([6, buzzer_d, 11]);
        }
    }
}

// ---------------------------------------------------------------- deck (the base's lid)
module deck() {
    top = deck_t + bearing_w;
    each_at([0, 0, -deck_t]) {
        linear_extrude(deck_t, convexity = 10) difference() {
            translate([base_x0, -base_w / 2]) square([base_len, base_w]);
            circle(d = lip_hole_d);
            for (c = base_corners) translate(c) circle(d = m3_hole);
            for (b = bracket_screws) translate(b) circle(d = m3_hole);
            translate([button_x, 0]) circle(d = button_hole_d, $fn = 64);
            for (i = [-2 : 2]) translate([buzzer_xy[0] + i * 5 - 1, buzzer_xy[1] - 9]) square([2, 18]);
            // the launcher's cables come down through this arc as the turret turns
            rotate(180 + home_heading - turret_range / 2 - 10)
                arc_slot(cable_r - cable_hole_d / 2 - 0.5, cable_r + cable_hole_d / 2 + 0.5, turret_range + 20, 96);
        }
        // the collar round the bearing and the tilt ring, rooted inside the plate
        slab(deck_t / 2, top) {
            difference() {
                circle(d = collar_d);
                circle(d = bearing_d + 0.15, $fn = 64);
            }
            difference() {
                circle(r = tilt_ring_r + 3, $fn = 96);
                circle(r = tilt_ring_r, $fn = 96);
            }
        }
    }
}

// ---------------------------------------------------------------- turret servo bracket
bracket_t = -deck_t - t_tab_top_z;
module turret_bracket() {
    s = turret_servo;
    difference() {
        slab(t_tab_top_z, t_tab_top_z + bracket_t) difference() {
            translate([-24, -27]) square([48, 41]);
            translate([-sv_w(s) / 2 - 0.3, t_body_cy - sv_l(s) / 2 - 0.3]) square([sv_w(s) + 0.6, sv_l(s) + 0.6]);
            for (dy = [-1, 1]) translate([0, t_body_cy + dy * sv_hole_dx(s) / 2]) circle(d = m2_pilot);
            for (b = bracket_screws) translate(b) circle(d = m3_hole);
        }
        slab(t_tab_top_z - 0.01, t_tab_top_z + m3_nut_h - 0.01) for (b = bracket_screws) translate(b) nut_outline();
    }
}

// ---------------------------------------------------------------- turntable
module turntable() {
    counterbore_z = launcher_z0 - 2;   // the screw's head, from the turntable's top
    // the centre, turned: peg in the bearing's bore, spline bore, rim on the bearing's inner race
    rotate_extrude(convexity = 10) polygon([
        [spline_bore_d / 2, peg_bottom_z], [bearing_bore / 2 - 0.025, peg_bottom_z],
        [bearing_bore / 2 - 0.025, bearing_w], [bearing_race_in / 2 - 0.5, bearing_w],
        [bearing_race_in / 2 - 0.5, turntable_z0 + 0.5], [3, turntable_z0 + 0.5],
        [3, counterbore_z], [1.1, counterbore_z], [1.1, peg_bottom_z + spline_grip],
        [spline_bore_d / 2, peg_bottom_z + spline_grip]]);
    // the disc, round the top of the centre; nut traps underneath
    difference() {
        slab(turntable_z0, launcher_z0) difference() {
            circle(d = turntable_d, $fn = 96);
            circle(d = 4.5);
            translate([-cable_r, 0]) circle(d = cable_hole_d);
            for (p = ch_screw) translate(p) circle(d = m3_hole);
        }
        slab(turntable_z0 - 0.01, turntable_z0 - 0.01 + m3_nut_h) for (p = ch_screw) translate(p) nut_outline();
    }
}

// ---------------------------------------------------------------- ejector chassis
// The walls start inside the plate (z = ch_plate_t / 2), see the top of this file.
module servo_mount_wall(s, body_cx, zc, tab_y, top) {
    translate([0, tab_y - 5, launcher_z0]) along_y(5) difference() {
        translate([body_cx - sv_hole_dx(s) / 2 - 4.5, ch_plate_t / 2]) square([sv_hole_dx(s) + 9, top - ch_plate_t / 2]);
        translate([body_cx - sv_l(s) / 2 - 0.4, zc - sv_w(s) / 2 - 0.4]) square([sv_l(s) + 0.8, top]);
        for (dx = [-1, 1], dz = (sv_hole_dw(s) > 0 ? [-1, 1] : [0]))
            translate([body_cx + dx * sv_hole_dx(s) / 2, zc + dz * sv_hole_dw(s) / 2]) circle(d = m2_pilot);
    }
}

module chassis(variant = "pusher") {
    len = ch_x1 - ch_x0;
    z0 = launcher_z0;
    slab(z0, z0 + ch_plate_t) difference() {
        translate([ch_x0, -mag_y]) square([len, 2 * mag_y]);
        for (p = ch_screw) translate(p) circle(d = m3_hole);
        translate([-cable_r, 0]) circle(d = cable_hole_d);
    }
    // the side walls, and the ledges carrying the sled (chamfered underneath)
    translate([ch_x0, 0, z0]) along_x(len) for (s = [-1, 1]) scale([s, 1]) {
        translate([pocket_w / 2, ch_plate_t / 2]) square([wall, floor_z0 - ch_plate_t / 2]);
        if (variant == "pusher")
            polygon([[pocket_w / 2 + 0.01, sled_z0], [pocket_w / 2 - 3, sled_z0],
                     [pocket_w / 2 + 0.01, sled_z0 - 3.2 - 0.01]]);
    }
    // the magazine's bosses, with its inserts
    difference() {
        slab(z0, z0 + floor_z0) for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = boss_d);
        slab(z0 + floor_z0 - m3_insert_h, z0 + floor_z0 + 1)
            for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = m3_insert_d);
    }
    if (variant == "pusher") {
        servo_mount_wall(ejector_servo, e_body_cx, shaft_z, e_tab_y, shaft_z + sv_hole_dw(ejector_servo) / 2 + 5);
    } else {
        top = roller_zc + 8;
        servo_mount_wall(roller_servo, r_body_cx, roller_zc, r_tab_y, top);
        slab(z0 + ch_plate_t / 2, z0 + top) for (dx = [-1, 1])
            translate([r_body_cx + dx * (sv_hole_dx(roller_servo) / 2 + 3) - 1.5, -pocket_w / 2 - 0.01])
                square([3, pocket_w / 2 + r_tab_y - 4.9]);
    }
}

// ---------------------------------------------------------------- magazine
mag_h = floor_t + mag_wall_h;
arch_top = floor_t + arch_gap + pocket_w / 2 + 6;
insert_depth = front_t - 0.6;      // the gate's inserts, from the front wall's face
module magazine() {
    difference() {
        each_at([0, 0, launcher_z0 + floor_z0]) {
            // the floor: flanges over the chassis' bosses, the slot for the pusher's fin and the
            // roller's wheel (open at the back)
            linear_extrude(floor_t, convexity = 10) difference() {
                union() {
                    translate([px0 - wall, -mag_y]) square([tray_x1 - px0 + wall, 2 * mag_y]);
                    for (s = [-1, 1]) translate([mag_boss_x[0] - 6, s > 0 ? mag_y - 0.01 : -mag_y - flange_w + 0.01])
                        square([mag_boss_x[1] - mag_boss_x[0] + 12, flange_w]);
                }
                translate([px0 - wall - 1, slot_y[0]]) square([tooth_reach_x + 1.5 - px0 + wall, slot_y[1] - slot_y[0]]);
                for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = m3_hole);
            }
            // the side walls, the back's two corner posts and the exit tray's lips, rooted in the floor
            slab(floor_t / 2, mag_h) for (s = [-1, 1]) {
                translate([px0 - wall, s > 0 ? pocket_w / 2 : -mag_y]) square([pocket_l + wall + 0.01, wall]);
                translate([px0 - wall, s > 0 ? pocket_w / 2 - back_post_w : -pocket_w / 2 - 0.01])
                    square([wall, back_post_w + 0.01]);
            }
            slab(floor_t / 2, floor_t + 4) for (s = [-1, 1])
                translate([gate_x - 0.01, s > 0 ? pocket_w / 2 : -mag_y]) square([tray_l + 0.01, wall]);
            // the front wall over the throat
            translate([px1, 0, 0]) along_x(front_t) front_wall_section();
            // the beam arch over the exit tray
            translate([beam_x - 5, 0, floor_t / 2]) along_x(10) difference() {
                translate([-mag_y, 0]) square([2 * mag_y, arch_top - floor_t / 2]);
                translate([0, floor_t / 2]) gable(pocket_w, arch_gap);
            }
        }
        each_at([0, 0, launcher_z0 + floor_z0]) {
            // IR break-beam: receiver under the tray floor, emitter in the arch, facing each other
            translate([beam_x, 0, -1]) cylinder(d = beam_hole_d, h = arch_top + 2);
            // the gate's inserts, in the front wall's face
            translate([gate_x - insert_depth, 0, 0]) along_x(insert_depth + 0.01)
                for (s = [-1, 1]) translate([s * gate_screw_y, gate_screw_z]) circle(d = m3_insert_d);
        }
    }
}
// the front wall across the magazine (y, z): the throat, straight sides and a 45-degree roof
module front_wall_section() difference() {
    translate([-gate_screw_y - 4, 0]) square([2 * gate_screw_y + 8, mag_h]);
    translate([0, floor_t]) gable(pocket_w, arch_gap + 2);
    translate([slot_y[0], -1]) square([slot_y[1] - slot_y[0], floor_t + 2]);   // the floor's slot
}

// ---------------------------------------------------------------- gate (sets the throat)
module gate_flat() {
    w = 2 * gate_screw_y + 8;
    linear_extrude(gate_t, convexity = 10) difference() {
        translate([-w / 2, 0]) square([w, gate_h]);
        translate([-gate_notch_w / 2 + (fin_y[0] + fin_y[1]) / 2, -1]) square([gate_notch_w, gate_notch_h + 1]);
        for (s = [-1, 1]) hull() for (dz = [-gate_adjust, gate_adjust])
            translate([s * gate_screw_y, gate_screw_z - floor_t - throat_h + dz]) circle(d = m3_hole);
    }
}
module gate() {
    // flat part: x across the throat, y up from its lower edge, z its thickness
    translate([gate_x + gate_t, 0, launcher_z0 + floor_top + throat_h]) rotate([90, 0, -90]) gate_flat();
}

// ---------------------------------------------------------------- follower (rests on the stack)
follower_w = pocket_w - 2 * fit - 1;
follower_l = pocket_l - 2;
module follower_flat() {
    difference() {
        translate([-follower_l / 2, -follower_w / 2, 0]) cube([follower_l, follower_w, follower_h]);
        // pocket for ballast (coins, M8 nuts): about 100 g keeps the bottom card flat
        translate([-follower_l / 2 + 8, -follower_w / 2 + 6, 3]) cube([follower_l - 16, follower_w - 12, follower_h]);
    }
    translate([-3, -follower_w / 2 + 6, 0]) cube([6, follower_w - 12, follower_h + 8]); // handle
}
module follower(cards = cards_min) {
    translate([(px0 + px1) / 2, 0, launcher_z0 + floor_top + cards * card_t]) follower_flat();
}

// ---------------------------------------------------------------- pusher sled (drawn at its tooth x)
tongue_bot = pin_z_low - pin_d / 2 - 3;
module sled(angle = rest_angle) {
    t = tooth_x(angle);
    slot_x = t + tongue_from_tooth;
    translate([0, 0, launcher_z0]) difference() {
        union() {
            translate([t - sled_behind, -sled_w / 2, sled_z0]) cube([sled_behind + sled_ahead, sled_w, sled_t]);
            translate([t - sled_behind, fin_y[0], sled_z0 + sled_t - 0.01]) cube([sled_behind, fin_y[1] - fin_y[0], floor_top - sled_z0 - sled_t + 0.01]);
            // the tooth: square face forward, ramp behind (slides under the next card on return)
            translate([t, fin_y[0], floor_top - 0.01]) rotate([90, 0, 0]) mirror([0, 0, 1])
                linear_extrude(fin_y[1] - fin_y[0]) polygon([[0, 0], [0, tooth_h + 0.01], [-tooth_l, 0]]);
            translate([t - sled_behind, tongue_y[0], tongue_bot]) cube([sled_behind + sled_ahead, tongue_y[1] - tongue_y[0], sled_z0 - tongue_bot + 0.01]);
        }
        translate([slot_x - pin_d / 2 - 0.3, tongue_y[0] - 1, pin_z_low - pin_d / 2 - 0.5])
            cube([pin_d + 0.6, tongue_y[1] - tongue_y[0] + 2, pin_z_high - pin_z_low + pin_d + 1]);
    }
}
module sled_flat() {
    t = tooth_x(rest_angle);
    translate([0, 0, 0]) rotate([0, -90, 0]) translate([-(t - sled_behind), 0, -launcher_z0]) sled(rest_angle);
}

// ---------------------------------------------------------------- pusher arm
horn_hub_d = 9;            // clears the round horn's hub
module arm_flat() {
    linear_extrude(arm_t, convexity = 10) difference() {
        hull() {
            circle(r = 12);
            translate([0, arm_l]) circle(r = arm_end_r);
        }
        circle(d = horn_hub_d);
        for (r = [8, 10.5], a = [0 : 90 : 270]) rotate(a + 45) translate([r, 0]) circle(d = m2_pilot);
        translate([0, arm_l]) circle(d = 2.6);   // M3 pin, self-tapping
    }
}
module arm(angle = rest_angle) {
    translate([shaft_x, arm_y + arm_t, launcher_z0 + shaft_z]) rotate([0, angle - mid_angle, 0])
        rotate([90, 0, 0]) arm_flat();
}

// ---------------------------------------------------------------- roller wheel (O-ring tyre)
roller_t = roller_y[1] - roller_y[0];
module wheel_flat() {
    difference() {
        // turned, with the V groove for a 2 mm O-ring (45-degree flanks print without supports);
        // from r = 3: the hub's hole takes out the rest
        rotate_extrude($fn = 64, convexity = 10) difference() {
            translate([3, 0]) square([tyre_r - 1 - 3, roller_t]);
            translate([tyre_r - 1, roller_t / 2]) rotate(45) square(2.2, center = true);
        }
        slab(-1, roller_t + 1) {
            circle(d = horn_hub_d - 2);
            for (a = [0 : 90 : 270]) rotate(a + 45) translate([7, 0]) circle(d = m2_pilot);
        }
    }
}
module wheel() {
    translate([roller_x, roller_y[1], launcher_z0 + roller_zc]) rotate([90, 0, 0]) wheel_flat();
}

// ---------------------------------------------------------------- stand-ins (not printed)
module servo_body(s) {
    color("#333") translate([-sv_l(s) / 2, -sv_w(s) / 2, 0]) cube([sv_l(s), sv_w(s), sv_h(s)]);
    color("#333") translate([-sv_l(s) / 2 - (s[5] - sv_l(s)) / 2, -sv_w(s) / 2, sv_tab_z(s)]) cube([s[5], sv_w(s), sv_tab_t(s)]);
    color("#ddd") translate([-sv_spline_off(s), 0, sv_h(s)]) cylinder(d = 5, h = sv_spline_h(s));
}
module card_stack(cards = cards_min) {
    color("#d22") translate([(px0 + px1) / 2 - card_l / 2 + 0.75, -card_w / 2, launcher_z0 + floor_top])
        cube([card_l, card_w, cards * card_t]);
}
module pi_board() color("#1a6", 0.9) translate([pi_x0, pi_y0, -deck_t - tray_h + wall + standoff_h]) cube([56, 85, 1.6]);
module button_dome() {
    color("#e33") translate([button_x, 0, 0]) scale([1, 1, 0.45]) sphere(d = button_dome_d);
    color("#555") translate([button_x, 0, -button_depth]) cylinder(d = 24, h = button_depth);
}

// ---------------------------------------------------------------- retrofit plate
// Carries a real UNO launcher on the turntable instead of the printed magazine and chassis.
module retrofit_plate() {
    top = retrofit_t + retrofit_rim_h;
    difference() {
        // plate and rim, turned in one piece (from r = 2: the centre hole takes out the rest)
        translate([0, 0, launcher_z0]) rotate_extrude($fn = 96, convexity = 10) polygon([
            [2, 0], [turntable_d / 2, 0], [turntable_d / 2, retrofit_t], [launcher_d / 2 + wall, retrofit_t],
            [launcher_d / 2 + wall, top], [launcher_d / 2, top], [launcher_d / 2, retrofit_t], [2, retrofit_t]]);
        union() {   // one subtraction, not two: each costs about as much as the whole plate
            slab(launcher_z0 - 1, launcher_z0 + retrofit_t + 1) {
                for (p = ch_screw) translate(p) circle(d = m3_hole);
                translate([-cable_r, 0]) circle(d = cable_hole_d);   // it notches the rim
                circle(d = 6);   // reach the turntable's screw
                // slots for a hook-and-loop strap over the launcher, left and right
                for (s = [-1, 1]) translate([-11, s * (launcher_d / 2 - 6) - 2]) square([22, 4]);
            }
            // the screws' heads sink into the plate (and the rim)
            slab(launcher_z0 + retrofit_t - 3, launcher_z0 + top + 2) for (p = ch_screw) translate(p) circle(d = m3_head_d + 0.4);
        }
    }
}
