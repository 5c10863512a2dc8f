"""A native batched Othello env: ``gymnasium.make_vec("boardai/Othello-v0", num_envs=256)``.

Against the compiled players (``random``, ``greedy``, ``wpc``, and ``ntuple`` at 1-ply, the
default: a shipped or trained network), one compiled call steps all N boards, the opponent's
replies included (no Python loop per board). Board i seeded with
``reset(seed=s)`` plays exactly as :class:`~boardai.othello.env.OthelloEnv` reset with seed
``s + i`` and stepped with the same actions, and the batch returns what Gymnasium's
``SyncVectorEnv`` over those envs returns (observations, rewards, ends, infos: a test steps
both side by side). Other opponents (searches, DQN, GTP engines) get that ``SyncVectorEnv``
from ``make_vec`` (:func:`boardai.othello.env_entry.make_vector_env`). The env takes its
opponent compiled (:class:`CompiledOpponent`); the entry point builds it from a player.

It follows Gymnasium 1.x's next-step autoreset: the step that ends an episode returns its
last observation; the next step resets that board (ignoring its action) and returns the start
observation with reward 0.

>>> import gymnasium as gym, numpy as np
>>> import boardai
>>> envs = gym.make_vec("boardai/Othello-v0", num_envs=8, opponent="random")
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((8, 3, 8, 8), (8, 65))
>>> obs, rewards, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))
"""

# ruff: noqa: E741  (P, O: the mover's and the opponent's bitboards, as in the kernels)

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space

from boardai._jit import njit
from boardai.othello import evaluation as E
from boardai.othello import kernels as K
from boardai.othello.board import BLACK, COLOR_NAMES, N_ACTIONS, PASS, WHITE, Board
from boardai.othello.env import RENDER_MODES, _obs_space, check_options
from boardai.othello.ntuple import greedy_action
from boardai.registration import board_seeds, check_num_envs
from boardai.vector_base import BoardVectorEnv

#: The players this env plays in compiled code (``ntuple`` at 1-ply only).
COMPILED_OPPONENTS = ("random", "greedy", "wpc", "ntuple")
#: Kernel kinds besides ``greedy`` and ``wpc``'s (:data:`~boardai.othello.evaluation.GREEDY`,
#: :data:`~boardai.othello.evaluation.WPC`).
RANDOM, NTUPLE = -1, -2
#: An opponent's kind and the data of its kernel: ``wpc``'s weights, then an n-tuple network's
#: ``(squares, offsets, weights)`` (placeholders for the players that need none).
Opponent = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class CompiledOpponent:
    """An opponent this env plays in compiled code: the kernel of a ``random``, ``greedy``,
    ``wpc`` or 1-ply ``ntuple`` player, built from the player one layer up
    (:func:`boardai.othello.env_entry.compiled_opponent`: the envs import no players).

    Attributes:
        name: the player's spec (in messages).
        kernel: its kind and data (:data:`Opponent`).
        seed_state: ``seed -> rng state``: the player's own seeding rule, so that a board
            seeded like a single env draws as that env's player does.
    """

    name: str
    kernel: Opponent
    seed_state: Callable[[int], np.uint64]


_ONE = np.uint64(1)


@njit
def _opponent_move(
    P: np.uint64, O: np.uint64, opp: tuple, rng: np.uint64
) -> tuple[np.uint64, np.int64]:
    """(new rng state, the opponent's action): the kernels of ``random``, ``greedy``, ``wpc``
    and ``ntuple`` themselves, so a board plays as the single env's player does."""
    kind = opp[0]
    if kind == RANDOM:
        return K.random_action(P, O, rng)
    if kind == NTUPLE:
        return rng, greedy_action(P, O, opp[2], opp[3], opp[4])
    return E.best_one_ply(P, O, kind, opp[1], rng)


