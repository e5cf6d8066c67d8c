"""Build tools for hardware/: OpenSCAD rendering, STL checks, the schematic."""
