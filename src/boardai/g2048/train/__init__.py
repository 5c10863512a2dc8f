"""Training 2048 players.

- n-tuple TD learning: :mod:`.ntuple_run` (``train(config, out)``: the run, the shape of
  :mod:`boardai.learn.run`), :mod:`.config` (``TrainConfig``), :mod:`.trainer` (``Trainer``:
  chunks, threads, save and exact resume), :mod:`.episodes` (the compiled episode loop),
  :mod:`.report` (seed 004's report, CSV, plot).
- DQN: :mod:`.dqn_run` (``train(config, out)``), :mod:`.dqn` (``DQNTrainer``).

Nothing is imported here, so importing one trainer does not load the other.
"""
