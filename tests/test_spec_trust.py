"""The registry's trust boundary: what an untrusted client may build, in one place."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from boardai.errors import UsageError
from boardai.g2048.agents import REGISTRY as R2048
from boardai.othello.agents import REGISTRY as ROTHELLO
from boardai.spec import Choice, Range, Registry


@dataclass
class Opts:
    depth: int = 2
    time: float = 0.0
    model: str = ""
    kind: str = "a"


def registry() -> Registry:
    reg = Registry("test")

    @reg.register(
        "search",
        Opts,
        public={
            "depth": Range(1, 4),
            "time": Range(0.1, 5, default=1.0),
            "model": Choice(lambda: ["shipped"], default="shipped"),
        },
    )
    def make_search(opts: Opts, seed: int | None) -> SimpleNamespace:
        return SimpleNamespace(opts=opts, seed=seed)

    @reg.register("engine", Opts)
    def make_engine(opts: Opts, seed: int | None) -> SimpleNamespace:
        return SimpleNamespace(opts=opts, seed=seed)

    return reg


def test_only_public_players_are_built_for_clients():
    reg = registry()
    assert reg.public_names() == ["search"]
    assert reg.make("engine:kind=b").opts.kind == "b"  # a person may
    with pytest.raises(UsageError, match="'engine' is not offered here"):
        reg.make_untrusted("engine")


def test_bounds_and_safe_defaults():
    reg = registry()
    agent = reg.make_untrusted("search:depth=4", seed=3)
    assert agent.opts.depth == 4 and agent.opts.time == 1.0 and agent.seed == 3
    assert agent.name == "search:depth=4"
    assert reg.make("search").opts.time == 0.0  # the bound's default is for clients only
    for spec, words in [
        ("search:depth=5", "depth must be in 1..4 here"),
        ("search:depth=0", "depth must be in 1..4 here"),
        ("search:time=0", "time must be in 0.1..5 here"),
        ("search:model=/etc/passwd", "model must be one of: shipped"),
        ("search:kind=b", "option 'kind' cannot be set here (options: depth, time, model)"),
        ("search:depth=x", "is not an int"),
        ("search:time=nan", "'nan' is not a finite number"),  # it would pass the bounds
    ]:
        with pytest.raises(UsageError, match=re.escape(words)):
            reg.make_untrusted(spec)
    for spec in ("search:time=nan", "search:time=inf", "search:time=-inf"):  # trusted too
        with pytest.raises(UsageError, match="is not a finite number"):
            reg.make(spec)


def test_a_trusted_base_keeps_its_options_and_clients_adjust_within_bounds():
    reg = registry()
    base = "engine:kind=c,depth=9"  # above the cap: the person running the server chose it
    agent = reg.make_untrusted("strong", base=base)
    assert agent.opts.kind == "c" and agent.opts.depth == 9
    with pytest.raises(UsageError, match="cannot be set here"):
        reg.make_untrusted("strong:depth=3", base=base)  # engine has no public bounds
    agent = reg.make_untrusted("mine:depth=3", base="search:model=/my/file.npz,time=4")
    assert agent.opts.model == "/my/file.npz" and agent.opts.depth == 3 and agent.opts.time == 4


def test_values_a_preset_fills_in_are_bounded_too():
    with pytest.raises(UsageError, match=re.escape("max_depth must be in 1..6 here")):
        R2048.untrusted_options("expectimax:preset=strong")
    _, opts = R2048.untrusted_options("expectimax:preset=strong,max_depth=6,table_bits=20")
    assert opts.max_depth == 6 and opts.table_bits == 20
    with pytest.raises(UsageError, match="cannot be set here"):  # depth 8: not for clients
        R2048.untrusted_options("ntuple:preset=strong")


def test_bounds_name_only_real_options():
    reg = Registry("test")
    with pytest.raises(TypeError, match="unknown options"):
        reg.register("x", Opts, public={"dept": Range(1, 2)})


@pytest.mark.parametrize("registry", [R2048, ROTHELLO], ids=["2048", "othello"])
def test_every_player_chose_and_no_public_option_takes_a_path_or_command(registry):
    names = registry.names()
    assert set(registry.public_names()) <= set(names)
    assert "gtp" not in registry.public_names()
    for name in registry.public_names():
        for key, bound in registry.public_bounds(name).items():
            if key in ("model", "cmd"):
                assert isinstance(bound, Choice), (name, key)  # names, never free text


def test_othello_searches_always_have_a_time_budget():
    for spec in ("alphabeta", "alphabeta:depth=20", "ntuple:depth=2"):
        try:
            _, opts = ROTHELLO.untrusted_options(spec)
        except UsageError:  # ntuple without a shipped model
            continue
        assert 0 < opts.time <= 5
