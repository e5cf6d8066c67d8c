// Echoes the dimensions the fit tests check (openscad -o fit.echo fit.scad). Nothing to print.
include <parts/lib/parts.scad>

function fit(name, value) = echo(str("FIT ", name, "=", value)) 0;
_ = [
    fit("card", [card_w, card_l, card_t]), fit("cards_min", cards_min), fit("bed", bed),
    fit("pocket", [px0, px1, pocket_w]), fit("ch_x", [ch_x0, ch_x1]), fit("floor_top", launcher_z0 + floor_top),
    fit("wall_top", launcher_z0 + floor_z0 + mag_h), fit("follower_h", follower_h),
    fit("gate_x", gate_x), fit("gate_t", gate_t), fit("throat_h", throat_h),
    fit("gate_notch", [gate_notch_w, gate_notch_h]), fit("tooth_h", tooth_h), fit("fin_y", fin_y),
    fit("tray_x1", tray_x1), fit("beam", [beam_x, 0]), fit("arch_top", launcher_z0 + floor_z0 + arch_top),
    fit("angles", [rest_angle, stroke_angle, pull_back_angle]), fit("arm_l", arm_l),
    fit("swing_scale", swing_scale), fit("slot_end_x", tooth_reach_x + 1.5),
    fit("tooth_mid_x", tooth_mid_x), fit("sled", [sled_behind, sled_ahead]),
    fit("shaft", [shaft_x, shaft_z + launcher_z0]), fit("pin_z", [pin_z_low + launcher_z0, pin_z_high + launcher_z0]),
    fit("tongue_slot", [pin_z_low - pin_d / 2 - 0.5 + launcher_z0, pin_z_high + pin_d / 2 + 0.5 + launcher_z0]),
    fit("sled_z0", sled_z0 + launcher_z0), fit("arm_tip_z", launcher_z0 + shaft_z + arm_l + arm_end_r),
    fit("roller", [roller_x, roller_zc + launcher_z0, tyre_r]),
    fit("sweep_r", sweep_r), fit("button", [button_x, 0, button_dome_d, button_hole_d]),
    fit("turntable", [turntable_d, turntable_z0]), fit("deck_top_features", bearing_w),
    fit("tilt_ring_r", [tilt_ring_r, tilt_ring_r + 3]), fit("base", [base_x0, base_x1, base_w]),
    fit("base_corners", base_corners), fit("bracket_screws", bracket_screws),
    fit("ch_screw", ch_screw), fit("mag_bosses", [for (x = mag_boss_x, s = [-1, 1]) [x, s * mag_boss_y]]),
    fit("gate_screws", [for (s = [-1, 1]) [s * gate_screw_y, gate_screw_z + launcher_z0 + floor_z0]]),
    fit("gate_adjust", gate_adjust), fit("cable", [cable_r, cable_hole_d, turret_range]),
    fit("spline_top_z", t_spline_top_z), fit("peg", [peg_bottom_z, spline_grip]),
    fit("bearing", [bearing_d, bearing_bore, bearing_w, bearing_race_in]),
    fit("turret_servo_holes", [for (dy = [-1, 1]) [0, t_body_cy + dy * sv_hole_dx(turret_servo) / 2]]),
    fit("z", [-deck_t - tray_h, -deck_t, t_tab_top_z, launcher_z0, launcher_z0 + floor_z0]),
    fit("pi_holes", pi_holes), fit("button_depth", button_depth),
    fit("turret_servo_bottom_z", t_body_bot_z), fit("buzzer", [buzzer_xy[0], buzzer_xy[1], buzzer_d]),
];
