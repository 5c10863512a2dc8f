"""A sweep file: which learner, the options every trial shares, what varies between trials, and
how each trained model is measured. A small TOML file::

    trainer = "2048-ntuple"     # or "othello-ntuple"

    [base]                      # options of every trial (those of its `train ntuple` command)
    patterns = "0123,4567"
    episodes = 2000

    [grid]                      # every combination: 2 x 2 = 4 trials
    alpha = [0.1, 0.025]
    seed = [1, 2]

    [eval]                      # the final strength: games per trial, and their seed
    games = 200
    seed = 2024

Instead of ``[grid]``, a list of trials, each its own options over ``[base]`` (and, if wanted,
its ``name``)::

    [[trial]]
    alpha = 0.1

    [[trial]]
    tc = true
    alpha = 1.0

A trial is named after the values that vary between trials (``alpha-0.1_seed-1``; ``base``
when nothing varies): readable, safe in a path and an agent spec, and the same every time the
file is run. Everything is checked here, before any trial starts: an unknown option or a bad
value is one line (UsageError) naming the trial.

>>> plan = plan_from_dict({"trainer": "2048-ntuple", "base": {"patterns": "0123"},
...                        "grid": {"alpha": [0.1, 0.05], "seed": [3]}})
>>> [t.name for t in plan.trials], plan.trials[1].config.alpha, plan.trials[1].config.seed
(['alpha-0.1', 'alpha-0.05'], 0.05, 3)
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from boardai.errors import MIB, UsageError, read_limited
from boardai.learn.run import config_from_dict
from boardai.train import MANY_TRIALS
from boardai.train.learners import Evaluation, learner

#: The tables and keys of a sweep file.
SECTIONS = ("trainer", "base", "grid", "trial", "eval")
#: A trial's name: what a path and an agent spec (``ntuple:model=DIR/NAME/model.npz``) take.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+-]*(_[A-Za-z0-9.+-]+)*")
LONGEST_NAME = 100
#: The most bytes of a sweep file read: a grid of thousands of trials takes a few kB; a larger
#: or endless file (``/dev/zero``) is refused in one line.
MAX_PLAN_BYTES = 4 * MIB


@dataclass(frozen=True)
class Trial:
    """One configuration of a sweep."""

    name: str
    """Its folder's name, unique in the sweep."""
    values: dict[str, Any]
    """The values of the options that vary between trials (as the file gives them)."""
    config: Any
    """The learner's config dataclass, built and checked."""


@dataclass(frozen=True)
class Plan:
    """A sweep: its learner (by name), trials and evaluation."""

    trainer: str
    trials: tuple[Trial, ...]
    evaluation: Evaluation
    varied: tuple[str, ...]
    """The options that vary between trials, in the file's order."""


def config_json(config: Any) -> dict[str, Any]:
    """A config dataclass as JSON reads it back (tuples become lists): what a trial's files
    record and what a resumed sweep compares."""
    return json.loads(json.dumps(asdict(config)))


def read_plan(path: str | os.PathLike[str], most_trials: int | None = MANY_TRIALS) -> Plan:
    """The sweep file at ``path`` (UsageError, one line, for a file that cannot be read, is
    larger than :data:`MAX_PLAN_BYTES`, is not TOML, asks for anything unknown or out of
    range, or for more than ``most_trials`` trials where that is not None)."""
    where = os.fspath(path)
    try:
        data = tomllib.loads(read_limited(path, MAX_PLAN_BYTES, "a sweep file").decode("utf-8"))
    except OSError as e:
        raise UsageError(f"{where}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{where}: not TOML ({e})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not TOML (not UTF-8 text)") from None
    except RecursionError:  # a = [[[[...: tomllib reads nesting by recursion
        raise UsageError(f"{where}: not a sweep file (nested too deep)") from None
    return plan_from_dict(data, where, most_trials)


