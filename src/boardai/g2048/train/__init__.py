"""Training 2048 players.

- n-tuple TD learning: :mod:`.config` (``TrainConfig``), :mod:`.trainer` (``Trainer``: chunks,
  threads, save and exact resume), :mod:`.episodes` (the compiled episode loop), :mod:`.report`
  (seed 004's report, CSV, plot).
- DQN: :mod:`.dqn`.

Nothing is imported here, so importing one trainer does not load the other.
"""
