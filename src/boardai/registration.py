"""Gymnasium registration: a table of ids and entry-point strings, so registering imports
none of the environments (nor numba, nor torch); and the checks and warnings the
environments of both games share."""

from __future__ import annotations

import numbers

#: env id -> (entry point, vector entry point or None). Add a row per environment.
ENVS: dict[str, tuple[str, str | None]] = {
    "boardai/2048-v0": (
        "boardai.g2048.env:Game2048Env",
        "boardai.g2048.vector_env:Game2048VectorEnv",
    ),
    "boardai/Othello-v0": (
        "boardai.othello.env_entry:make_env",
        "boardai.othello.env_entry:make_vector_env",
    ),
}


def register_envs() -> None:
    """Register every env of :data:`ENVS` with Gymnasium (once; a no-op if it is missing)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is a core dependency
        return
    for env_id, (entry, vector_entry) in ENVS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point=entry, vector_entry_point=vector_entry)


def check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    """A ``render_mode`` an env does not have is refused, naming the ones it has."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {modes}, got {render_mode!r}")


def warn_no_render_mode(env_id: str, mode: str) -> None:
    """Gymnasium's warning for ``render()`` on an env made with no ``render_mode`` (its own envs
    then return None; so do boardai's), suggesting ``mode``."""
    import gymnasium

    gymnasium.logger.warn(
        "You are calling render method without specifying any render mode. You can specify the "
        f'render_mode at initialization, e.g. gym.make("{env_id}", render_mode="{mode}")'
    )


def check_integer(name: str, value: object) -> None:
    """A whole-number option given as a float or a string is refused, not truncated or
    compared into a confusing TypeError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")


def check_num_envs(num_envs: object) -> None:
    """A vector env's ``num_envs``: a whole number, at least 1."""
    check_integer("num_envs", num_envs)
    assert isinstance(num_envs, numbers.Integral)
    if num_envs < 1:
        raise ValueError(f"num_envs must be >= 1, got {num_envs}")


def board_seeds(seed: int | list[int], num_envs: int) -> list[int]:
    """The seed of each board of a vector env reset with ``seed``: ``seed + i`` for board i
    (as Gymnasium's ``SyncVectorEnv`` seeds its envs), or a list, one a board."""
    seeds = seed if isinstance(seed, list) else [seed + i for i in range(num_envs)]
    if len(seeds) != num_envs:
        raise ValueError(f"{len(seeds)} seeds for {num_envs} envs")
    return seeds
