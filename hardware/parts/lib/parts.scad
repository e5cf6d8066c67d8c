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

// An involute spur gear's outline (pressure angle 20°), teeth joined by straight roots.
function inv_deg(a) = (tan(a) - a * PI / 180) * 180 / PI;
function gear_points(m, z) = let(
    rp = m * z / 2, ra = rp + m, rf = rp - 1.25 * m, rb = rp * cos(20),
    r0 = max(rb, rf),
    half = 90 / z + inv_deg(20),                                 // tooth half-angle at the base
    phi = function(r) half - inv_deg(acos(min(rb / r, 1))),
    flank = [for (k = [0 : 4]) r0 + (ra - r0) * k / 4])
    [for (i = [0 : z - 1]) let(c = i * 360 / z) each concat(
        [rf * [cos(c - phi(r0)), sin(c - phi(r0))]],
        [for (r = flank) r * [cos(c - phi(r)), sin(c - phi(r))]],
        [for (j = [4 : -1 : 0]) flank[j] * [cos(c + phi(flank[j])), sin(c + phi(flank[j]))]],
        [rf * [cos(c + phi(r0)), sin(c + phi(r0))]])];
module gear_outline(z) polygon(gear_points(gear_m, z));
function gear_tip_r(z) = gear_m * z / 2 + gear_m;

// the round horn's screw holes, and the clearance for its hub
module horn_holes() {
    circle(d = horn_hub_d);
    for (a = [0 : 90 : 270]) rotate(a + 45) translate([horn_hole_r, 0]) circle(d = m2_pilot);
}

base_len = base_x1 - base_x0;

