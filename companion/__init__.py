"""uno-companion: the UNO Extrême card launcher, scorekeeper and voice of the table."""

__version__ = "0.1.0"
