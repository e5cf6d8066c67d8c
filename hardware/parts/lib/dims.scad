// uno-companion launcher: every dimension in one place (millimetres, grams, newtons).
// Frame used by every part: the turret axis is the Z axis, z = 0 is the top face of the base's
// deck, +X is where cards leave when the turret is at home. Parts that turn with the turret
// (turntable, chassis, magazine, rollers) are drawn at home. Measure your cards, servos, motor
// and button and change the values here: every part, the fit tests and the feed simulation
// (hardware/sim/) follow.

/* [Cards] */
card_w = 56;            // UNO card width
card_l = 87;            // card length (cards leave short edge first)
card_t = 0.30;          // one card's thickness, nominal
card_t_range = [0.27, 0.36];   // thinnest and thickest cards the feed must take
card_mass = 2.7;        // grams (112 cards weigh about 0.3 kg)
card_modulus = 4000;    // MPa, the card stock's bending modulus (paperboard: 3000-8000)
cards_full = 112;       // a full UNO Extrême deck
cards_min = 112;        // the magazine holds a full deck under the follower

/* [Printing] */
wall = 2.4;             // three 0.4 mm perimeters
fit = 0.4;              // clearance between printed parts that slide or drop in
bed = 220;              // printer bed (square)
$fn = 32;

/* [Screws] (M3 everywhere, M2 self-tapping for servos and horns, M2.5 for the Pi) */
m3_hole = 3.4;          // clearance hole
m3_pilot = 2.6;         // M3 self-tapping into plastic (axles of the free rollers)
m3_insert_d = 4.0;      // hole for an M3 x 5.7 brass heat-set insert
m3_insert_h = 6.0;
m3_nut_w = 6.4;         // M3 nut across corners (5.5 across flats) + fit
m3_nut_h = 2.6;
m3_head_d = 6.2;
m2_pilot = 1.6;         // servo tab screws and horn screws (M2 x 6 self-tapping, one size)
horn_screw = [2, 6];    // every horn is screwed to its printed part with M2 x 6 self-tapping
m25_pilot = 2.2;        // Pi and board screws, self-tapping into the standoffs
boss_d = 9;             // round boss around an insert

/* [Servos] [body_l, body_w, body_h, tab_z, tab_t, tab_span, hole_dx, hole_dw, spline_off, spline_h, horn_t] */
// body_h: bottom to the top face (spline excluded); tab_z: bottom to the underside of the tabs;
// hole_dx/hole_dw: tab screw spacing along / across the body; spline_off: spline centre from the
// body centre along its length; spline_h: spline above the top face; horn_t: horn face above spline.
micro_servo = [22.8, 12.2, 22.7, 15.9, 2.5, 32.3, 27.8, 0, 5.9, 4.0, 1.5];      // MG90S, FS90R
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
horn_hole_r = 7;        // the round horn's screw holes, from its centre
horn_hub_d = 9;         // clears the round horn's hub

/* [Feed: two tyred wheels under the stack, throat, separator] */
// The stack rests on two driven tyres only, one under its front half and one under its back,
// turned together by one servo through a toothed belt. The floor between stands lower, so all
// the weight that presses on the bottom card presses it onto a driven tyre (see
// hardware/README.md, "Why this feed").
pocket_w = card_w + 1.5;   // cards drop freely, still guided
pocket_l = card_l + 1.5;
card_mu = [0.3, 0.7];      // card on card: new and glossy to worn and humid cards
plastic_mu = 0.3;          // card on printed PLA or PETG (floor, nose, gate, follower)
// Tyres, exit roller and pinch idler wear silicone (VMQ, 60-70 Shore A) O-rings. The friction
// assumed on coated card, and why: hardware/README.md, "The tyres"; measure yours with the tilt
// test in calibration.md.
tyre_mu = [1.0, 1.5];
// An O-ring [inside diameter, cord] stretched into a 90° V groove whose bottom (vertex) is at
// radius vr: its cord thins as it stretches (its volume is kept), and it seats where both
// flanks touch it. Three rounds of that fixed point are far closer than the cord's tolerance.
// Returns [stretch, cord on the groove, radius of its top].
function oring_seat(ring, vr) = let(
    c0 = (ring[0] + ring[1]) / 2,
    s1 = (vr + ring[1] / sqrt(2)) / c0 - 1, d1 = ring[1] / sqrt(1 + s1),
    s2 = (vr + d1 / sqrt(2)) / c0 - 1, d2 = ring[1] / sqrt(1 + s2),
    s3 = (vr + d2 / sqrt(2)) / c0 - 1, d3 = ring[1] / sqrt(1 + s3))
    [s3, d3, vr + d3 / sqrt(2) + d3 / 2];
