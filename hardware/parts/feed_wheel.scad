// Feed wheel (print two, front and back): two 2 mm O-rings as the tyre, an HF0612 one-way bearing
// pressed in the bore. Printed as shown (flat). Dimensions: lib/dims.scad.
include <lib/parts.scad>

feed_wheel_flat();
