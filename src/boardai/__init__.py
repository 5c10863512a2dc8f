"""boardai: play, train and benchmark AI players for 2048 and Othello.

Importing this package is cheap: it registers the Gymnasium environments by name (see
:mod:`boardai.registration`), imports neither torch nor numba, and compiles nothing. The
engines live in :mod:`boardai.g2048` and :mod:`boardai.othello`.
"""

__version__ = "0.1.0"

from boardai.registration import register_envs as _register_envs

_register_envs()
