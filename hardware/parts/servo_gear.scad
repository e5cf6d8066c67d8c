// Servo gear: 48 teeth, screwed to the turret servo's round horn (4 x M2 x 6); it turns the
// turntable's 24-tooth gear twice as far (2:1). Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([-servo_gear_xy[0], -servo_gear_xy[1], -gear_z0]) servo_gear();
