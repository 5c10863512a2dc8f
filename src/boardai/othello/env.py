"""Othello environments: a PettingZoo AEC env for two learners (:func:`env`, ``othello_v0``)
and a Gymnasium single-agent env that plays against an opponent given as a player (an
:class:`~boardai.agent.Agent`) or a function ``Board -> action``. A player named by its spec
(``gymnasium.make("boardai/Othello-v0", opponent="wpc")``) is built one layer up, by the
entry point (:mod:`boardai.othello.env_entry`): the envs import no players.

>>> import gymnasium as gym
>>> import boardai
>>> e = gym.make("boardai/Othello-v0", opponent="random")
>>> obs, info = e.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((3, 8, 8), (65,))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from boardai.agent import Agent, Closable
from boardai.othello.board import BLACK, COLOR_NAMES, N_ACTIONS, WHITE, Board
from boardai.othello.observations import OBS_SHAPE, observe
from boardai.registration import check_render_mode, warn_no_render_mode

__all__ = ["OBS_SHAPE", "Opponent", "OthelloEnv", "env", "observe", "raw_env"]

#: What the single env plays against: a player (reseeded and reset at every episode, closed
#: with the env) or a plain function of the board.
Opponent = Agent[Board] | Callable[[Board], int]


#: ``ansi``: the board as text; ``rgb_array``: a picture (the legal moves of the side to move
#: dotted; :func:`boardai.othello.render.board_image`), for video recorders.
RENDER_MODES = ["ansi", "rgb_array"]


def check_options(color: str, illegal: str, render_mode: str | None) -> None:
    """The options of :class:`OthelloEnv` (and its vector env) other than the opponent."""
    check_render_mode(render_mode, RENDER_MODES)
    if color not in ("black", "white", "random"):
        raise ValueError(f"color must be black, white or random, got {color!r}")
    if illegal not in ("lose", "raise"):
        raise ValueError(f"illegal must be 'lose' or 'raise', got {illegal!r}")


def _render(board: Board, render_mode: str | None, name: str) -> str | np.ndarray | None:
    """What ``render()`` returns in ``render_mode`` (None, with Gymnasium's warning, in none)."""
    if render_mode == "ansi":
        return str(board)
    if render_mode == "rgb_array":
        from boardai.othello.render import board_image

        return board_image(board, legal=board.legal_actions())
    warn_no_render_mode(name, "rgb_array")
    return None


def _obs_space() -> spaces.Box:
    return spaces.Box(0, 1, OBS_SHAPE, np.uint8)


class OthelloEnv(gym.Env[np.ndarray, np.int64]):
    """Othello against a fixed boardai player.

    ## Description
    Othello (Reversi) on 8x8, black first, standard start. The learner plays one colour; the
    opponent (a player or a function of the board) replies inside :meth:`step`.

    ## Action Space
    ``Discrete(65)``: square ``8*row + column`` (a1 = 0 top left), 64 = pass (legal only when
    no square is). ``info["action_mask"]`` (int8[65]) marks the legal actions, and
    :meth:`action_masks` (bool[65]) too, as sb3-contrib's ``MaskablePPO`` asks for them.

    ## Observation Space
    ``Box(0, 1, (3, 8, 8), uint8)``: the learner's discs, the opponent's, its legal squares.

    ## Rewards
    +1 for a win, -1 for a loss, 0 for a draw, at the end; 0 before. An illegal action loses
    at once (reward -1, ``info["illegal"] = True``) unless ``illegal="raise"``.

    ## Episode End
    Terminated when neither side can move (or on an illegal action); never truncated.

    ## Arguments
    - ``opponent``: a player (:class:`~boardai.agent.Agent`, reseeded from the env's seed and
      reset at every episode) or a function ``Board -> action``; through ``gymnasium.make``,
      a player spec (default ``"wpc"``).
    - ``color``: ``"black"``, ``"white"`` or ``"random"`` (per episode) for the learner.
    - ``illegal``: ``"lose"`` or ``"raise"`` (ValueError naming the move).
    - ``render_mode``: ``"ansi"`` (the board as text) or ``"rgb_array"`` (a picture, the legal
      moves dotted: for Gymnasium's video and frame-collecting wrappers).

    ## Version History
    - v0: first version.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012  (Gymnasium's form)

    def __init__(
        self,
        opponent: Opponent | None = None,
        color: str = "black",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        check_options(color, illegal, render_mode)
        if not (isinstance(opponent, Agent) or callable(opponent)):
            raise TypeError(
                f"opponent must be a player or a function Board -> action, got {opponent!r}"
                ' (gymnasium.make("boardai/Othello-v0", opponent=spec) builds one from a spec)'
            )
        self.opponent = opponent
        self.color_option = color
        self.illegal = illegal
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = _obs_space()
        self.board = Board.initial()
        self.color = BLACK
        self._act: Callable[[Board], int] = (
            opponent.act if isinstance(opponent, Agent) else opponent
        )

    def _reply(self) -> None:
        while not self.board.is_terminal() and self.board.to_move != self.color:
            self.board = self.board.play(self._act(self.board))

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.board.action_mask(), "color": COLOR_NAMES[self.color], **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        opp_seed = int(self.np_random.integers(2**63))  # drawn for a function too: same colours
        if isinstance(self.opponent, Agent):
            # a player reseeded plays as one just built with that seed (boardai.agent)
            self.opponent.reseed(opp_seed)
            self.opponent.reset()
        if self.color_option == "random":
            self.color = int(self.np_random.integers(2))
        else:
            self.color = BLACK if self.color_option == "black" else WHITE
        self.board = Board.initial()
        self._reply()
        return observe(self.board), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        a = int(action)
        if self.board.is_terminal():
            raise ValueError("step() after the episode ended: call reset()")
        if a not in self.board.legal_actions():
            if self.illegal == "raise":
                self.board.play(a)  # raises ValueError naming the move
            return observe(self.board), -1.0, True, False, self._info(illegal=True)
        self.board = self.board.play(a)
        self._reply()
        done = self.board.is_terminal()
        reward = float(self.board.result(self.color)) if done else 0.0
        return observe(self.board), reward, done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array of 65 (what ``MaskablePPO`` asks for)."""
        return self.board.action_mask().astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The board as text (``ansi``) or a picture (``rgb_array``); with no
        ``render_mode``, None and Gymnasium's warning."""
        return _render(self.board, self.render_mode, "boardai/Othello-v0")

    def close(self) -> None:
        """Let go of the opponent's resources (a ``gtp`` player's engine process: its next
        move starts it again)."""
        if isinstance(self.opponent, Closable):
            self.opponent.close()


# -- PettingZoo ------------------------------------------------------------------------------


#: What a PettingZoo env without PettingZoo says (the ``othello`` extra installs it).
NEEDS_PETTINGZOO = (
    "the PettingZoo env othello_v0 needs pettingzoo, which is not installed: "
    'pip install "boardai[othello]"'
)


def _pettingzoo() -> Any:
    """The ``pettingzoo`` package; without it, a ModuleNotFoundError (an ImportError) that
    says in one line which extra installs it, not Python's bare "No module named"."""
    try:
        import pettingzoo
        import pettingzoo.utils
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] != "pettingzoo":
            raise  # one of pettingzoo's own imports: its message names it
        raise ModuleNotFoundError(NEEDS_PETTINGZOO, name="pettingzoo") from None
    return pettingzoo