@njit
def _reply(boards: np.ndarray, i: np.int64, opp: tuple, rng: np.ndarray) -> None:
    """The opponent moves until the learner is to move or the game is over."""
    P, O, to_move, color = boards[i, 0], boards[i, 1], boards[i, 2], boards[i, 3]
    while to_move != color and not K.is_terminal(P, O):
        rng[i], a = _opponent_move(P, O, opp, rng[i])
        P, O = K.play(P, O, a)
        to_move = np.uint64(1) - to_move
    boards[i, 0], boards[i, 1], boards[i, 2] = P, O, to_move


@njit
def _observe(boards: np.ndarray, i: np.int64, obs: np.ndarray, masks: np.ndarray) -> None:
    """Board i's planes from the mover's view (as :func:`~boardai.othello.observations.observe`)
    into ``obs[i]`` (flat, 3 x 64) and its legal actions into ``masks[i]``."""
    P, O = boards[i, 0], boards[i, 1]
    legal = K.legal_moves(P, O)
    for sq in range(64):
        bit = np.uint64(sq)
        obs[i, sq] = np.uint8((P >> bit) & _ONE)
        obs[i, 64 + sq] = np.uint8((O >> bit) & _ONE)
        obs[i, 128 + sq] = np.uint8((legal >> bit) & _ONE)
    masks[i, :] = K.action_mask(P, O)


@njit
def _reset_row(
    boards: np.ndarray,
    i: np.int64,
    opp: tuple,
    rng: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
) -> None:
    boards[i, 0], boards[i, 1], boards[i, 2] = K.START_BLACK, K.START_WHITE, np.uint64(BLACK)
    _reply(boards, i, opp, rng)
    _observe(boards, i, obs, masks)


@njit
def _reset_all(
    boards: np.ndarray,
    opp: tuple,
    rng: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
) -> None:
    for i in range(boards.shape[0]):
        _reset_row(boards, i, opp, rng, obs, masks)


@njit
def _first_illegal(masks: np.ndarray, actions: np.ndarray, pending: np.ndarray) -> np.int64:
    """The first board (not resetting) whose action is not legal there, or -1."""
    for i in range(masks.shape[0]):
        if pending[i]:
            continue
        a = actions[i]
        if a < 0 or a > PASS or masks[i, a] == 0:
            return np.int64(i)
    return np.int64(-1)


@njit
def _step_all(
    boards: np.ndarray,
    actions: np.ndarray,
    opp: tuple,
    rng: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    illegal: np.ndarray,
    pending: np.ndarray,
) -> None:
    """Step every board: a board whose episode ended last step resets instead; an illegal
    action loses (reward -1, the episode over, the board unchanged)."""
    for i in range(boards.shape[0]):
        illegal[i] = False
        if pending[i]:
            _reset_row(boards, i, opp, rng, obs, masks)
            rewards[i] = 0.0
            terminated[i] = False
            pending[i] = False
            continue
        a = actions[i]
        if a < 0 or a > PASS or masks[i, a] == 0:
            rewards[i] = -1.0
            terminated[i] = True
            illegal[i] = True
            pending[i] = True
            continue
        P, O = K.play(boards[i, 0], boards[i, 1], a)
        boards[i, 0], boards[i, 1] = P, O
        boards[i, 2] = np.uint64(1) - boards[i, 2]
        _reply(boards, i, opp, rng)
        _observe(boards, i, obs, masks)
        P, O = boards[i, 0], boards[i, 1]
        done = K.is_terminal(P, O)
        reward = 0.0
        if done:
            score = K.final_score(P, O)  # for the side to move
            if boards[i, 2] != boards[i, 3]:
                score = -score
            reward = 1.0 if score > 0 else -1.0 if score < 0 else 0.0
        rewards[i] = reward
        terminated[i] = done
        pending[i] = done


