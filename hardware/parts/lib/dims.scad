// uno-companion launcher: every dimension in one place (millimetres).
// Frame used by every part: the turret axis is the Z axis, z = 0 is the top face of the base's
// deck, +X is where cards leave when the turret is at home. Parts that turn with the turret
// (turntable, chassis, magazine) are drawn at home. Measure your cards, servos and button and
// change the values here: every part and the fit tests follow.

/* [Cards] */
card_w = 56;            // UNO card width
card_l = 87;            // card length (cards leave short edge first)
card_t = 0.3;           // one card's thickness
cards_min = 80;         // a full UNO Extrême magazine

/* [Printing] */
wall = 2.4;             // three 0.4 mm perimeters
fit = 0.4;              // clearance between printed parts that slide or drop in
bed = 220;              // printer bed (square)
$fn = 32;

/* [Screws] (M3 everywhere, M2 self-tapping for servos, M2.5 for the Pi) */
m3_hole = 3.4;          // clearance hole
m3_insert_d = 4.0;      // hole for an M3 x 5.7 brass heat-set insert
m3_insert_h = 6.0;
m3_nut_w = 6.4;         // M3 nut across corners (5.5 across flats) + fit
m3_nut_h = 2.6;
m3_head_d = 6.2;
m3_head_h = 3.2;
m2_pilot = 1.6;         // servo screws
m25_pilot = 2.2;        // Pi screws, self-tapping into the standoffs
boss_d = 9;             // round boss around an insert

/* [Servos] [body_l, body_w, body_h, tab_z, tab_t, tab_span, hole_dx, hole_dw, spline_off, spline_h, horn_t] */
// body_h: bottom to the top face (spline excluded); tab_z: bottom to the underside of the tabs;
// hole_dx/hole_dw: tab screw spacing along / across the body; spline_off: spline centre from the
// body centre along its length; spline_h: spline above the top face; horn_t: horn face above spline.
micro_servo = [22.8, 12.2, 22.7, 15.9, 2.5, 32.3, 27.8, 0, 5.9, 4.0, 1.5];      // MG90S, SG90, FS90R
standard_servo = [40.7, 19.7, 36.5, 26.6, 2.5, 54.5, 49.5, 10, 10.2, 5.5, 1.5]; // MG996R, SM-S4303R
function sv_l(s) = s[0];
function sv_w(s) = s[1];
function sv_h(s) = s[2];
function sv_tab_z(s) = s[3];
function sv_tab_t(s) = s[4];
function sv_hole_dx(s) = s[6];
function sv_hole_dw(s) = s[7];
function sv_spline_off(s) = s[8];
function sv_spline_h(s) = s[9];
function sv_horn_t(s) = s[10];

/* [608 bearing and turntable] */
bearing_d = 22;         // 608: 22 x 8 x 7
bearing_bore = 8;
bearing_w = 7;
bearing_race_in = 12;   // inner race outer diameter (the turntable rests on it only)
collar_d = 32;          // deck collar holding the bearing
lip_hole_d = 16;        // the deck under the bearing: supports the outer race only
turntable_d = 120;
turntable_t = 4;
turntable_gap = 1;      // under the turntable, over the collar and the tilt ring
tilt_ring_r = 53;       // a ring on the deck stops the turntable from rocking
turret_servo = micro_servo;
spline_bore_d = 4.8;    // pressed onto a 20-tooth micro servo spline
spline_grip = 4.5;      // depth of that bore
turret_range = 180;     // degrees the turret servo turns (min_angle..max_angle)
home_heading = 180;     // the launcher's mouth at home faces -X: away from the HIT button
cable_r = 46;           // cable hole in the turntable; arc slot in the deck
cable_hole_d = 12;

