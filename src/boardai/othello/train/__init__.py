"""Othello training: n-tuple TD self-play (:mod:`.ntuple`) and seed 002's self-play DQN
(:mod:`.dqn`)."""
