// Follower: rests on the stack; its ballast pocket sits over the feed tyre.
// Printed as shown (flat, pocket up). Dimensions: lib/dims.scad.
include <lib/parts.scad>

follower_flat();
