"""The commands of 2048: ``boardai 2048 ...``."""
