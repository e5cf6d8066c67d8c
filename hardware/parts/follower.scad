// Follower: rests on the stack with some ballast so the bottom card lies flat.
// Printed as shown (flat, pocket up). Dimensions: lib/dims.scad.
include <lib/parts.scad>

follower_flat();
