// Pusher sled: its tooth pushes the bottom card out; the ramp behind slides under the next card.
// Printed as shown (standing on its back face). Dimensions: lib/dims.scad.
include <lib/parts.scad>

sled_flat();
