// USB webcam mount: a 1/4" screw into the webcam's tripod thread, or a strap through the slots;
// two bosses screw it under the arm's boom. Printed plate down. Dimensions: lib/dims.scad.
include <lib/parts.scad>

translate([0, 0, -lens_z]) camera_mount_usb();