// ---------------------------------------------------------------- base tray (under the deck)
vent_z = [12, 34];              // the vents' bottom and top, above the tray's underside
tray_z0 = -deck_t - tray_h;
module base_tray() {
    z0 = tray_z0;
    difference() {
        union() {
            // the floor (speaker grille cut in 2D) reaches into the walls
            slab(z0, z0 + wall) difference() {
                translate([base_x0 + wall / 2, -base_w / 2 + wall / 2]) square([base_len - wall, base_w - wall]);
                for (i = [-2 : 2]) translate([speaker_xy[0] + i * 6 - 1.5, speaker_xy[1] - 13]) square([3, 26]);
            }
            // side walls: vents beside the Pi, the barrel jack (+Y) and the shutdown button (-Y)
            for (s = [-1, 1]) translate([0, s > 0 ? base_w / 2 - wall : -base_w / 2, z0]) along_y(wall) difference() {
                translate([base_x0, 0]) square([base_len, tray_h]);
                for (i = [0 : 4]) translate([pi_x0 + 8 + i * 9, vent_z[0]]) square([3.5, vent_z[1] - vent_z[0]]);
                translate([s > 0 ? jack_x : shutdown_x, tray_h / 2]) circle(d = s > 0 ? jack_hole_d : shutdown_hole_d);
                // the camera mast's screws and the camera's cable (-Y)
                if (s < 0) {
                    for (z = mast_screw_z) translate([mast_x, z - tray_z0]) circle(d = m3_hole);
                    translate([cable_slot[0], tray_h - 3 - cable_slot[2]]) square([cable_slot[1], cable_slot[2]]);
                }
            }
            // front and back walls, between the side walls, into them
            for (x = [base_x0, base_x1 - wall]) translate([x, 0, z0]) along_x(wall) difference() {
                translate([-base_w / 2 + wall / 2, 0]) square([base_w - wall, tray_h]);
                for (i = [0 : 3]) translate([-30 + i * 9, vent_z[0]]) square([3.5, vent_z[1] - vent_z[0]]);
            }
            // insert bosses in the corners
            slab(z0 + wall / 2, z0 + tray_h) for (c = base_corners) translate(c) circle(d = boss_d + 2);
            // Pi and distribution board standoffs with pilot holes
            slab(z0 + wall / 2, z0 + wall + standoff_h) for (p = concat(pi_holes, dist_holes)) translate(p) difference() {
                circle(d = 6);
                circle(d = m25_pilot);
            }
            // the speaker's ring (it lies face down on the grille) and the amplifier's slotted cradle
            slab(z0 + wall / 2, z0 + wall + 6) {
                translate(speaker_xy) difference() {
                    circle(d = speaker_d + 2 * wall + 0.8, $fn = 64);
                    circle(d = speaker_d + 0.8, $fn = 64);
                    translate([-4, 0]) square([8, speaker_d]);   // the leads
                }
                for (s = [-1, 1]) translate([amp_xy[0] + s * (amp_size[0] / 2 + 1), amp_xy[1]]) difference() {
                    square([5, 8], center = true);
                    translate([-s * 1.5, 0]) square([5, amp_size[1] + 0.4], center = true);
                }
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
            translate([buzzer_xy[0] - 3, buzzer_xy[1], z0 + tray_h - 10]) cube([6, buzzer_d, 11]);
        }
    }
}

// ---------------------------------------------------------------- deck (the base's lid)
module deck() {
    top = bearing_w;
    each_at([0, 0, -deck_t]) {
        linear_extrude(deck_t, convexity = 10) difference() {
            translate([base_x0, -base_w / 2]) square([base_len, base_w]);
            circle(d = lip_hole_d, $fn = 64);
            for (c = concat(base_corners, bracket_posts)) translate(c) circle(d = m3_hole);
            translate([button_x, 0]) circle(d = button_hole_d, $fn = 64);
            for (i = [-2 : 2]) translate([buzzer_xy[0] + i * 5 - 1, buzzer_xy[1] - 9]) square([2, 18]);
        }
        // the collar round the bearing, rooted inside the plate
        slab(deck_t / 2, deck_t + top) difference() {
            circle(d = collar_d, $fn = 64);
            circle(d = bearing_d + 0.15, $fn = 96);
        }
    }
}

// ---------------------------------------------------------------- turret servo bracket
// A plate under the servo's tabs hangs from the deck on two posts outside the servo gear.
t_body_cx = servo_gear_xy[0] - sv_spline_off(turret_servo);   // body toward -X from the spline
module turret_bracket() {
    s = turret_servo;
    z0 = t_tab_z - bracket_t;
    difference() {
        union() {
            slab(z0, t_tab_z) difference() {
                hull() {
                    translate([t_body_cx, 0]) square([s[5] + 8, sv_w(s) + 10], center = true);
                    for (p = bracket_posts) translate(p) circle(d = boss_d);
                }
                translate([t_body_cx, 0]) square([sv_l(s) + 0.6, sv_w(s) + 0.6], center = true);
                for (dx = [-1, 1]) translate([t_body_cx + dx * sv_hole_dx(s) / 2, 0]) circle(d = m2_pilot);
            }
            slab(z0 + 1, -deck_t) for (p = bracket_posts) translate(p) circle(d = boss_d);
        }
        slab(-deck_t - m3_insert_h, -deck_t + 1) for (p = bracket_posts) translate(p) circle(d = m3_insert_d);
    }
}

// ---------------------------------------------------------------- turntable, hub and turret gear
// One part: the disc, the hub pressed into the bearing's inner race and, under the deck, the
// 24-tooth gear the servo's 48-tooth gear drives (2:1). The hollow middle carries the cables.
module turntable() {
    // (the turned core reaches down inside the gear's teeth, so the two share no face but the bed's)
    rotate_extrude($fn = 96, convexity = 10) polygon([
        [cable_bore_d / 2, gear_z0], [gear_m * (gear_teeth[0] / 2 - 1.25) - 0.6, gear_z0],
        [gear_m * (gear_teeth[0] / 2 - 1.25) - 0.6, gear_z1 - 0.5], [bearing_bore / 2 - 0.05, gear_z1 - 0.5],
        [bearing_bore / 2 - 0.05, bearing_w], [bearing_race_in / 2 - 0.5, bearing_w],
        [bearing_race_in / 2 - 0.5, turntable_z0 + 0.5], [cable_bore_d / 2 + 2.5, turntable_z0 + 0.5],
        [cable_bore_d / 2 + 2.5, launcher_z0], [cable_bore_d / 2, launcher_z0]]);
    difference() {
        slab(turntable_z0, launcher_z0) difference() {
            circle(d = turntable_d, $fn = 96);
            circle(d = cable_bore_d + 3);
            for (p = ch_screw) translate(p) circle(d = m3_hole);
        }
        slab(turntable_z0 - 0.01, turntable_z0 - 0.01 + m3_nut_h) for (p = ch_screw) translate(p) nut_outline();
    }
    slab(gear_z0, gear_z1) difference() {
        gear_outline(gear_teeth[0]);
        circle(d = cable_bore_d + 3);
    }
}

// ---------------------------------------------------------------- servo gear (on the horn)
module servo_gear() {
    translate([servo_gear_xy[0], servo_gear_xy[1], gear_z0]) linear_extrude(gear_t, convexity = 10) difference() {
        gear_outline(gear_teeth[1]);
        horn_holes();
    }
}

// ---------------------------------------------------------------- chassis
// The walls start inside the plate (z = launcher_z0 + ch_plate_t / 2), see the top of this file.
ch_x0 = px0 - wall;
ch_top = floor_z0 - 0.3;                 // everything on the chassis stays under the magazine
feed_tab_y = hub_y0 + sv_horn_t(micro_servo) + sv_spline_h(micro_servo) + sv_h(micro_servo) - sv_tab_z(micro_servo);
feed_body_cx = feed_x - sv_spline_off(micro_servo);
n20_y0 = exit_w / 2 + 0.5;              // the gearbox's face
module chassis() {
    s = micro_servo;
    z0 = launcher_z0;
    zp = z0 + ch_plate_t / 2;           // walls root here
    slab(z0, z0 + ch_plate_t) difference() {
        union() {
            translate([ch_x0, -mag_y]) square([nose_x1 - ch_x0, 2 * mag_y]);
            // under the feed servo's wall
            translate([feed_body_cx - s[5] / 2 - 3, 0]) square([s[5] + 6, feed_tab_y + 5]);
        }
        for (p = ch_screw) translate(p) circle(d = m3_hole);
        circle(d = cable_bore_d);
    }
    // the feed servo's wall: its tabs against the wall's -Y face, the body through it
    translate([0, feed_tab_y, 0]) along_y(5) difference() {
        translate([feed_body_cx - s[5] / 2 - 3, z0]) square([s[5] + 6, feed_zc + sv_w(s) / 2 + 4 - z0]);
        translate([feed_body_cx - sv_l(s) / 2 - 0.4, feed_zc - sv_w(s) / 2 - 0.4]) square([sv_l(s) + 0.8, ch_top]);
        for (dx = [-1, 1]) translate([feed_body_cx + dx * sv_hole_dx(s) / 2, feed_zc]) circle(d = m2_pilot);
    }
    // ears carrying the back wheel's 6 mm steel pin (its hub and belt groove on the +Y side)
    for (y = [-tyre_w / 2 - 4, hub_y0 + 0.5]) translate([0, y, 0]) along_y(3.5) difference() {
        translate([back_x - 6, zp]) square([12, back_zc + 7 - zp]);
        translate([back_x, back_zc]) circle(d = oneway[0] + 0.2);
    }
    // the exit motor's cradle: the N20 presses in from above, a zip tie round the cradle holds it
    translate([0, n20_y0, 0]) along_y(n20[2]) difference() {
        translate([pinch_x - n20[0] / 2 - wall, z0]) square([n20[0] + 2 * wall, exit_zc - z0]);
        translate([pinch_x - n20[0] / 2 - 0.2, exit_zc - n20[1] / 2 - 0.2]) square([n20[0] + 0.4, n20[1]]);
    }
    // the magazine's bosses, with its inserts
    difference() {
        slab(z0, floor_z0) for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = boss_d);
        slab(floor_z0 - m3_insert_h, floor_z0 + 1) for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = m3_insert_d);
    }
}