/* [Magazine] */
pocket_w = card_w + 1.5;   // cards drop freely, still guided
pocket_l = card_l + 1.5;
mag_wall_h = 45;           // above the floor: stack + follower
floor_t = 3;
front_t = 6;               // front wall: holds the gate's inserts
tray_l = 29;               // exit tray after the gate: shorter than half a card, so a card tips off
back_post_w = 8;           // the back is two corner posts: the pusher passes between
follower_h = 12;
slot_y = [-3.5, 10.5];     // floor slot: pusher fin (y -3..3) and roller wheel (y 2..10)
gate_t = 3;
throat_h = 1.5 * card_t;   // gate above the floor: one card passes, two do not
gate_adjust = 3;           // +- travel of the gate's slotted holes
beam_from_gate = 24;       // IR beam, after the gate, beyond the sled's reach
beam_hole_d = 3.2;         // 3 mm break-beam LEDs (5.2 for 5 mm ones)
flange_w = 9;

// magazine layout along X, centred on the axis so the turret sweep stays small
mag_len = wall + pocket_l + front_t + tray_l;
mag_shift = 6;                      // forward: the sled reaches further back than the tray forward
px0 = -mag_len / 2 + wall + mag_shift;  // back of the card pocket
px1 = px0 + pocket_l;               // front of the pocket (inner face of the front wall)
gate_x = px1 + front_t;             // the gate's inner face
tray_x1 = gate_x + tray_l;          // end of the exit tray
beam_x = gate_x + beam_from_gate;
mag_y = pocket_w / 2 + wall;        // outer face of the side walls
mag_boss_y = mag_y + 3.5;
mag_boss_x = [px0 + 6, px1 - 12];

/* [Ejector chassis] */
ch_plate_t = 3;
tooth_h = 0.4;             // pusher tooth above the floor: more than a card, less than the gate
tooth_l = 3;
sled_t = 3.8;
sled_ahead = 10;           // sled plate in front of the tooth: stops short of the IR receiver
sled_behind = 4;           // the fin, from the sled's back to the tooth
sled_w = pocket_w - 0.8;   // rides on the ledges of the chassis walls
fin_y = [-3, 3];
tongue_y = [20, 25];       // the arm's pin runs in this tongue's slot
tongue_from_tooth = 4;     // tongue slot centre, ahead of the tooth
ejector_servo = standard_servo;
pin_d = 3;                 // M3 screw as the arm's pin, screwed into the arm
arm_t = 4;
// servo angles the sled is drawn for: the software's defaults (EjectorConfig)
rest_angle = 10;
stroke_angle = 120;
pull_back_angle = 0;
mid_angle = (rest_angle + stroke_angle) / 2;
half_swing = (stroke_angle - rest_angle) / 2;
// Degrees the servo really turns per configured degree: 0.9 with the safe default pulses
// (600..2400 µs) on a servo that turns 180° over 500..2500 µs, 1.0 on one that turns 180° over
// 600..2400 µs or once calibrated. The arm is sized so both strokes work.
swing_scale = [0.9, 1.0];
tooth_rest_x = px0 - 0.5;              // behind the trailing edge of the bottom card
tooth_stroke_x = gate_x + gate_t + 3;  // past the gate, on the shortest swing: the card tips off
arm_l = (tooth_stroke_x - tooth_rest_x) / (2 * sin(half_swing * swing_scale[0]));
tooth_mid_x = (tooth_rest_x + tooth_stroke_x) / 2;
function tooth_x(angle, scale = 1) = tooth_mid_x + arm_l * sin((angle - mid_angle) * scale);
tooth_reach_x = tooth_x(stroke_angle, swing_scale[1]);   // the longest swing
shaft_x = tooth_mid_x + tongue_from_tooth;
shaft_z = ch_plate_t + sv_w(ejector_servo) / 2 + 0.5;     // servo lies on its side, shaft along +Y
arm_y = tongue_y[0] - 1 - arm_t;                            // arm plane (y)
e_spline_top_y = arm_y - sv_horn_t(ejector_servo);
e_body_top_y = e_spline_top_y - sv_spline_h(ejector_servo);
e_body_bot_y = e_body_top_y - sv_h(ejector_servo);
e_tab_y = e_body_bot_y + sv_tab_z(ejector_servo);          // underside of the tabs
e_body_cx = shaft_x + sv_spline_off(ejector_servo);         // spline at the body's -X end
pin_z_low = shaft_z + arm_l * cos(max(abs(pull_back_angle - mid_angle), half_swing) * swing_scale[1]);
pin_z_high = shaft_z + arm_l;
arm_end_r = 4;
sled_z0 = pin_z_high + arm_end_r + 0.5;     // underside of the sled plate: the arm's tip passes
floor_z0 = sled_z0 + sled_t + 0.3;          // underside of the magazine floor (chassis top)
floor_top = floor_z0 + floor_t;             // cards slide here (chassis frame)
ch_x0 = tooth_x(pull_back_angle, swing_scale[1]) - sled_behind - 1;
ch_x1 = tooth_reach_x + sled_ahead + 1;
ch_screw = [[px0 + 10, 20], [px0 + 10, -20], [px1 + 3, 20], [px1 + 3, -20]];  // into the turntable

