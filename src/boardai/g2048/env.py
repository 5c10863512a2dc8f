"""2048 as a Gymnasium environment: ``gymnasium.make("boardai/2048-v0")``.

>>> import gymnasium as gym
>>> import boardai
>>> env = gym.make("boardai/2048-v0", observation="exponents")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].dtype.name
((4, 4), 'int8')
>>> action = int(info["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = env.step(action)
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from boardai.g2048 import env_core as C
from boardai.g2048 import observations as O
from boardai.g2048 import rewards as R
from boardai.g2048.board import Board
from boardai.registration import check_integer, check_render_mode, warn_no_render_mode
from boardai.rng import seed_stream

#: A reward function: ``fn(board, action, afterstate, score_gain) -> reward`` where ``board``
#: is the position before the move and ``afterstate`` the position after it, before the spawn.
RewardFn = Callable[[Board, int, Board, int], float]

#: Default episode length limit (no real game lasts this long; a policy repeating an
#: invalid move under ``invalid="noop"`` is truncated here).
DEFAULT_MAX_STEPS = 100_000


def _real(name: str, value: object) -> None:
    """A number option given as a string or a NaN is refused (a NaN reward spreads
    silently into every return)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")


def env_options(
    observation: str,
    planes: int,
    reward: str | RewardFn,
    move_penalty: float,
    invalid: str,
    invalid_penalty: float,
    p4: float,
    start_tiles: int,
    start_p4: float | None,
    max_steps: int | None,
) -> tuple[np.ndarray, spaces.Box]:
    """Check the options the single and the vector env share; their config and space."""
    check_integer("planes", planes)
    check_integer("start_tiles", start_tiles)
    if max_steps is not None:
        check_integer("max_steps", max_steps)
    for name, value in (
        ("move_penalty", move_penalty),
        ("invalid_penalty", invalid_penalty),
        ("p4", p4),
        ("start_p4", 0.0 if start_p4 is None else start_p4),
    ):
        _real(name, value)
    if invalid not in ("noop", "terminate"):
        raise ValueError(f"invalid must be 'noop' or 'terminate', got {invalid!r}")
    if not 0.0 <= p4 <= 1.0 or (start_p4 is not None and not 0.0 <= start_p4 <= 1.0):
        raise ValueError(f"p4 and start_p4 must be in [0, 1], got {p4}, {start_p4}")
    if not 1 <= start_tiles <= 16:
        raise ValueError(f"start_tiles must be in 1..16, got {start_tiles}")
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be >= 1 or None, got {max_steps}")
    if not callable(reward):
        R.kind_code(reward)
    shape = O.observation_shape(observation, planes)
    cfg = C.make_config(
        p4=p4,
        start_p4=p4 if start_p4 is None else start_p4,
        start_tiles=start_tiles,
        reward=R.SCORE if callable(reward) else R.kind_code(reward),
        move_penalty=move_penalty,
        invalid_penalty=invalid_penalty,
        terminate_invalid=invalid == "terminate",
        observation=O.kind_code(observation),
        planes=planes,
    )
    space = spaces.Box(0, O.observation_high(observation), shape, np.uint8)
    return cfg, space