groove_depth = 1.6;        // every 2 mm O-ring's V groove: its bottom under the rim
tyre_oring = [24, 2];      // silicone O-ring 24 x 2 (two per feed wheel)
wheel_rim_r = 14.5;        // the feed wheel's rim: the O-rings stand proud of it
tyre_seat = oring_seat(tyre_oring, wheel_rim_r - groove_depth);
tyre_r = tyre_seat[2];     // the tyre's top, from the O-ring seated in its groove (15.2 mm)
tyre_w = 12;               // two O-rings side by side; the one-way bearing is 12 long
feed_rpm = 110;            // FS90R at 4.8 V, datasheet, no load (130 at 6 V)
feed_torque = 0.13;        // N m, FS90R stall torque at 4.8 V (1.3 kg cm; 1.5 at 6 V): the
                           // box feeds it 5 V, so both figures are the 4.8 V ones
oneway = [6, 10, 12];      // HF0612 one-way needle bearing: shaft, outside, length
// A drawn-cup one-way bearing needs a rigid, round housing to lock: it is pressed into a steel
// sleeve (12 x 1 mm precision tube, cut to 12 mm), which is glued into the printed wheel.
oneway_sleeve = [12, 1];   // outside diameter, wall
back_in = 30;              // the back wheel's axis, from the back of the pocket: the bottom card's tail leaves it only once the pinch holds the card
// Both wheels turn together through a GT2 timing belt (closed, 6 mm wide) on two 20-tooth
// pulleys printed in the hubs: teeth carry the whole torque the back tyre needs, where an
// O-ring belt slips at about a fifth of it. The belt sets the hubs' distance (no tensioner).
gt2 = [2, 20, 50, 6];      // pitch, pulley teeth, belt teeth (a 100 mm loop), belt width
belt_c = (gt2[2] - gt2[1]) * gt2[0] / 2;   // the hubs' centre distance the belt needs: 30 mm
pulley_r = gt2[0] * gt2[1] / (2 * PI) - 0.254;   // the pulley's tips: pitch radius less the belt's pitch line
hub_flange = [9, 4.5];     // the hub's horn-side disc: radius, thickness (the horn's screws go in it)
hub_t = hub_flange[1] + gt2[3] + 1 + 2.5;   // that disc, the teeth (the belt + 1 mm), a 45° flange
hub_boss = 3;
feed_ahead = back_in + belt_c - pocket_l / 2;   // the front tyre's axis ahead of the pocket's middle (15.75 mm)
hub_y0 = tyre_w / 2 + 1 + hub_t + hub_boss;   // the horn's face, from the middle of the path
layer = 0.2;               // the print's layer height: a printed height is right to +-layer/2
tyre_sink = [0.1, 0.24];   // how far the silicone tyres sink under a full stack (60-70 Shore A)
floor_relief = 0.5;        // the floor under the stack, below the tyre's top: the tyres, sunk
                           // 0.24 mm, still stand over a floor printed half a layer high
// The land: the floor under the stack runs on flat, at the same height, under the front wall,
// the gate and the separator's shoe. The bottom card, bent down by the stack ahead of the front
// tyre, lies on it there: it is the surface the throat is set against (a feeler on the land).
// After the shoe the floor ramps down nose_drop (two layers: never flush, whatever the print).
nose_drop = 0.4;
ramp_len = 3;              // the ramp down from the land to the nose floor
throat_h = 0.55;           // gate's steel edge over the land, set with a 0.55 mm feeler: one
                           // thickest card passes, three thinnest never do; the separator stops the second
