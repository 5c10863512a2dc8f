"""The commands of Othello: ``boardai othello ...``."""
