"""Training beyond one run: sweeps of many configurations of a learner, trained here or on a
Ray cluster and ranked by the strength of what they learned (``boardai sweep``).

- :mod:`boardai.train.learners`: the learners a sweep can run, and how each is measured;
- :mod:`boardai.train.plan`: the sweep file (TOML): the trials and their names;
- :mod:`boardai.train.trial`: one trial in its folder (model, progress CSV);
- :mod:`boardai.train.sweep`: all the trials over the arena's backends, and their ranking.

It sits beside the arena, above the games' training runs, and below the command line.
"""

#: Trials past which a sweep is refused unless asked for (``most_trials``; ``boardai sweep
#: --force``): each is a training run of minutes to hours, and a grid of a few long lists
#: multiplies out to more than a machine can hold, let alone train. Here, where the command
#: line reads it without importing the learners.
MANY_TRIALS = 1000