gate_adjust = 1.0;         // +- travel of the gate's slotted holes
gate_jack = [3, 12];       // M3 x 12 jack screw pressing the gate's top edge down onto the feeler
gate_t = 3;
// The gate's edge is steel, not plastic: one blade of a feeler-gauge set (0.30 mm x 12.7 mm,
// cut to length), in a one-layer recess of the gate's face, clamped between the gate and the
// separator's plate by the two gate screws. It stands shim_proud below the printed edge, so the
// card only ever meets a straight, sharp, rigid edge; the recess's top stops it riding up.
gate_shim = [0.3, 12.7, 60];   // thickness, height, length
shim_recess = layer;       // the recess in the gate's face: the shim stands 0.1 proud of it and is clamped
shim_proud = 1.0;          // the steel edge under the printed one
// Separator: a printed shoe sliding up and down in a sleeve just past the gate, pushed onto the
// nose floor by a soft compression spring; a silicone pad on its curved underside. It rests on
// the floor when no card passes (nothing to set), and its force hardly changes as one or two
// cards lift it. Spring [wire, outside diameter, active coils, free length], music wire.
shear_modulus = 79300;     // N/mm², music wire (EN 10270-1)
function spring_rate(s) = shear_modulus * pow(s[0], 4) / (8 * pow(s[1] - s[0], 3) * s[2]);  // N/mm
// The spring is no longer than four of its mean coil diameters (it cannot buckle); the shoe has
// sep_clear of air on every side in its sleeve, and the sleeve is printed standing, so its
// faces are walls, never bridges.
sep_spring = [0.2, 4.0, 10, 15];
sep_spring_len = 8;        // installed length, the shoe on the land
sep_clear = 0.5;           // air between the shoe and its sleeve, each side
sep_rate = spring_rate(sep_spring);                        // 0.029 N/mm
sep_force = sep_rate * (sep_spring[3] - sep_spring_len);   // 0.20 N on the floor
sep_len = 6;               // the shoe along the path
sep_w = 20;                // the shoe and its pad across the path
sep_shoe_r = 6;            // the shoe's underside: an arc, so a card's edge lifts it
sep_shoe_h = 8;            // pad included
sep_pad_t = 1;             // 1 mm silicone sheet glued under the shoe
sep_shoe_mass = 0.6;       // grams: the printed shoe and its pad
sep_plate_t = 2;           // the separator's plate, screwed over the gate
sep_sleeve_t = 1.2;        // the sleeve's walls round the shoe (the plate is its back wall)
sep_sleeve_gap = 2.5;      // the sleeve's underside over the card path (gate at its lowest: 1.5)
follower_mass = 250;       // grams: follower and its ballast, what the feed's sums assume
// The ballast is one piece of steel flat bar in a pocket in the follower's middle, between the
// two tyres: [length, width, thickness] (50 x 10 mm bar, cut to 60 mm: 236 g)
ballast = [60, 50, 10];
steel_density = 7.85;      // g/cm3
follower_h = 13;

