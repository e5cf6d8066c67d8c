"""The launcher's printable parts, electrical design and the tools that build them."""