// ---------------------------------------------------------------- magazine
mag_h = floor_t + mag_wall_h;
arch_gap = 2;                              // straight part of the throat and beam openings
arch_top = floor_t + arch_gap + pocket_w / 2 + 6;
gate_screw_y = mag_y + 4;                  // gate screws in the front wall's ears
gate_screw_z = floor_t + 15;               // above the magazine floor's underside
insert_depth = front_t - 0.6;              // the gate's inserts, from the front wall's face
// the pinch's ears (heights from the floor's underside): the pin's slot, the spring's bore over
// it, the set screw's pilot over that
ear_y0 = pocket_w / 2;                     // the ears' inner faces: the card pocket's width
slot_z0 = idler_zc - m3_hole / 2 - 0.5 - floor_z0;   // the pin never bottoms: the springs press the nip
slot_z1 = idler_zc + m3_hole / 2 + pinch_lift - floor_z0;
bore_z1 = idler_zc + idler_pin[0] / 2 + pinch_spring_len - floor_z0;   // the set screw's tip
ear_h = bore_z1 + pinch_screw[1];
jack_out = gate_t + sep_plate_t + 2;       // the jack gussets reach over the gate and the separator's plate
jack_z0 = gate_screw_z + 10 + gate_adjust + 1;   // the gussets' root over the gate's highest top (from floor_z0)
module magazine() {
    difference() {
        each_at([0, 0, floor_z0]) {
            // the floor: flanges over the chassis' bosses; slots for the tyre, the back roller,
            // the exit roller and the pinch's rubber bands
            linear_extrude(floor_t, convexity = 10) difference() {
                union() {
                    translate([px0 - wall, -mag_y]) square([nose_x1 - px0 + wall, 2 * mag_y]);
                    for (s = [-1, 1]) translate([mag_boss_x[0] - 6, s > 0 ? mag_y - 0.01 : -mag_y - flange_w + 0.01])
                        square([mag_boss_x[1] - mag_boss_x[0] + 12, flange_w]);
                }
                translate([feed_x - 12, -tyre_w / 2 - 1]) square([24, tyre_w + 2]);
                translate([back_x - 12, -tyre_w / 2 - 1]) square([24, tyre_w + 2]);
                translate([pinch_x - 9, -exit_w / 2 - 1]) square([18, exit_w + 2]);
                for (x = mag_boss_x, s = [-1, 1]) translate([x, s * mag_boss_y]) circle(d = m3_hole);
            }
            // the side walls and the back wall, rooted in the floor
            slab(floor_t / 2, mag_h) for (s = [-1, 1]) {
                translate([px0 - wall, s > 0 ? pocket_w / 2 : -mag_y]) square([pocket_l + wall + 0.01, wall]);
                translate([px0 - wall, -pocket_w / 2 - 0.01]) square([wall, pocket_w + 0.02]);
            }
            // low lips along the nose, and the ears with the pinch idler's axle slots
            slab(floor_t / 2, floor_t + 4) for (s = [-1, 1])
                translate([gate_x - 0.01, s > 0 ? pocket_w / 2 : -mag_y]) square([nose_x1 - gate_x + 0.01, wall]);
            pinch_ears();
            // the front wall over the throat
            translate([px1, 0, 0]) along_x(front_t) front_wall_section();
            // the gate's jack screws: a 45° gusset over each of its ears
            for (s = [-1, 1]) translate([0, s * gate_screw_y - 3.5, 0]) along_y(7)
                polygon([[gate_x - 1, jack_z0 - 1], [gate_x, jack_z0], [gate_x + jack_out, jack_z0 + jack_out],
                         [gate_x + jack_out, jack_z0 + jack_out + 3], [gate_x - 1, jack_z0 + jack_out + 3]]);
            // the beam arch over the nose
            translate([beam_x - 4, 0, floor_t / 2]) along_x(8) difference() {
                translate([-mag_y, 0]) square([2 * mag_y, arch_top - floor_t / 2]);
                translate([0, floor_t / 2]) gable(pocket_w, arch_gap);
            }
        }
        each_at([0, 0, floor_z0]) {
            // past the land the nose floor ramps down nose_drop (risers face away from the card)
            translate([0, -pocket_w / 2, 0]) along_y(pocket_w) polygon([
                [land_x1, floor_t + 0.01], [land_x1 + ramp_len, floor_t - nose_drop],
                [nose_x1 + 1, floor_t - nose_drop], [nose_x1 + 1, floor_t + 0.01]]);
            // IR break-beam: receiver under the nose floor, emitter in the arch, facing each other
            translate([beam_x, 0, -1]) cylinder(d = beam_hole_d, h = arch_top + 2);
            // the gate's inserts, in the front wall's face
            translate([gate_x - insert_depth, 0, 0]) along_x(insert_depth + 0.01)
                for (s = [-1, 1]) translate([s * gate_screw_y, gate_screw_z]) circle(d = m3_insert_d);
            // the jack screws' pilot holes, down through the gussets
            slab(jack_z0 - 2, jack_z0 + jack_out + 4) for (s = [-1, 1]) translate([gate_x + gate_t / 2, s * gate_screw_y]) circle(d = m3_pilot);
        }
    }
}
// The pinch's two ears, outside the card's width, drawn as stacked slabs (all 2D): solid under
// the pin; the pin's slot (through, across the path) with the spring's bore; the bore; the set
// screw's pilot. Heights from the floor's underside; the ears stand on the bed.
module ear_block(y0) translate([pinch_x - ear_l / 2, y0]) square([ear_l, ear_t]);
module pinch_ears() for (s = [-1, 1]) let(y0 = s > 0 ? ear_y0 : -ear_y0 - ear_t, bore = [pinch_x, s * (ear_y0 + ear_t / 2)]) {
    slab(0, slot_z0) ear_block(y0);
    slab(slot_z0 - 0.01, slot_z1) difference() {
        ear_block(y0);
        translate([pinch_x - m3_hole / 2, y0 - 1]) square([m3_hole, ear_t + 2]);
        translate(bore) circle(d = pinch_spring[1] + 0.4);
    }
    slab(slot_z1 - 0.01, bore_z1) difference() {
        ear_block(y0);
        translate(bore) circle(d = pinch_spring[1] + 0.4);
    }
    slab(bore_z1 - 0.01, ear_h) difference() {
        ear_block(y0);
        translate(bore) circle(d = m3_pilot);
    }
}
// the front wall across the magazine (y, z): the throat opening, straight sides and a 45-degree roof
module front_wall_section() difference() {
    translate([-gate_screw_y - 4, 0]) square([2 * gate_screw_y + 8, mag_h]);
    translate([0, floor_t]) gable(pocket_w, arch_gap + 2);
}