/* [Roller variant] */
roller_servo = micro_servo;                 // FS90R continuous rotation
tyre_r = 16;                                // wheel + O-ring
roller_y = [2, 10];
roller_x = px1 - 15;
roller_zc = floor_top + 0.6 - tyre_r;       // tyre stands 0.6 mm above the floor
r_spline_top_y = roller_y[0] - sv_horn_t(roller_servo);
r_body_bot_y = r_spline_top_y - sv_spline_h(roller_servo) - sv_h(roller_servo);
r_tab_y = r_body_bot_y + sv_tab_z(roller_servo);
r_body_cx = roller_x + sv_spline_off(roller_servo);

/* [Base] */
deck_t = 3;
tray_h = 50;                // inside the base, under the deck
base_x0 = -69;
sweep_r = norm([ch_x0, mag_y + 1]);   // the turning launcher's reach (checked on the STLs)
button_dome_d = 60;         // 60 mm arcade dome (100 for the big one: the base grows)
button_hole_d = 30;         // the button's thread + clearance: measure yours
button_depth = 42;          // switch below the deck
button_x = sweep_r + 3 + button_dome_d / 2;
base_x1 = button_x + button_dome_d / 2 + wall + 1;
base_w = 140;
corner = 6;                 // insert bosses, from the outer corner
base_corners = [[base_x0 + corner, base_w / 2 - corner], [base_x0 + corner, -base_w / 2 + corner],
                [base_x1 - corner, base_w / 2 - corner], [base_x1 - corner, -base_w / 2 + corner]];
// Pi: 58 x 49 holes (Pi 3, 4, 5) and 58 x 23 (Zero 2 W) share one corner and one row
pi_x0 = -66;                // board edge
pi_y0 = -42.5;
pi_holes = [for (x = [3.5, 26.5, 52.5], y = [3.5, 61.5]) [pi_x0 + x, pi_y0 + y]];
standoff_h = 6;
buzzer_d = 27;              // piezo disc (a 12 mm active buzzer fits the same cradle)
buzzer_xy = [button_x, base_w / 2 - 24];
bracket_screws = [[18, -5], [-18, -5]];
// turret servo: under the deck, spline on the axis, body along Y
t_spline_top_z = 0.5;
t_body_top_z = t_spline_top_z - sv_spline_h(turret_servo);
t_body_bot_z = t_body_top_z - sv_h(turret_servo);
t_tab_top_z = t_body_bot_z + sv_tab_z(turret_servo) + sv_tab_t(turret_servo);
t_body_cy = -sv_spline_off(turret_servo);
peg_bottom_z = t_spline_top_z - spline_grip;
turntable_z0 = bearing_w + turntable_gap;      // underside of the turntable disc
launcher_z0 = turntable_z0 + turntable_t;      // chassis sits here
gate_notch_w = fin_y[1] - fin_y[0] + 2;   // the tooth passes under the gate here, cards do not
gate_notch_h = 1.2;
gate_screw_y = mag_y + 4;                  // gate screws in the front wall's ears
gate_screw_z = floor_t + 15;               // above the magazine floor's underside
gate_h = gate_screw_z + 10 - floor_t - throat_h;
arch_gap = 2;                              // straight part of the throat and beam openings

/* [Retrofit of a Mattel launcher] */
launcher_d = 100;           // the real launcher's base, measured, + 1 mm
retrofit_t = 4;
retrofit_rim_h = 8;