/* [Exit: pinch pair and beam] */
exit_oring = [14, 2];      // silicone O-ring 14 x 2 (two on the exit roller)
exit_rim_r = 9;
exit_seat = oring_seat(exit_oring, exit_rim_r - groove_depth);
exit_r = exit_seat[2];     // driven exit roller's top (on the N20's D shaft): 9.7 mm
exit_w = 20;
exit_rpm = 2500;           // N20 "3000 rpm at 6 V" gearmotor at 5 V, no load
exit_stall = 0.03;         // N m, its stall torque at 5 V (0.3 kg cm)
idler_oring = [8, 1.5];    // silicone O-ring 8 x 1.5 (two on the idler)
idler_rim_r = 5.25;
idler_seat = oring_seat(idler_oring, idler_rim_r - 1.2);
idler_r = idler_seat[2];   // pinch idler's top: 5.8 mm
idler_w = 20;              // the span of the idler's two O-rings (over the exit roller's)
idler_bearing = [3, 6, 2.5];   // MR63ZZ ball bearing in each end, on a 3 mm steel pin
// Nothing of the pinch but its O-rings stands over the card: the idler runs the whole width
// between two ears that stand outside the card (on the nose's side walls); its 3 mm steel pin
// passes through a vertical slot in each ear, where a compression spring in a bore over the
// pin presses it down, the spring's top on an M3 set screw in the ear's top: both ends of each
// spring bear on steel. Two 3 mm shaft collars on the pin's ends, outside the ears, keep it.
idler_len = pocket_w - 1;  // the idler roller, between the ears' inner faces
ear_t = 8;                 // each ear across the path, from the card pocket's side outward
ear_l = 10;                // each ear along the path
collar = [8, 5];           // 3 mm shaft collar: outside diameter, width
idler_pin = [3, 2 * (pocket_w / 2 + ear_t + collar[1] + 0.5)];   // steel pin: diameter, length
// Pinch springs [wire, outside diameter, active coils, free length], music wire, one per ear;
// pinch_spring_len installed (the idler on the exit roller); no longer than four mean diameters.
pinch_spring = [0.4, 4.0, 16, 14];
pinch_spring_len = 9.6;
pinch_screw = [3, 6];      // M3 x 6 set screw closing each ear's spring bore
pinch_lift = 2;            // the pin's slot lets the idler rise this far over a card
pinch_rate = 2 * spring_rate(pinch_spring);          // N/mm, both springs
pinch_force = pinch_rate * (pinch_spring[3] - pinch_spring_len);   // 3.0 N
nip_lift = 0.05;           // the exit roller's top over the land: the card's nose meets it first
n20 = [12, 10, 24, 10];    // N20 gearmotor: width, height, body length, D shaft length
beam_hole_d = 3.2;         // 3 mm break-beam LEDs
launch_angle = 0;          // degrees above horizontal the pinch throws at

/* [Magazine layout along X, centred on the axis] */
floor_t = 3;
front_t = 6;               // front wall over the throat: holds the gate's inserts
mag_wall_h = 57;           // above the floor: stack (112 thickest cards) + follower
nose_after_gate = 18;      // gate's outer face to the pinch's nip line
beam_after_nip = 14;
nose_end = 6;              // material beyond the beam
mag_len = wall + pocket_l + front_t + gate_t + nose_after_gate + beam_after_nip + nose_end;
px0 = -mag_len / 2 + wall;          // back of the card pocket
px1 = px0 + pocket_l;               // front of the pocket (inner face of the front wall)
gate_x = px1 + front_t;             // the gate's inner face
shim_gap = gate_shim[0] - shim_recess;   // the shim holds the separator's plate off the gate
sep_x = gate_x + gate_t + shim_gap + sep_plate_t + sep_clear + sep_len / 2;   // the separator shoe's middle
land_x1 = sep_x + sep_len / 2 + 1;   // the land ends past the shoe; the ramp down starts there
pinch_x = gate_x + gate_t + nose_after_gate; // nip line
beam_x = pinch_x + beam_after_nip;
nose_x1 = beam_x + nose_end;
feed_x = (px0 + px1) / 2 + feed_ahead;
back_x = px0 + back_in;
mag_y = pocket_w / 2 + wall;        // outer face of the side walls
mag_boss_y = mag_y + 3.5;
mag_boss_x = [px0 + 10, px1 - 4];
flange_w = 9;

/* [Turntable, bearing and 2:1 turret gear] */
bearing_d = 42;            // 6806-2RS thin-section bearing: 42 x 30 x 7, hollow middle
bearing_bore = 30;
bearing_w = 7;
bearing_race_in = 34;      // inner race outer diameter (the turntable rests on it only)
lip_hole_d = 36.5;         // the deck under the bearing: supports the outer race only
collar_d = 52;
turntable_d = 120;
turntable_t = 4;
turntable_gap = 1;         // over the bearing's top
cable_bore_d = 14;         // hollow middle: the launcher's cables loop down through it
gear_m = 1;                // module of both gears
gear_teeth = [24, 48];     // turret gear (on the turntable's hub), servo gear (on the horn)
gear_ratio = gear_teeth[1] / gear_teeth[0];
gear_t = 6;
gear_gap = 1;              // under the deck
servo_range = 180;         // degrees the turret servo turns (min_angle..max_angle)
turret_range = servo_range * gear_ratio;   // degrees the launcher turns
gear_centre = gear_m * (gear_teeth[0] + gear_teeth[1]) / 2;
servo_gear_xy = [-gear_centre, 0];
home_heading = 180;        // the launcher's mouth at home faces -X: away from the HIT button
turret_servo = micro_servo;

