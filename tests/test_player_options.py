"""Every player's options are checked when its spec is parsed: a value no search can use is
one line (UsageError), not a crash or a hang once the game has begun."""

from __future__ import annotations

import pytest

from boardai.errors import UsageError
from boardai.g2048.agents import REGISTRY as R2048
from boardai.othello.agents import REGISTRY as ROTHELLO
from boardai.spec import Registry

REFUSED = [
    # each of these passed the parse and then failed in play: an overflow in the search's
    # clock, a p4 the search refused at the first move, sums that overflowed to no move
    (ROTHELLO, "alphabeta:time=1e308", "time must be in 0..86400"),
    (ROTHELLO, "ntuple:time=1e30", "time must be in 0..86400"),
    (R2048, "expectimax:time_ms=1e300", "time_ms must be in 0..86400000"),
    (R2048, "ntuple:depth=3,time_ms=1e300", "time_ms must be in 0..86400000"),
    (R2048, "ntuple:p4=-1", r"p4 must be in \[0, 1\]"),
    (R2048, "ntuple:p4=1e308", r"p4 must be in \[0, 1\]"),
    (R2048, "expectimax:smoothness=1e308", r"smoothness must be in 0\.\.1e6"),
    (R2048, "dqn:threads=100000", r"threads must be in 1\.\."),
    (R2048, "dqn:device=meta", "device 'meta' is not one of"),
]


@pytest.mark.parametrize(("registry", "spec", "said"), REFUSED)
def test_unusable_values_are_refused_at_parse_time(
    registry: Registry, spec: str, said: str
) -> None:
    with pytest.raises(UsageError, match=said):
        registry.check(spec)


@pytest.mark.parametrize(
    ("registry", "spec"),
    [
        (ROTHELLO, "alphabeta:time=86400"),
        (ROTHELLO, "ntuple:time=0"),
        (R2048, "expectimax:time_ms=50"),
        (R2048, "expectimax:smoothness=1000000"),
        (R2048, "ntuple:p4=0"),
        (R2048, "dqn:threads=1,device=cpu"),
    ],
)
def test_the_bounds_keep_what_a_person_may_want(registry: Registry, spec: str) -> None:
    registry.check(spec)
