"""The pure core: table engine, firing model (the real launcher as the rules see it), scoring.

Nothing in this package starts a thread, touches a file or a pin, or imports gpiozero or Flask.
Given the same seed and the same events it produces the same commands and snapshots.
"""