/* [Heights] */
deck_t = 3;
tray_h = 50;               // inside the base, under the deck
foot_h = 3;                // rubber feet
turntable_z0 = bearing_w + turntable_gap;   // underside of the turntable disc
launcher_z0 = turntable_z0 + turntable_t;   // chassis sits here
ch_plate_t = 3;
feed_zc = launcher_z0 + ch_plate_t + tyre_r + 1;   // feed wheel axis: the tyre clears the plate
path_z = feed_zc + tyre_r;                  // underside of the card being fed
floor_top = path_z - floor_relief;
land_z = floor_top;                         // the land under the gate: the card leaves on it
floor_z0 = floor_top - floor_t;             // underside of the magazine floor
exit_zc = land_z + nip_lift - exit_r;
idler_zc = land_z + nip_lift + idler_r;     // the pinch idler resting on the exit roller
back_zc = feed_zc;                          // the back wheel's axis
gear_z1 = -deck_t - gear_gap;               // top of both gears
gear_z0 = gear_z1 - gear_t;
t_spline_top_z = gear_z0 - sv_horn_t(turret_servo);
t_body_top_z = t_spline_top_z - sv_spline_h(turret_servo);
t_body_bot_z = t_body_top_z - sv_h(turret_servo);
t_tab_z = t_body_bot_z + sv_tab_z(turret_servo);   // underside of the tabs
bracket_t = 4;
bracket_posts = [[servo_gear_xy[0] - 4, 32], [servo_gear_xy[0] - 4, -32]];

/* [Base] */
sweep_r = norm([mag_len / 2, mag_y + 1]);   // the turning launcher's reach (checked on the STLs)
button_dome_d = 60;         // 60 mm arcade dome
button_hole_d = 30;         // the button's thread + clearance: measure yours
button_depth = 42;          // switch below the deck
button_x = sweep_r + 3 + button_dome_d / 2;
base_x0 = -72;
base_x1 = button_x + button_dome_d / 2 + wall + 1;
base_w = 146;
corner = 6;                 // insert bosses, from the outer corner
base_corners = [[base_x0 + corner, base_w / 2 - corner], [base_x0 + corner, -base_w / 2 + corner],
                [base_x1 - corner, base_w / 2 - corner], [base_x1 - corner, -base_w / 2 + corner]];
// Pi: 58 x 49 holes (Pi 3, 4, 5) and 58 x 23 (Zero 2 W) share one corner and one row
pi_x0 = 17;                 // board edge
pi_y0 = -42.5;
pi_size = [56, 85, 17];     // the tallest board (Pi 4/5: USB and Ethernet stand 17 mm)
pi_holes = [for (x = [3.5, 26.5, 52.5], y = [3.5, 61.5]) [pi_x0 + x, pi_y0 + y]];
standoff_h = 6;
buzzer_d = 27;              // piezo disc
buzzer_xy = [button_x, -base_w / 2 + 22];
// distribution board: perfboard with screw terminals, fuse and 1000 µF capacitor
dist_size = [50, 40, 22];   // board and the capacitor standing on it
dist_xy = [button_x - 4, base_w / 2 - wall - 2 - 20];   // centre
dist_holes = [for (sx = [-1, 1], sy = [-1, 1]) [dist_xy[0] + sx * 21.5, dist_xy[1] + sy * 16.5]];
// MAX98357A breakout (17.8 x 19.6 mm), standing in a slotted cradle
amp_size = [17.8, 1.6, 19.6];
amp_xy = [-52, 50];
// speaker: round, facing down through a grille in the floor (the feet lift the box 3 mm)
speaker_d = 40;             // 40 mm, 4-8 ohm, 3 W
speaker_h = 18;
speaker_xy = [-44, -38];
jack_hole_d = 8;            // panel-mount 5.5 x 2.1 mm barrel jack, in the +Y side wall
jack_x = button_x + 20;
shutdown_hole_d = 12.5;     // 12 mm panel push button, in the -Y side wall
shutdown_x = button_x + 20;