// ---------------------------------------------------------------- gate (sets the throat)
gate_w = 2 * gate_screw_y + 8;
gate_edge_z = land_z + throat_h;           // the steel edge: the throat over the land
gate_print_z = gate_edge_z + shim_proud;   // the printed gate's lower edge
gate_h = floor_z0 + gate_screw_z + 10 - gate_print_z;
shim_h = gate_shim[1] - shim_proud + 0.1;  // the recess, up from the printed edge: its top holds the shim
// flat: x across the throat, y up from its printed lower edge, z its thickness (z = 0 faces the
// separator's plate: the shim's recess is cut from that face)
module gate_flat() {
    module outline() difference() {
        translate([-gate_w / 2, 0]) square([gate_w, gate_h]);
        for (s = [-1, 1]) hull() for (dz = [-gate_adjust, gate_adjust])
            translate([s * gate_screw_y, floor_z0 + gate_screw_z - gate_print_z + dz]) circle(d = m3_hole);
    }
    translate([0, 0, shim_recess - 0.01]) linear_extrude(gate_t - shim_recess + 0.01, convexity = 10) outline();
    linear_extrude(shim_recess, convexity = 10) difference() {
        outline();
        translate([-gate_shim[2] / 2 - 0.2, -1]) square([gate_shim[2] + 0.4, shim_h + 1]);
    }
}
module gate() {
    translate([gate_x + gate_t, 0, gate_print_z]) rotate([90, 0, -90]) gate_flat();
}
// the steel shim (not printed): its lower edge is the throat's
module gate_shim() color("#999") translate([gate_x + gate_t - shim_recess, -gate_shim[2] / 2, gate_edge_z])
    cube([gate_shim[0], gate_shim[2], gate_shim[1]]);

