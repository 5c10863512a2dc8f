"""Learning pieces shared by the games: the n-tuple network core and its model files.

- :mod:`boardai.learn.patterns`: pattern sets as data and the 8 board symmetries.
- :mod:`boardai.learn.ntuple`: weight tables, symmetric lookups, update kernels (plain, TC).
- :mod:`boardai.learn.model_file`: compressed, atomic model files with metadata.
- :mod:`boardai.learn.replay`, :mod:`boardai.learn.schedules`, :mod:`boardai.learn.qnets`: DQN's
  replay buffer, exploration schedules and torch networks.
"""