def plan_from_dict(
    data: Mapping[str, Any], where: str = "sweep", most_trials: int | None = MANY_TRIALS
) -> Plan:
    """The plan of a sweep file's contents; ``where`` names the file in errors. More than
    ``most_trials`` trials (None: no limit) is a UsageError, counted before any is built."""
    unknown = [k for k in data if k not in SECTIONS]
    if unknown:
        raise UsageError(f"{where}: unknown key {unknown[0]!r} (a sweep has {', '.join(SECTIONS)})")
    if not isinstance(data.get("trainer"), str):
        raise UsageError(f'{where}: name the learner, e.g. trainer = "2048-ntuple"')
    try:
        chosen = learner(data["trainer"])
    except UsageError as e:
        raise UsageError(f"{where}: {e}") from None
    base = _table(data, "base", where)
    grid = _table(data, "grid", where)
    listed = data.get("trial", [])
    if not isinstance(listed, list) or not all(isinstance(t, dict) for t in listed):
        raise UsageError(f"{where}: trials are [[trial]] tables")
    if grid and listed:
        raise UsageError(f"{where}: give a [grid] or [[trial]] tables, not both")
    try:
        evaluation = config_from_dict(Evaluation, _table(data, "eval", where))
    except ValueError as e:
        raise UsageError(f"{where}: [eval]: {e}") from None
    cls = chosen.config()
    try:
        config_from_dict(cls, base)
    except ValueError as e:
        raise UsageError(f"{where}: [base]: {e}") from None
    if "name" in grid:
        raise UsageError(
            f"{where}: [grid] name: a trial's name comes from the values that vary "
            '(or give each [[trial]] its own name = "...")'
        )
    if listed:
        _check_count(len(listed), "[[trial]] tables", most_trials, where)
        varied, named = _listed(listed, where)
    else:
        _check_count(_grid_size(grid, where), "[grid] combinations", most_trials, where)
        varied, named = _grid(grid, where)
    trials: list[Trial] = []
    seen: dict[str, int] = {}
    configs: dict[Any, str] = {}
    for i, (name, values) in enumerate(named):
        if name in seen:
            raise UsageError(
                f"{where}: trials {seen[name] + 1} and {i + 1} are both called {name!r} "
                '(give each [[trial]] its own name = "...")'
            )
        seen[name] = i
        options = {k: v for k, v in values.items() if k != "name"}
        try:
            config: Any = config_from_dict(cls, {**base, **options})
            chosen.check(config)
        except ValueError as e:
            raise UsageError(f"{where}: trial {name}: {e}") from None
        same = configs.setdefault(_frozen(config_json(config)), name)
        if same != name:  # alpha = [1, 1.0]: the same run, trained twice for nothing
            raise UsageError(
                f"{where}: trials {same} and {name} are the same configuration "
                "(to train one twice, give each its own seed)"
            )
        shown = {k: values[k] for k in varied if k in values}
        trials.append(Trial(name, shown, config))
    return Plan(chosen.name, tuple(trials), evaluation, varied)


def _frozen(value: Any) -> Any:
    """``value`` (JSON) as a key of a dict, equal where the values are: ``1`` and ``1.0`` too."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _table(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UsageError(f"{where}: {key} is a table ([{key}])")
    return value


def _check_count(count: int, what: str, most: int | None, where: str) -> None:
    if most is not None and count > most:
        raise UsageError(
            f"{where}: {count:,} {what}, more than {most:,} trials: each one is a training "
            "run; cut the sweep down, or train them all with boardai sweep --force"
        )


def _grid_size(grid: dict[str, Any], where: str) -> int:
    """The number of combinations of the grid's values (which it checks are lists)."""
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise UsageError(f"{where}: [grid] {key} is a list of values, e.g. {key} = [1, 2]")
    return math.prod(len(values) for values in grid.values())


def _grid(
    grid: dict[str, Any], where: str
) -> tuple[tuple[str, ...], list[tuple[str, dict[str, Any]]]]:
    """The options that vary and every combination of the grid's values, named."""
    _grid_size(grid, where)
    varied = tuple(k for k, v in grid.items() if len(v) > 1)
    named = []
    for combination in itertools.product(*grid.values()):
        values = dict(zip(grid, combination, strict=True))
        named.append((trial_name({k: values[k] for k in varied}), values))
    return varied, named


def _listed(
    listed: list[dict[str, Any]], where: str
) -> tuple[tuple[str, ...], list[tuple[str, dict[str, Any]]]]:
    """The options that differ between the [[trial]] tables, and each trial, named."""
    missing = object()
    keys = [k for k in dict.fromkeys(k for t in listed for k in t) if k != "name"]
    varied = tuple(
        k for k in keys if any(t.get(k, missing) != listed[0].get(k, missing) for t in listed)
    )
    named = []
    for i, t in enumerate(listed):
        name = t.get("name")
        if name is None:
            name = trial_name({k: t[k] for k in varied if k in t})
        elif not isinstance(name, str) or not NAME.fullmatch(name) or len(name) > LONGEST_NAME:
            raise UsageError(
                f"{where}: trial {i + 1}: name {name!r} is not a folder name (letters, digits, "
                f"and . + - _ inside; at most {LONGEST_NAME})"
            )
        named.append((name, t))
    return varied, named


def trial_name(values: Mapping[str, Any]) -> str:
    """The name of the trial of ``values`` (the options that vary): ``key-value`` pairs joined
    by ``_``, every character that a path or an agent spec would trip on made ``.``; a name
    too long is cut and ends with a hash of the whole.

    >>> trial_name({"patterns": "0123,4567", "alpha": 0.05, "tc": True})
    'patterns-0123.4567_alpha-0.05_tc-true'
    >>> trial_name({})
    'base'
    """
    name = "_".join(f"{key}-{_label(value)}" for key, value in values.items()) or "base"
    if len(name) > LONGEST_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:10]
        name = f"{name[: LONGEST_NAME - 11]}-{digest}"
    return name


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ".".join(_label(v) for v in value) or "none"
    text = repr(value) if isinstance(value, float) else str(value)
    return re.sub(r"[^A-Za-z0-9.+-]+", ".", text).strip(".") or "none"