// ---------------------------------------------------------------- separator (sleeve and shoe)
// Screwed over the gate (and its shim) with the same screws: a plate carrying a sleeve over the
// card path, in which the shoe slides up and down, sep_clear of air all round it; the spring in
// the sleeve pushes the shoe onto the land.
sep_bore = [sep_len + 2 * sep_clear, sep_w + 2 * sep_clear];   // the sleeve's bore (x along the path, y across)
sep_z0 = land_z + sep_sleeve_gap;              // the plate's and the sleeve's underside
sep_rest_z = land_z;                           // the shoe's underside resting on the land
sep_spring_z = sep_rest_z + 2;                 // the spring's lower end, in the shoe's pocket
sep_roof_z = sep_spring_z + sep_spring_len;    // the sleeve's roof: the spring's upper end
sep_h = max(floor_z0 + gate_screw_z + 8, sep_roof_z + sep_sleeve_t) - sep_z0;
// flat: x across the path, y up from the plate's underside, z out from the gate's face
module separator_flat() {
    linear_extrude(sep_plate_t, convexity = 10) difference() {
        translate([-gate_w / 2, 0]) square([gate_w, sep_h]);
        for (s = [-1, 1]) hull() for (dz = [-gate_adjust, gate_adjust])
            translate([s * gate_screw_y, floor_z0 + gate_screw_z - sep_z0 + dz]) circle(d = m3_hole);
    }
    // the sleeve: three walls and the roof round the bore, rooted in the plate
    translate([0, 0, sep_plate_t - 0.5]) linear_extrude(sep_bore[0] + sep_sleeve_t + 0.5, convexity = 10) difference() {
        translate([-sep_bore[1] / 2 - sep_sleeve_t, 0]) square([sep_bore[1] + 2 * sep_sleeve_t, sep_roof_z + sep_sleeve_t - sep_z0]);
        translate([-sep_bore[1] / 2, -1]) square([sep_bore[1], sep_roof_z - sep_z0 + 1]);
    }
    translate([-sep_bore[1] / 2 - sep_sleeve_t, 0, sep_plate_t + sep_bore[0]]) cube([sep_bore[1] + 2 * sep_sleeve_t, sep_roof_z + sep_sleeve_t - sep_z0, sep_sleeve_t]);
}
module separator() translate([gate_x + gate_t + shim_gap, 0, sep_z0]) rotate([90, 0, 90]) separator_flat();
// The shoe (x along the path, z up from its pad's underside): an arc of sep_shoe_r underneath,
// the spring's pocket from the top. The pad is a strip of 1 mm silicone sheet glued under it.
module separator_shoe_flat() {
    difference() {
        along_y(sep_w) intersection() {
            translate([-sep_len / 2, sep_pad_t]) square([sep_len, sep_shoe_h - sep_pad_t]);
            translate([0, sep_shoe_r]) circle(r = sep_shoe_r - sep_pad_t, $fn = 180);
        }
        translate([0, sep_w / 2, sep_spring_z - sep_rest_z]) cylinder(d = sep_spring[1] + 0.4, h = sep_shoe_h);
    }
}
module separator_shoe(lift = 0) translate([sep_x, -sep_w / 2, sep_rest_z + lift]) separator_shoe_flat();
module separator_pad(lift = 0) color("#c33") translate([sep_x, sep_w / 2, sep_rest_z + lift]) rotate([90, 0, 0])
    linear_extrude(sep_w) intersection() {
        translate([-sep_len / 2, 0]) square([sep_len, sep_pad_t]);
        difference() {
            translate([0, sep_shoe_r]) circle(r = sep_shoe_r, $fn = 180);
            translate([0, sep_shoe_r]) circle(r = sep_shoe_r - sep_pad_t, $fn = 180);
        }
    }