class Game2048Env(gym.Env[np.ndarray, np.int64]):
    """2048 for reinforcement learning: numba bitboards behind the Gymnasium API.

    ## Description
    The sliding-tile game of Gabriele Cirulli (2014) on a 4x4 board. Each move slides every
    tile as far as it goes in one direction, merging two equal tiles into one of their sum
    (a merged tile does not merge again in that move); then a 2 (probability 0.9) or a 4
    appears on a uniformly chosen empty cell. The game starts with two such tiles. Reaching
    2048 is a win, but play continues until no move is legal. Tiles up to 131072 are exact.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 right, 2 down, 3 left. A move that changes nothing is illegal;
    ``info["action_mask"]`` (int8, 4) and :meth:`action_masks` mark the legal moves, so masked
    learners (sb3-contrib's ``MaskablePPO``) never try one.

    ## Observation Space
    ``Box(uint8)``, by ``observation``:

    - ``"onehot"`` (default): ``(planes, 4, 4)`` binary planes, plane k marking the cells of
      exponent k (plane 0 empty cells); exponents ``>= planes - 1`` share the last plane.
    - ``"exponents"``: ``(4, 4)`` exponents, 0 empty, 1 = tile 2, ..., 17 = tile 131072.
    - ``"lookahead2"``: seed 001's ``(20, planes, 4, 4)`` one-hot planes of every board the
      next two moves reach (see :mod:`boardai.g2048.observations`).

    ## Rewards
    ``reward="score"`` (default): the sum of the tiles a move makes (the game's score).
    ``"log2"``: the sum of their log2 (seed 003). ``"shaped"``: ``log2`` plus, every move,
    ``n512 + 2.5 n1024 + 6 n2048+`` for the big tiles on the board, minus ``move_penalty``
    (seed 003's progressive reward). A callable ``fn(board, action, afterstate, gain)``
    computes any other reward. An illegal move gives ``-invalid_penalty`` (default 0).

    ## Starting State
    Two tiles spawned on an empty board (``start_tiles``, ``start_p4``).

    ## Episode End
    Terminated when no move is legal (or on an illegal move with ``invalid="terminate"``); a
    step on a board with no legal move (after the end, or from a dead ``options["board"]``)
    terminates again.
    Truncated after ``max_steps`` steps (default 100,000, counting illegal ones).

    ## Arguments
    - ``observation``: ``"onehot"``, ``"exponents"`` or ``"lookahead2"``.
    - ``planes``: one-hot planes (default 16; seed 003 used 12).
    - ``reward``: ``"score"``, ``"log2"``, ``"shaped"`` or a callable.
    - ``move_penalty``: subtracted every move by the ``shaped`` reward (seed 003 tried 1.5).
    - ``invalid``: ``"noop"`` (board unchanged, no spawn) or ``"terminate"``.
    - ``invalid_penalty``: reward of an illegal move is minus this.
    - ``p4``, ``start_tiles``, ``start_p4``: spawn rules (seed 000: ``p4=0.2, start_p4=0``).
    - ``max_steps``: truncation limit, ``None`` for none.
    - ``render_mode``: ``"ansi"``, ``"rgb_array"`` or ``"human"`` (prints the text board);
      ``None`` (default): ``render()`` returns None.

    ## Version History
    - v0: first version. Fixed in place (2026-11-27; episodes of every seed unchanged): a step
      on a board with no legal move terminates (with ``invalid="noop"`` it ran on to
      ``max_steps``), and the exponents space's bound is 31, not 30; ``render()`` with no
      ``render_mode`` returns None with Gymnasium's warning (was the text board; 2026-11-27).
      Seeded resets follow the seeding rule of :mod:`boardai.rng` (2026-11-29):
      ``reset(seed=s)`` starts game 0 of seed ``s``, the game ``Game(seed=s)`` and the arena
      play (the spawns were drawn from a stream that ``self.np_random`` chose).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it this way)
        "render_modes": ["ansi", "rgb_array", "human"],
        "render_fps": 4,
    }

    def __init__(
        self,
        observation: str = "onehot",
        planes: int = 16,
        reward: str | RewardFn = "score",
        move_penalty: float = 0.0,
        invalid: str = "noop",
        invalid_penalty: float = 0.0,
        p4: float = 0.1,
        start_tiles: int = 2,
        start_p4: float | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        self._cfg, self.observation_space = env_options(
            observation, planes, reward, move_penalty, invalid, invalid_penalty, p4,
            start_tiles, start_p4, max_steps,
        )  # fmt: skip
        self.action_space = spaces.Discrete(4)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self._reward_fn = reward if callable(reward) else None
        self._state = np.zeros(3, np.uint64)
        self._obs = np.zeros(self.observation_space.shape, np.uint8)
        self._obs_flat = self._obs.reshape(-1)
        self._mask = np.zeros(4, np.int8)
        self._seeded = False
        self.score = 0
        self.steps = 0

    # -- the Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game. ``options={"board": Board}`` starts from that position instead.

        ``reset(seed=s)`` starts game 0 of seed ``s`` (:mod:`boardai.rng`: the spawns of
        ``Game(seed=s)``); the first reset with no seed draws a stream from ``self.np_random``;
        unseeded resets continue the stream.
        """
        super().reset(seed=seed)
        if seed is not None:
            self._state[C.RNG] = seed_stream(np.uint64(seed), np.uint64(0))
            self._seeded = True
        elif not self._seeded:
            self._state[C.RNG] = self.np_random.integers(0, 2**64, dtype=np.uint64)
            self._seeded = True
        C.reset_board(self._state, self._cfg, self._obs_flat, self._mask)
        if options and options.get("board") is not None:
            self._set_board(options["board"])
        self.score = 0
        self.steps = 0
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), {"action_mask": self._mask.copy(), "score": 0}

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` (0 up, 1 right, 2 down, 3 left: an int, numpy integer or 0-d
        integer array; a float such as 1.5 is refused, as ``Discrete(4)`` refuses it, rather
        than truncated into another move)."""
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r} is not in Discrete(4)") from None
        if not 0 <= a <= 3:
            raise ValueError(f"action {action!r} is not in Discrete(4)")
        before = self._board() if self._reward_fn is not None else None
        reward, gain, moved, terminated = C.step_board(
            self._state, a, self._cfg, self._obs_flat, self._mask
        )
        self.steps += 1
        self.score += gain
        if before is not None and moved:
            after, _ = before.slide(a)
            reward = float(self._reward_fn(before, a, after, int(gain)))  # type: ignore[misc]
        truncated = self.max_steps is not None and self.steps >= self.max_steps and not terminated
        if self.render_mode == "human":
            self.render()
        info = {"action_mask": self._mask.copy(), "score": self.score, "moved": moved}
        return self._obs.copy(), float(reward), bool(terminated), bool(truncated), info

    def render(self) -> str | np.ndarray | None:
        """The board as text (``ansi``), a picture (``rgb_array``), or printed (``human``);
        with no ``render_mode``, None and Gymnasium's warning, as Gymnasium's own envs do."""
        from boardai.g2048.render import board_image, board_text

        if self.render_mode is None:
            warn_no_render_mode("boardai/2048-v0", "ansi")
            return None
        if self.render_mode == "rgb_array":
            return board_image(self._board())
        text = board_text(self._board(), self.score)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- extras -----------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal moves as a bool array of 4 (what ``MaskablePPO`` asks for)."""
        return self._mask.astype(bool)

    @property
    def board(self) -> Board:
        """The current position."""
        return self._board()

    def _board(self) -> Board:
        return Board(int(self._state[C.LO]) | (int(self._state[C.HI]) << 64))

    def _set_board(self, board: Board | int) -> None:
        b = board if isinstance(board, Board) else Board(int(board))
        self._state[C.LO], self._state[C.HI] = np.uint64(b.lo), np.uint64(b.hi)
        C.write_mask(self._state[C.LO], self._state[C.HI], self._mask)
        C.O.write_observation(
            np.int64(self._cfg[C.OBS]), self._state[C.LO], self._state[C.HI],
            np.int64(self._cfg[C.PLANES]), self._obs_flat,
        )  # fmt: skip