def env(render_mode: str | None = None) -> Any:
    """The PettingZoo AEC env ``othello_v0`` (with PettingZoo's order-enforcing wrapper)."""
    wrappers = _pettingzoo().utils.wrappers
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode))


def raw_env(render_mode: str | None = None) -> Any:
    """The AEC env without wrappers."""
    return _aec_class()(render_mode)


_AEC: type | None = None


def _aec_class() -> type:
    global _AEC
    if _AEC is not None:
        return _AEC
    _pettingzoo()  # without it: the one line naming the extra
    from pettingzoo import AECEnv

    class OthelloAEC(AECEnv):
        """Two-player Othello for PettingZoo: agents ``player_0`` (black) and ``player_1`` (white).

        Observations are dicts ``{"observation": uint8 (3, 8, 8) planes from that agent's
        view, "action_mask": int8[65]}`` (the mask is all zero when it is not its turn).
        Rewards +1 / -1 / 0 at the end; an illegal action raises ValueError naming it.
        """

        metadata = {"render_modes": RENDER_MODES, "name": "othello_v0", "is_parallelizable": False}  # noqa: RUF012

        def __init__(self, render_mode: str | None = None) -> None:
            super().__init__()
            check_render_mode(render_mode, RENDER_MODES)
            self.possible_agents = ["player_0", "player_1"]
            self.agents = self.possible_agents[:]
            self.render_mode = render_mode
            space = spaces.Dict(
                {
                    "observation": _obs_space(),
                    "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
                }
            )
            self.observation_spaces = {a: space for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
            self.board = Board.initial()

        def observation_space(self, agent: str) -> spaces.Space:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> spaces.Space:
            return self.action_spaces[agent]

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            color = self.possible_agents.index(agent)
            view = self.board if self.board.to_move == color else _swap(self.board)
            mask = (
                self.board.action_mask()
                if self.board.to_move == color
                else np.zeros(N_ACTIONS, np.int8)
            )
            return {"observation": observe(view), "action_mask": mask}

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.board = Board.initial()
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = "player_0"

        def step(self, action: Any) -> None:
            if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
                self._was_dead_step(action)
                return
            agent = self.agent_selection
            self._cumulative_rewards[agent] = 0
            self._clear_rewards()
            self.board = self.board.play(int(action))  # ValueError names an illegal move
            if self.board.is_terminal():
                for a in self.agents:
                    color = self.possible_agents.index(a)
                    self.rewards[a] = self.board.result(color)
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[self.board.to_move]
            self._accumulate_rewards()

        def render(self) -> str | np.ndarray | None:
            return _render(self.board, self.render_mode, "othello_v0")

        def close(self) -> None:
            pass

    _AEC = OthelloAEC
    return _AEC


def _swap(board: Board) -> Board:
    """The same discs with the other side to move (for an observer who is not the mover)."""
    return Board.from_mover(board.opponent, board.mover, 1 - board.to_move)