// ---------------------------------------------------------------- follower (rests on the stack)
follower_w = pocket_w - 2 * fit - 1;
follower_l = pocket_l - 2;
module follower_flat() {
    difference() {
        translate([-follower_l / 2, -follower_w / 2, 0]) cube([follower_l, follower_w, follower_h]);
        // the ballast's pocket (a piece of steel flat bar), in the middle, between the two tyres
        translate([-ballast[0] / 2 - 0.3, -ballast[1] / 2 - 0.3, follower_h - ballast[2] - 0.2])
            cube([ballast[0] + 0.6, ballast[1] + 0.6, follower_h]);
    }
    translate([-follower_l / 2 + 6, -3, 0]) cube([6, 6, follower_h + 8]);   // handle
}
module follower(cards = cards_full) {
    translate([(px0 + px1) / 2, 0, path_z + cards * card_t]) follower_flat();
}

// ---------------------------------------------------------------- feed wheel, hub, rollers
// Feed wheel: two grooves for 2 mm O-rings, a bore for the HF0612 one-way bearing (the exit
// pinch pulls the card faster than the servo turns: the wheel overruns instead of braking it).
module feed_wheel_flat() {
    rotate_extrude($fn = 64, convexity = 10) difference() {
        translate([oneway_sleeve[0] / 2 + 0.05, 0]) square([wheel_rim_r - oneway_sleeve[0] / 2 - 0.05, tyre_w]);
        for (z = [tyre_w / 4, 3 * tyre_w / 4]) v_groove(wheel_rim_r, groove_depth, z);
    }
}
// Feed hub (print two): on the FS90R's round horn, and on the back wheel's pin; a 6 mm steel
// pin pressed in is the one-way bearing's shaft; a 20-tooth GT2 pulley between the horn's disc
// and a 45° flange takes the timing belt.
// a GT2 pulley's outline, near enough to print: tips at pulley_r, a round gap per tooth
module gt2_outline() difference() {
    circle(r = pulley_r, $fn = 80);
    for (i = [0 : gt2[1] - 1]) rotate(i * 360 / gt2[1]) translate([pulley_r - 0.75 + 0.555, 0]) circle(r = 0.555, $fn = 12);
}
module feed_hub_flat() {
    teeth = [hub_flange[1], hub_t - 2.5];   // the teeth, from the horn's face
    difference() {
        union() {
            // turned in one piece: the horn's disc, the core, the flange, the boss holding the pin
            rotate_extrude($fn = 64, convexity = 10) difference() {
                polygon([[oneway[0] / 2 - 0.05, 0], [hub_flange[0], 0], [hub_flange[0], teeth[0]],
                         [pulley_r - 1, teeth[0]], [pulley_r - 1, teeth[1]], [pulley_r + 1.5, teeth[1] + 2.5],
                         [6, teeth[1] + 2.5], [6, hub_t + hub_boss], [oneway[0] / 2 - 0.05, hub_t + hub_boss]]);
                translate([0, -1]) square([horn_hub_d / 2, 2.2]);   // the horn's hub, bed side
            }
            translate([0, 0, teeth[0] - 0.01]) linear_extrude(teeth[1] - teeth[0] + 0.02, convexity = 10) difference() {
                gt2_outline();
                circle(r = pulley_r - 1.5);
            }
        }
        for (a = [0 : 90 : 270]) rotate(a + 45) translate([horn_hole_r, 0, -1]) cylinder(d = m2_pilot, h = hub_flange[1] + 1, $fn = 12);
    }
}
// Exit roller: on the N20's 3 mm D shaft; two O-ring grooves give the grip.
module exit_roller_flat() {
    rotate_extrude($fn = 64, convexity = 10) difference() {
        translate([1.5, 0]) square([exit_rim_r - 1.5, exit_w]);
        for (z = [exit_w / 4, 3 * exit_w / 4]) v_groove(exit_rim_r, groove_depth, z);
    }
    linear_extrude(exit_w - 3, convexity = 10) intersection() {   // the D flat: 2.5 mm across
        circle(r = 1.6);
        translate([-2, -2]) square([4, 1]);
    }
}
// Idler roller: over the exit roller on two MR63ZZ ball bearings (one pressed into each end)
// on a 3 mm steel pin; two 1.5 mm O-rings over the exit roller's grip the card. It runs the
// whole width between the ears, which keep it in place along the pin.
module idler_roller_flat() {
    rotate_extrude($fn = 48, convexity = 10) difference() {
        translate([idler_bearing[0] / 2 + 0.4, 0]) square([idler_rim_r - idler_bearing[0] / 2 - 0.4, idler_len]);
        for (z = [idler_len / 2 - idler_w / 4, idler_len / 2 + idler_w / 4]) v_groove(idler_rim_r, 1.2, z);
        for (z = [-1, idler_len - idler_bearing[2]]) translate([0, z]) square([idler_bearing[1] / 2 - 0.05, idler_bearing[2] + 1]);
    }
}
// a 90° V groove for an O-ring in a turned part's outline: its bottom depth under the rim
module v_groove(rim, depth, z) polygon([[rim - depth, z], [rim + 0.01, z - depth - 0.01], [rim + 0.01, z + depth + 0.01]]);
module feed_wheel() translate([feed_x, tyre_w / 2, feed_zc]) rotate([90, 0, 0]) feed_wheel_flat();
module feed_hub(x = feed_x) translate([x, hub_y0, feed_zc]) rotate([90, 0, 0]) feed_hub_flat();
module back_wheel() translate([back_x, tyre_w / 2, back_zc]) rotate([90, 0, 0]) feed_wheel_flat();
module exit_roller() translate([feed_x * 0 + pinch_x, exit_w / 2, exit_zc]) rotate([90, 0, 0]) exit_roller_flat();
module pinch_idler() translate([pinch_x, idler_len / 2, idler_zc]) rotate([90, 0, 0]) idler_roller_flat();

