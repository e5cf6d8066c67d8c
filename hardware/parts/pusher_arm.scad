// Pusher arm: screwed to the ejector servo's round horn; an M3 screw is the pin.
// Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

arm_flat();