class OthelloVectorEnv(BoardVectorEnv):
    """N boards of :class:`~boardai.othello.env.OthelloEnv` against ``random``, ``greedy``,
    ``wpc`` or a 1-ply ``ntuple`` (any model), stepped in one compiled call.

    Takes ``num_envs`` and the options of ``OthelloEnv``. ``info["action_mask"]`` is
    ``(N, 65)`` int8, ``info["color"]`` the learner's colour of each board (``"black"`` or
    ``"white"``), ``info["illegal"]`` (on a step with an illegal action) which boards lost by
    one; :meth:`action_masks` gives the masks as bool.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it this way)
        **BoardVectorEnv.metadata,
        "render_modes": RENDER_MODES,
    }
    env_id = "boardai/Othello-v0"
    suggested_render_mode = "rgb_array"

    def __init__(
        self,
        num_envs: int,
        opponent: CompiledOpponent,
        color: str = "black",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        check_num_envs(num_envs)
        check_options(color, illegal, render_mode)
        if not isinstance(opponent, CompiledOpponent):
            raise TypeError(
                f"opponent must be a CompiledOpponent, got {opponent!r}"
                " (boardai.othello.env_entry.compiled_opponent builds one from a player)"
            )
        self.num_envs = num_envs
        self.opponent = opponent
        self.color_option = color
        self.illegal = illegal
        self.render_mode = render_mode
        self.single_observation_space = _obs_space()
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        kernel = opponent.kernel
        self._opp = (np.int64(kernel[0]), *kernel[1:])
        n = num_envs
        self._allocate(self.single_observation_space.shape, N_ACTIONS)
        self._boards = np.zeros((n, 4), np.uint64)  # mover, opponent, side to move, learner
        self._rng = np.zeros(n, np.uint64)  # each opponent's stream
        self._illegal = np.zeros(n, np.bool_)
        self._names = np.array(COLOR_NAMES, dtype=object)
        self._gens: list[np.random.Generator] = []

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every board; ``seed=s`` seeds board i as a single env seeded ``s + i``."""
        super().reset(seed=None if isinstance(seed, list) else seed)
        n = self.num_envs
        if seed is not None:
            self._gens = [seeding.np_random(s)[0] for s in board_seeds(seed, n)]
        elif not self._gens:
            self._gens = [
                seeding.np_random(int(s))[0] for s in self.np_random.integers(2**63, size=n)
            ]
        self._draw(range(n))
        _reset_all(self._boards, self._opp, self._rng, self._obs_flat, self._masks)
        self._pending[:] = False
        self._illegal[:] = False
        return self._obs.copy(), self._info()

    def _draw(self, boards: Any) -> None:
        """What a single env draws at its reset, in its order: the opponent's seed, then the
        learner's colour when it is drawn."""
        for i in boards:
            gen = self._gens[i]
            self._rng[i] = self.opponent.seed_state(int(gen.integers(2**63)))
            if self.color_option == "random":
                self._boards[i, 3] = int(gen.integers(2))
            else:
                self._boards[i, 3] = BLACK if self.color_option == "black" else WHITE

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every board (boards whose episode ended last step reset instead)."""
        if not self._gens:
            raise ValueError("step() before reset()")
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if self.illegal == "raise":
            i = int(_first_illegal(self._masks, acts, self._pending))
            if i >= 0:
                try:
                    self.boards()[i].play(int(acts[i]))
                except ValueError as e:
                    raise ValueError(f"board {i}: {e}") from None
        self._draw(np.flatnonzero(self._pending))
        _step_all(
            self._boards, acts, self._opp, self._rng, self._obs_flat,
            self._masks, self._rewards, self._terminated, self._illegal, self._pending,
        )  # fmt: skip
        return self._returns()

    def _info(self) -> dict[str, Any]:
        info = {
            "action_mask": self._masks.copy(),
            "_action_mask": self._all.copy(),
            "color": self._names[self._boards[:, 3].astype(np.intp)],
            "_color": self._all.copy(),
        }
        if self._illegal.any():
            info["illegal"] = self._illegal.copy()
            info["_illegal"] = self._illegal.copy()
        return info

    def boards(self) -> list[Board]:
        """The current positions."""
        return [Board.from_mover(int(p), int(o), int(c)) for p, o, c, _ in self._boards]

    def _render(self, mode: str) -> tuple[Any, ...]:
        from boardai.othello.render import board_image

        if mode == "rgb_array":
            return tuple(board_image(b, legal=b.legal_actions()) for b in self.boards())
        return tuple(str(b) for b in self.boards())
