"""Learning pieces shared by the games; nothing here imports a game (a game passes in its
encoding: board -> table indices, symmetries as cell maps, its network class).

- :mod:`boardai.learn.ntuple`: the n-tuple core: patterns and their symmetric images, the
  layout of the weight tables, the lookup and update kernels (plain, temporal coherence).
- :mod:`boardai.learn.model_file`: one n-tuple model-file format for every game: compressed,
  atomic, with metadata; compact (int16) files.
- :mod:`boardai.learn.dqn`: the trainer both games' DQNs are (the Q update: loss, target
  network, Double DQN; the loop: stops, progress events, evaluation cadence, summary).
- :mod:`boardai.learn.replay`, :mod:`boardai.learn.schedules`, :mod:`boardai.learn.qnets`: DQN's
  replay buffer, exploration strategies and rate schedules, and the fully connected stack
  both games' Q nets use.
- :mod:`boardai.learn.store`, :mod:`boardai.learn.torch_file`: the shipped models, and safe
  torch checkpoints.

The numba intrinsics these kernels and the searches share (borrow, prefetch) are one layer
down, in :mod:`boardai.intrinsics`. The games' own parts: 2048's network, patterns,
downgrading and augmentation in
:mod:`boardai.g2048` (``ntuple``, ``patterns``, ``downgrade``, ``augment``); Othello's
network in :mod:`boardai.othello.ntuple`; the Q networks in :mod:`boardai.g2048.qnetworks` and
:mod:`boardai.othello.qnet`.
"""
