// uno-companion turret mount: a plate screwed to the servo horn that carries the launcher,
// plus an L-bracket holding the card tray / break-beam at the launcher's mouth.
// Parametric: measure your servo horn and launcher, change the values below, render (F6),
// export STL. Units: millimetres. Print in PLA or PETG, 0.2 mm layers, 30 % infill.

/* [What to print] */
part = "both"; // [plate, bracket, both]

/* [Servo horn] */
horn_hub_d = 7.2;        // diameter of the horn's centre boss (clearance fit)
horn_hole_d = 1.6;       // self-tapping horn screw holes
horn_hole_spacing = 5.0; // distance between horn holes along one arm (mm)
horn_holes_per_arm = 3;  // holes used on each of the two opposite arms
horn_screw_d = 2.2;      // the centre screw through the plate

/* [Launcher plate] */
plate_d = 110;           // the launcher's footprint (round plate)
plate_t = 4;             // plate thickness
rim_h = 6;               // rim that keeps the launcher centred
rim_w = 2.4;
launcher_d = 100;        // inside diameter of the rim (launcher base + 1 mm clearance)
strap_slot_w = 22;       // slots for a hook-and-loop strap holding the launcher down
strap_slot_l = 4;
lightening_holes = 6;    // holes to lighten the plate (0: none)

/* [Card tray bracket] */
tray_w = 70;             // card width (UNO cards are 56 mm) + clearance
tray_l = 45;             // how far the tray reaches out from the mouth
tray_t = 3;
bracket_h = 25;          // height of the upright that screws to the plate rim
lip_h = 5;               // side lips guiding the cards
beam_hole_d = 5.2;       // IR break-beam LEDs (3 mm or 5 mm parts); 0: no sensor
beam_height = 4;         // beam height above the tray floor
screw_d = 3.2;           // M3 screws through the bracket into the plate rim

$fn = 72;

module horn_holes() {
    cylinder(d = horn_hub_d, h = 3 * plate_t, center = true);
    for (arm = [0, 180])
        for (i = [1 : horn_holes_per_arm])
            rotate(arm) translate([i * horn_hole_spacing, 0, 0])
                cylinder(d = horn_hole_d, h = 3 * plate_t, center = true);
}

module plate() {
    difference() {
        union() {
            cylinder(d = plate_d, h = plate_t);
            difference() {
                cylinder(d = launcher_d + 2 * rim_w, h = plate_t + rim_h);
                translate([0, 0, plate_t]) cylinder(d = launcher_d, h = rim_h + 1);
            }
        }
        // the horn is screwed under the plate: hub clearance, arm screw holes, centre screw
        translate([0, 0, 0]) horn_holes();
        cylinder(d = horn_screw_d, h = 3 * plate_t, center = true);
        // strap slots, left and right
        for (side = [-1, 1])
            translate([side * (launcher_d / 2 - 8), 0, plate_t / 2])
                cube([strap_slot_l, strap_slot_w, 2 * plate_t], center = true);
        // lightening holes between the hub and the rim
        if (lightening_holes > 0)
            for (i = [0 : lightening_holes - 1])
                rotate(i * 360 / lightening_holes + 30)
                    translate([launcher_d * 0.28, 0, -1])
                        cylinder(d = launcher_d * 0.16, h = plate_t + 2);
        // bracket screw holes in the rim, at the front (+X)
        for (dy = [-tray_w / 4, tray_w / 4])
            translate([launcher_d / 2 - 1, dy, plate_t + rim_h / 2])
                rotate([0, 90, 0]) cylinder(d = screw_d, h = rim_w + 4);
    }
}

module bracket() {
    difference() {
        union() {
            // upright against the rim
            cube([tray_t, tray_w, bracket_h]);
            // tray floor
            cube([tray_l, tray_w, tray_t]);
            // side lips
            for (y = [0, tray_w - tray_t])
                translate([0, y, 0]) cube([tray_l, tray_t, tray_t + lip_h]);
        }
        // screws into the plate rim
        for (dy = [-tray_w / 4, tray_w / 4])
            translate([-1, tray_w / 2 + dy, bracket_h - rim_h / 2 - 2])
                rotate([0, 90, 0]) cylinder(d = screw_d, h = tray_t + 2);
        // break-beam: emitter in one lip, receiver in the other, facing each other
        if (beam_hole_d > 0)
            translate([tray_l * 0.6, -1, tray_t + beam_height])
                rotate([-90, 0, 0]) cylinder(d = beam_hole_d, h = tray_w + 2);
    }
}

if (part == "plate" || part == "both") plate();
if (part == "bracket" || part == "both")
    translate([plate_d / 2 + 10, -tray_w / 2, 0]) bracket();