// ---------------------------------------------------------------- stand-ins (not printed)
module servo_body(s) {
    color("#333") translate([-sv_l(s) / 2, -sv_w(s) / 2, 0]) cube([sv_l(s), sv_w(s), sv_h(s)]);
    color("#333") translate([-sv_l(s) / 2 - (s[5] - sv_l(s)) / 2, -sv_w(s) / 2, sv_tab_z(s)]) cube([s[5], sv_w(s), sv_tab_t(s)]);
    color("#ddd") translate([sv_spline_off(s), 0, sv_h(s)]) cylinder(d = 5, h = sv_spline_h(s));
}
// an O-ring (stand-in) seated on a turned part whose axis runs along Y: [inside, cord], seat
module oring_at(x, y, z, seat) translate([x, y, z]) rotate([90, 0, 0])
    rotate_extrude($fn = 48) translate([seat[2] - seat[1] / 2, 0]) circle(d = seat[1], $fn = 16);
module tyre_orings(x) for (y = [-tyre_w / 4, tyre_w / 4]) oring_at(x, y, feed_zc, tyre_seat);
module exit_orings() for (y = [-exit_w / 4, exit_w / 4]) oring_at(pinch_x, y, exit_zc, exit_seat);
module idler_orings() for (y = [-idler_w / 4, idler_w / 4]) oring_at(pinch_x, y, idler_zc, idler_seat);
// the idler's steel pin with its collars, and the pinch's springs in the ears' bores
module idler_pin() {
    translate([pinch_x, idler_pin[1] / 2, idler_zc]) rotate([90, 0, 0]) cylinder(d = idler_pin[0], h = idler_pin[1], $fn = 16);
    for (s = [-1, 1]) translate([pinch_x, s > 0 ? ear_y0 + ear_t + 0.5 + collar[1] : -ear_y0 - ear_t - 0.5, idler_zc])
        rotate([90, 0, 0]) cylinder(d = collar[0], h = collar[1], $fn = 24);
}
module pinch_springs() for (s = [-1, 1]) translate([pinch_x, s * (ear_y0 + ear_t / 2), idler_zc + idler_pin[0] / 2])
    cylinder(d = pinch_spring[1], h = pinch_spring_len, $fn = 16);
module belt() translate([0, hub_y0 - hub_flange[1] - 0.5, 0]) rotate([90, 0, 0]) linear_extrude(gt2[3]) difference() {
    hull() for (x = [back_x, feed_x]) translate([x, feed_zc]) circle(r = pulley_r + 1.4);
    hull() for (x = [back_x, feed_x]) translate([x, feed_zc]) circle(r = pulley_r);
}
module n20_motor() color("#aaa") translate([pinch_x - n20[0] / 2, n20_y0, exit_zc - n20[1] / 2]) cube([n20[0], n20[2], n20[1]]);
module card_stack(cards = cards_full) {
    color("#d22") translate([gate_x - card_l, -card_w / 2, path_z]) cube([card_l, card_w, cards * card_t]);
}
module pi_board() color("#1a6", 0.9) translate([pi_x0, pi_y0, tray_z0 + wall + standoff_h]) cube([pi_size[0], pi_size[1], 1.6]);
module dist_board() color("#c84", 0.9) translate([dist_xy[0] - dist_size[0] / 2, dist_xy[1] - dist_size[1] / 2, tray_z0 + wall + standoff_h]) cube([dist_size[0], dist_size[1], 1.6]);
module amp_board() color("#33a") translate([amp_xy[0] - amp_size[0] / 2, amp_xy[1] - amp_size[1] / 2, tray_z0 + wall]) cube(amp_size);
module speaker() color("#222") translate([speaker_xy[0], speaker_xy[1], tray_z0 + wall]) cylinder(d = speaker_d, h = speaker_h);
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
                circle(d = cable_bore_d);   // the cables go down the hollow middle
                // slots for a hook-and-loop strap over the launcher, left and right
                for (s = [-1, 1]) translate([-11, s * (launcher_d / 2 - 6) - 2]) square([22, 4]);
            }
            // the screws' heads sink into the plate (and the rim)
            slab(launcher_z0 + retrofit_t - 3, launcher_z0 + top + 2) for (p = ch_screw) translate(p) circle(d = m3_head_d + 0.4);
        }
    }
}