/* [Masses for the centre of gravity] (grams; printed parts are weighed from their STLs) */
pla_density = 1.24;         // g/cm3
print_fill = 0.45;          // walls and 25 % infill: the fraction of a part's volume that is plastic
mass_servo = 13.4;          // MG90S, FS90R
mass_n20 = 10;
mass_pi = 46;               // Pi 4 (a Pi 5 weighs the same)
mass_speaker = 45;
mass_button = 55;           // 60 mm dome with its switch
mass_dist = 20;
mass_amp = 3;

/* [Retrofit of a Mattel launcher] */
launcher_d = 100;           // the real launcher's base, measured, + 1 mm
retrofit_t = 4;
retrofit_rim_h = 8;
ch_screw = [[px0 + 18, 20], [px0 + 18, -20], [px1 - 14, 20], [px1 - 14, -20]];  // chassis into the turntable

/* [Camera arm, discard tray and light] */
// The camera looks straight down at a discard tray beside the box. The reader measures a card
// 150 to 210 px long in a 640 x 480 frame (docs/vision.md); the heights below put it near the
// middle of that range (hardware/README.md, "The camera arm", gives the sums).
frame_px = [640, 480];
card_px = [150, 210];       // the card's length in the frame the reader was measured at
cm3_fov = [66, 41];         // Camera Module 3 (standard lens), whole 16:9 sensor, degrees
webcam_hfov = [60, 70];     // common USB webcams, 4:3
lens_h = [300, 245];        // lens over the tray's floor: Camera Module 3, USB webcam
webcam_depth = 25;          // a webcam's lens below its back (the face on the mount)
tray_in = [200, 150];       // inside the rim: a card lies at any angle with room round it
tray_rim = 5;
tray_floor = 2;
tray_rim_h = 12;
table_z = -(foot_h + tray_h + deck_t);
mast_x = 88;                // the mast against the base's -Y wall, clear of the piezo's cradle
mast_w = 20;
mast_d = 14;
mast_len = 200;
mast_y0 = -base_w / 2;
mast_y1 = mast_y0 - mast_d;
tray_tab_t = 3;             // the tray's tab under the mast's foot: tray and mast are one stand
mast_z0 = table_z + tray_tab_t;
mast_top = mast_z0 + mast_len;
mast_screw_z = [-deck_t - tray_h + 12, -deck_t - tray_h + 38];   // M3 x 20 through the base's wall, nuts inside
cable_slot = [56, 20, 9];   // the camera's ribbon or USB cable leaves the base: x, width, height
arm_t = 16;                 // the arm beside the mast (+X), one L: leg up, boom out over the tray
arm_x0 = mast_x + mast_w / 2;
tray_c = [arm_x0 + arm_t / 2, mast_y1 - 2 - tray_rim - tray_in[1] / 2];
lens_z = table_z + tray_floor + lens_h[0];
mount_t = 3;
mount_boss = 8;             // room for the camera board and its cable over the mount
mount_holes = [-10, 10];    // along Y, from the lens
boom_t = 12;
boom_z0 = lens_z + mount_t + mount_boss;
led_len = 50;               // one 3-LED piece of 5 V strip (60 LED/m) each side of the lens
led_off = 45;               // its middle from the lens, along the boom
led_current = 0.06;         // amperes per 3-LED piece at 5 V (6 W/m strip)
boom_y1 = tray_c[1] - led_off - led_len / 2 - 8;
joint_drop = lens_h[0] - lens_h[1] - webcam_depth;   // the arm sits this much lower for a webcam
leg_holes = [mast_top - 40, mast_top - 10];           // the arm's leg on the mast (Camera Module 3)
mast_holes = concat([leg_holes[0] - joint_drop], leg_holes[1] - joint_drop == leg_holes[0] ? [] : [leg_holes[1] - joint_drop], leg_holes);
leg_z0 = leg_holes[0] - 10;
mass_webcam = 160;          // the heaviest common webcam with its cable (Logitech C920: 162 g)
mass_led = 12;              // two strip pieces in their aluminium profiles
