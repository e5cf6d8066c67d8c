// Echoes the dimensions the fit tests and the feed simulation read (openscad -o fit.echo fit.scad).
// Nothing to print. A test may override any value with -D name=value to set one wrong.
include <parts/lib/parts.scad>

function fit(name, value) = echo(str("FIT ", name, "=", value)) 0;
_ = [
    fit("card", [card_w, card_l, card_t]), fit("card_t_range", card_t_range),
    fit("card_mass", card_mass), fit("card_modulus", card_modulus), fit("cards_full", cards_full), fit("cards_min", cards_min),
    fit("bed", bed), fit("density", pla_density), fit("print_fill", print_fill),
    fit("home_heading", home_heading),
    fit("pocket", [px0, px1, pocket_w]), fit("path_z", path_z), fit("floor_top", floor_top),
    fit("wall_top", floor_z0 + mag_h), fit("follower", [follower_h, follower_mass, (px0 + px1) / 2, (px0 + px1) / 2 + follower_l / 2]),
    fit("gate", [gate_x, gate_t, gate_edge_z]), fit("throat_h", throat_h), 
    fit("gate_screws", [for (s = [-1, 1]) [s * gate_screw_y, floor_z0 + gate_screw_z]]),
    fit("gate_adjust", gate_adjust),
    fit("separator", [sep_x, sep_len, sep_force, sep_w, sep_rate, sep_shoe_r, sep_shoe_mass]),
    fit("separator_sleeve", [sep_z0, sep_rest_z, sep_roof_z, sep_spring_len, sep_spring[0] * (sep_spring[2] + 2)]),
    fit("nose_top", land_z - nose_drop),
    // the land under the gate: [its top, where it ends, the ramp's length]; the throat is over it
    fit("land", [land_z, land_x1, ramp_len]), fit("tyre_sink", tyre_sink), fit("layer", layer),
    // the steel shim: [its face toward the stack, thickness, its edge (the throat), how far under
    // the printed edge, length, height]
    fit("gate_shim", [gate_x + gate_t - shim_recess, gate_shim[0], gate_edge_z, shim_proud, gate_shim[2], gate_shim[1]]),
    // what may reach into the card's path, and how deep (mm): the working faces only
    fit("card_contacts", [["tyre O-rings", floor_relief], ["exit roller O-rings", nip_lift],
                          ["idler O-rings", card_t_range[1] - nip_lift], ["separator pad", card_t_range[1]]]),
    // the pinch: its ears' inner and outer faces (y), the pin [diameter, length], the springs
    // [wire, outside diameter, coils, free length], installed length, the slot's lift
    fit("pinch_ears", [ear_y0, ear_y0 + ear_t, idler_pin, idler_len]),
    fit("pinch_springs", [pinch_spring, pinch_spring_len, pinch_lift]),
    fit("separator_guide", [sep_clear, sep_spring]),
    // the follower's steel ballast [length, width, thickness], steel's density; the one-way
    // bearings' steel sleeves [outside diameter, wall]
    fit("ballast", [ballast, steel_density]), fit("oneway_sleeve", [oneway_sleeve, oneway]), fit("front_wall_z", floor_z0 + floor_t + arch_gap + 2), fit("friction", [card_mu, tyre_mu, plastic_mu]),
    // O-rings: [name, [inside diameter, cord], stretch, cord on the groove, top radius]
    fit("orings", [["tyre", tyre_oring, each tyre_seat], ["exit roller", exit_oring, each exit_seat],
                   ["idler", idler_oring, each idler_seat]]),
    // the GT2 belt [pitch, pulley teeth, belt teeth, width] and the hubs' centre distance
    fit("timing_belt", [gt2, feed_x - back_x]),
    fit("pinch", [pinch_force, pinch_rate, idler_bearing]), fit("rims", [wheel_rim_r, exit_rim_r, idler_rim_r]),
    fit("gate_jack", [gate_jack, floor_z0 + jack_z0, gate_edge_z + gate_h]),
    fit("feed", [feed_x, feed_zc, tyre_r, tyre_w, feed_rpm, feed_torque]),
    fit("back_wheel", [back_x, back_zc, tyre_r, tyre_w]),
    fit("exit", [pinch_x, exit_zc, exit_r, exit_w, exit_rpm, idler_zc, idler_r, pinch_force, exit_stall]),
    fit("table_to_deck", foot_h + tray_h + deck_t),
    fit("launch_angle", launch_angle), fit("nip_lift", nip_lift),
    fit("beam", [beam_x, 0]), fit("nose_x1", nose_x1), fit("arch_top", floor_z0 + arch_top),
    fit("magazine_z0", floor_z0), fit("chassis_top", ch_top),
    fit("sweep_r", sweep_r), fit("button", [button_x, 0, button_dome_d, button_hole_d, button_depth]),
    fit("turntable", [turntable_d, turntable_z0, launcher_z0]),
    fit("bearing", [bearing_d, bearing_bore, bearing_w, bearing_race_in, lip_hole_d, collar_d]),
    fit("gears", [gear_m, gear_teeth[0], gear_teeth[1], gear_z0, gear_z1]),
    fit("servo_gear_xy", servo_gear_xy), fit("servo_range", servo_range),
    fit("turret_range", turret_range), fit("cable_bore_d", cable_bore_d),
    fit("bracket_posts", bracket_posts), fit("boss_d", boss_d),
    fit("base", [base_x0, base_x1, base_w]), fit("base_corners", base_corners),
    fit("z", [tray_z0, -deck_t, foot_h]), fit("ch_screw", ch_screw),
    fit("mag_bosses", [for (x = mag_boss_x, s = [-1, 1]) [x, s * mag_boss_y]]),
    fit("pi_holes", pi_holes), fit("dist_holes", dist_holes),
    fit("turret_servo_holes", [for (dx = [-1, 1]) [t_body_cx + dx * sv_hole_dx(turret_servo) / 2, 0]]),
    fit("feed_servo_holes", [for (dx = [-1, 1]) [feed_body_cx + dx * sv_hole_dx(micro_servo) / 2, feed_tab_y, feed_zc]]),
    fit("horn", [horn_screw, horn_hole_r]), fit("panel_holes", [jack_hole_d, shutdown_hole_d]),
    // boxes of what sits in the base, [name, [x0, y0, z0], [x1, y1, z1]]: none may overlap
    fit("base_boxes", [
        ["pi", [pi_x0, pi_y0, tray_z0 + wall + standoff_h], [pi_x0 + pi_size[0], pi_y0 + pi_size[1], tray_z0 + wall + standoff_h + pi_size[2]]],
        ["distribution board", [dist_xy[0] - dist_size[0] / 2, dist_xy[1] - dist_size[1] / 2, tray_z0 + wall + standoff_h],
                               [dist_xy[0] + dist_size[0] / 2, dist_xy[1] + dist_size[1] / 2, tray_z0 + wall + standoff_h + dist_size[2]]],
        ["amplifier", [amp_xy[0] - amp_size[0] / 2 - 3.5, amp_xy[1] - 4, tray_z0], [amp_xy[0] + amp_size[0] / 2 + 3.5, amp_xy[1] + 4, tray_z0 + wall + amp_size[2]]],
        ["speaker", [speaker_xy[0] - speaker_d / 2 - wall, speaker_xy[1] - speaker_d / 2 - wall, tray_z0],
                    [speaker_xy[0] + speaker_d / 2 + wall, speaker_xy[1] + speaker_d / 2 + wall, tray_z0 + wall + speaker_h]],
        ["HIT switch", [button_x - 12, -12, -deck_t - button_depth], [button_x + 12, 12, -deck_t]],
        ["piezo cradle", [buzzer_xy[0] - buzzer_d / 2 - 2, buzzer_xy[1] - buzzer_d / 2 - 2, tray_z0], [buzzer_xy[0] + buzzer_d / 2 + 2, buzzer_xy[1] + buzzer_d / 2 + 2, -deck_t]],
        ["turret servo", [t_body_cx - turret_servo[5] / 2, -sv_w(turret_servo) / 2, t_body_bot_z], [t_body_cx + turret_servo[5] / 2, sv_w(turret_servo) / 2, gear_z0 - 0.01]],
        ["servo gear", [servo_gear_xy[0] - gear_tip_r(gear_teeth[1]), -gear_tip_r(gear_teeth[1]), gear_z0], [servo_gear_xy[0] + gear_tip_r(gear_teeth[1]), gear_tip_r(gear_teeth[1]), gear_z1]],
        ["cable loop", [-15, -15, tray_z0 + wall], [15, 15, gear_z0 - 0.01]],
        ["camera mast nuts", [mast_x - 5, -base_w / 2 + wall, mast_screw_z[0] - 4], [mast_x + 5, -base_w / 2 + wall + m3_nut_h + 1.4, mast_screw_z[1] + 4]],
    ]),
    // the camera arm, its tray and its light
    fit("camera_optics", [frame_px, card_px, cm3_fov, webcam_hfov, lens_h, webcam_depth]),
    fit("tray", [tray_c, tray_in, tray_rim, tray_floor, tray_rim_h]), fit("table_z", table_z),
    fit("mast", [mast_x, mast_w, mast_y0, mast_y1, mast_top, mast_holes, mast_screw_z]),
    fit("arm", [arm_x0, arm_t, leg_z0, leg_holes, boom_z0, boom_t, boom_y1, lens_z, joint_drop]),
    fit("mount", [mount_t, mount_boss, mount_holes]),
    fit("led", [led_len, led_off, led_current]), fit("cable_slot", cable_slot),
    // what stands on the table: the base's feet and the tray screwed to the mast
    fit("feet", concat(base_corners, [for (sx = [-1, 1], sy = [-1, 1]) tray_c + [sx * (tray_in[0] / 2 + tray_rim), sy * (tray_in[1] / 2 + tray_rim)]])),
    fit("tray_tab", [tray_tab_t, mast_z0]),
    fit("camera_parts", ["camera_mast", "camera_arm", "camera_mount_usb", "discard_tray", "webcam", "LED light"]),
    // parts printed lying on their side: [name, x of their print origin] (print z = assembly x)
    fit("laid_on_side", [["camera_mast", mast_x - mast_w / 2], ["camera_arm", arm_x0]]),
    // corners of what turns with the launcher but is not printed: the feed servo, the exit motor
    fit("turning_stand_ins", [
        for (sx = [-1, 1]) [feed_body_cx + sx * micro_servo[5] / 2, feed_tab_y + sv_tab_z(micro_servo)],
        for (sx = [-1, 1]) [pinch_x + sx * n20[0] / 2, n20_y0 + n20[2]],
    ]),
    fit("gear_tip_r", [gear_tip_r(gear_teeth[0]), gear_tip_r(gear_teeth[1])]),
    fit("bracket_z", [t_tab_z - bracket_t, t_tab_z]),
    // where each printed part sits: [name, z offset from print to assembly, mirrored in z, turns]
    fit("placements", [
        ["base_tray", tray_z0, false, false], ["deck", -deck_t, false, false],
        ["turret_bracket", t_tab_z - bracket_t, false, false],
        ["turntable", launcher_z0, true, true], ["chassis", launcher_z0, false, true],
        ["magazine", floor_z0, false, true], ["camera_mount_usb", lens_z, false, false],
        ["discard_tray", table_z, false, false],
    ]),
    // the small parts' places in the assembly (their centres)
    fit("centres", [
        ["servo_gear", [servo_gear_xy[0], servo_gear_xy[1], (gear_z0 + gear_z1) / 2], false],
        ["feed_wheel", [feed_x, 0, feed_zc], true], ["feed_hub", [feed_x, hub_y0 - 3, feed_zc], true],
        ["exit_roller", [pinch_x, 0, exit_zc], true], ["idler_roller", [pinch_x, 0, idler_zc], true],
        ["feed_wheel", [back_x, 0, back_zc], true], ["feed_hub", [back_x, hub_y0 - 3, back_zc], true],
        ["gate", [gate_x + gate_t / 2, 0, gate_print_z + gate_h / 2], true],
        ["separator", [gate_x + gate_t + 4, 0, sep_z0 + sep_h / 2], true],
        ["separator_shoe", [sep_x, 0, sep_rest_z + sep_shoe_h / 2], true],
    ]),
    // stand-ins that are not printed: [name, grams, [x, y, z], turns]
    fit("stand_ins", [
        ["feed servo", mass_servo, [feed_body_cx, feed_tab_y + sv_tab_z(micro_servo) - sv_h(micro_servo) / 2, feed_zc], true],
        ["exit motor", mass_n20, [pinch_x, n20_y0 + n20[2] / 2, exit_zc], true],
        ["steel pins and one-way bearings", 20, [(feed_x + back_x) / 2, 4, feed_zc], true],
        ["turret servo", mass_servo, [t_body_cx, 0, (t_body_bot_z + t_body_top_z) / 2], false],
        ["pi", mass_pi, [pi_x0 + pi_size[0] / 2, pi_y0 + pi_size[1] / 2, tray_z0 + wall + standoff_h + 5], false],
        ["speaker", mass_speaker, [speaker_xy[0], speaker_xy[1], tray_z0 + wall + speaker_h / 2], false],
        ["HIT button", mass_button, [button_x, 0, -10], false],
        ["distribution board", mass_dist, [dist_xy[0], dist_xy[1], tray_z0 + wall + standoff_h + 6], false],
        ["amplifier", mass_amp, [amp_xy[0], amp_xy[1], tray_z0 + wall + 10], false],
        // the heaviest common webcam where it hangs, and the light (the arm counted at its highest)
        ["webcam", mass_webcam, [tray_c[0], tray_c[1], lens_z - joint_drop - webcam_depth / 2], false],
        ["LED light", mass_led, [tray_c[0], tray_c[1], boom_z0 - 4], false],
    ]),
];
