"""Gymnasium's entry points for ``boardai/Othello-v0``: an opponent named by a player spec
(``gymnasium.make("boardai/Othello-v0", opponent="wpc")``) is built here, one layer above the
envs, which take their opponents as players or functions and import no players.

>>> env = make_env(opponent="random")
>>> env.opponent.name
'random'
>>> make_vector_env(2, opponent="greedy").opponent.name
'greedy'
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from boardai.othello import evaluation as E
from boardai.othello.env import Opponent, OthelloEnv
from boardai.othello.vector_env import (
    COMPILED_OPPONENTS,
    NTUPLE,
    RANDOM,
    CompiledOpponent,
    OthelloVectorEnv,
)


def player(opponent: str | Opponent) -> Opponent:
    """The opponent ``opponent`` names: a spec built into its player (seed 0: the env reseeds
    it every episode), a player or a function as it is.

    Raises:
        UsageError: a bad spec.
    """
    if not isinstance(opponent, str):
        return opponent
    from boardai.othello.agents import make_agent

    return make_agent(opponent, 0)


def make_env(opponent: str | Opponent = "wpc", **kwargs: Any) -> OthelloEnv:
    """The entry point of ``boardai/Othello-v0``: :class:`OthelloEnv` against ``opponent``
    (a player spec, a player, or a function ``Board -> action``)."""
    return OthelloEnv(player(opponent), **kwargs)


def compiled_opponent(opponent: str | Opponent) -> CompiledOpponent | None:
    """The kernel that plays ``opponent`` in the native vector env, or None when it has none
    there (a search, a DQN, a GTP engine, a function).

    Raises:
        UsageError: a bad spec.
    """
    if isinstance(opponent, str) and opponent.split(":", 1)[0].strip() not in COMPILED_OPPONENTS:
        return None  # nothing is built for the others
    from boardai.othello.agents._seeded import seed_state
    from boardai.othello.agents.ntuple import NTupleAgent
    from boardai.othello.agents.one_ply import OnePlyAgent
    from boardai.othello.agents.random_agent import RandomAgent

    agent = player(opponent)
    name = getattr(agent, "name", repr(agent))
    none = (np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64), np.zeros(1, np.float32))
    if isinstance(agent, RandomAgent):
        return CompiledOpponent(name, (RANDOM, E.WPC_WEIGHTS, *none), seed_state)
    if isinstance(agent, OnePlyAgent):
        return CompiledOpponent(name, (agent.kind, E.WPC_WEIGHTS, *none), seed_state)
    if isinstance(agent, NTupleAgent):
        squares, offsets, weights = agent.network.data()
        kernel = (NTUPLE, E.WPC_WEIGHTS, squares, offsets, weights)
        return CompiledOpponent(name, kernel, seed_state)
    return None  # ntuple with depth > 1: an alpha-beta search


def make_vector_env(
    num_envs: int = 1, opponent: str | Opponent = "wpc", **kwargs: Any
) -> gym.vector.VectorEnv:
    """The vector entry point of ``boardai/Othello-v0``: :class:`OthelloVectorEnv` against a
    compiled opponent (:func:`compiled_opponent`), else Gymnasium's ``SyncVectorEnv`` of
    :class:`OthelloEnv`, each env with its own player built from the spec (a player or a
    function given as an object is shared by the envs)."""
    compiled = compiled_opponent(opponent)
    if compiled is not None:
        return OthelloVectorEnv(num_envs, compiled, **kwargs)
    if isinstance(opponent, str):
        from boardai.othello.agents import check_spec

        check_spec(opponent)  # a bad spec fails here, not once per board
    return gym.vector.SyncVectorEnv([lambda: make_env(opponent, **kwargs) for _ in range(num_envs)])


# gymnasium.make reads the entry point's metadata (the render modes it checks and wraps)
make_env.metadata = OthelloEnv.metadata  # type: ignore[attr-defined]