// ---------------------------------------------------------------- camera mast, arm, mounts, tray
// The mast stands on the table against the base's -Y wall (two M3 x 20 through the wall, nuts
// inside); the arm, one L, is screwed beside it: its leg up the mast, its boom out over the
// discard tray. Holes in the mast at three heights: the arm's upper pair of positions carries the
// Camera Module 3, the lower the webcam (joint_drop lower). Both are extrusions along X of an
// outline in the YZ plane, so the parts files print them lying on that outline.
module mast_outline() difference() {
    translate([mast_y1, mast_z0]) square([mast_d, mast_len]);
    for (z = mast_holes) translate([(mast_y0 + mast_y1) / 2, z]) circle(d = m3_hole);
}
module camera_mast() difference() {
    translate([mast_x - mast_w / 2, 0, 0]) along_x(mast_w) mast_outline();
    for (z = mast_screw_z) translate([mast_x, mast_y0 + 1, z]) rotate([90, 0, 0]) cylinder(d = m3_hole, h = mast_d + 2);
    // the screw up through the tray's tab
    translate([mast_x, (mast_y0 + mast_y1) / 2, mast_z0 - 1]) cylinder(d = m3_pilot, h = 13);
}
module arm_outline() difference() {
    union() {
        translate([mast_y1, leg_z0]) square([mast_d, boom_z0 + boom_t - leg_z0]);
        translate([boom_y1, boom_z0]) square([mast_y0 - boom_y1, boom_t]);
    }
    for (z = leg_holes) translate([(mast_y0 + mast_y1) / 2, z]) circle(d = m3_hole);
}
module camera_arm() difference() {
    translate([arm_x0, 0, 0]) along_x(arm_t) arm_outline();
    // the camera mount's two screws, up through the boom
    for (dy = mount_holes) translate([tray_c[0], tray_c[1] + dy, boom_z0 - 1]) cylinder(d = m3_pilot, h = boom_t + 2);
}
// a camera mount: a plate under the boom on two bosses, drawn in place (plate on the bed when printed)
module mount_plate(size) {
    slab(lens_z, lens_z + mount_t) difference() {
        translate(tray_c) square(size, center = true);
        translate(tray_c) children();
        for (dy = mount_holes) translate([tray_c[0], tray_c[1] + dy]) circle(d = m3_hole);
    }
    slab(lens_z + mount_t / 2, boom_z0) for (dy = mount_holes) translate([tray_c[0], tray_c[1] + dy]) difference() {
        circle(d = 8);
        circle(d = m3_hole);
    }
}
// Camera Module 3: its four M2 holes (21 x 12.5 mm), the lens through the plate, facing down
module camera_mount_cm3() mount_plate([34, 40]) {
    square([12, 16], center = true);
    for (x = [-10.5, 10.5], y = [-6.25, 6.25]) translate([x, y]) circle(d = m2_pilot);
}
// a USB webcam: a 1/4" screw into its tripod thread, or a strap through the two slots
module camera_mount_usb() mount_plate([34, 40]) {
    circle(d = 6.6);
    for (x = [-12, 12]) translate([x, 0]) square([3, 24], center = true);
}
// the discard tray on the table, a dark print; its tab runs under the mast's foot and is screwed
// to it (M3 x 12 up into the mast), so the tray, the mast and the box stand as one
module discard_tray() {
    outer = tray_in + 2 * [tray_rim, tray_rim];
    difference() {
        union() {
            translate([tray_c[0] - outer[0] / 2, tray_c[1] - outer[1] / 2, table_z]) cube([outer[0], outer[1], tray_rim_h]);
            slab(table_z, table_z + tray_tab_t) translate([mast_x - mast_w / 2, mast_y1 - 3]) square([mast_w, mast_d + 1]);
        }
        union() {
            translate([tray_c[0] - tray_in[0] / 2, tray_c[1] - tray_in[1] / 2, table_z + tray_floor]) cube([tray_in[0], tray_in[1], tray_rim_h]);
            translate([mast_x, (mast_y0 + mast_y1) / 2, table_z - 1]) cylinder(d = m3_hole, h = tray_tab_t + 2);
        }
    }
}
module camera_stand_ins(webcam = false) {
    {
        // the LED pieces in their opal profiles, under the boom either side of the lens
        for (s = [-1, 1]) color("#fff", 0.9) translate([tray_c[0] - 8.5, tray_c[1] + s * led_off - led_len / 2, boom_z0 - 8]) cube([17, led_len, 8]);
        if (webcam) color("#222") translate([tray_c[0] - 40, tray_c[1] - 15, lens_z - webcam_depth]) cube([80, 30, webcam_depth]);
        else color("#1a6") translate([tray_c[0] - 12.5, tray_c[1] - 12, lens_z + mount_t]) cube([25, 24, 2]);
    }
}
