// Retrofit plate: carries a real Mattel UNO launcher on the turntable (see ../retrofit.md).
// Printed as shown (flat). Dimensions: lib/dims.scad (launcher_d: measure your launcher).
include <lib/parts.scad>

translate([0, 0, -launcher_z0]) retrofit_plate();
