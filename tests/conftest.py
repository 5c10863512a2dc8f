"""Suite-wide settings: hypothesis without per-example deadlines (numba compiles on first use,
and CI runs on a small shared machine, so wall-clock limits would only add flakiness); Ctrl-C
for the commands the tests start, however the suite itself was started; and the tests of one
``xdist_group`` on one worker."""

import signal

import pytest
from hypothesis import settings

settings.register_profile("boardai", deadline=None, print_blob=True)
settings.load_profile("boardai")

# A suite started in the background of a non-interactive shell (`nohup pytest &`) ignores
# SIGINT, and so would every command it starts (an ignored signal stays ignored across exec,
# and Python then installs no KeyboardInterrupt handler): the tests that press Ctrl-C in a
# command waited out their timeouts. A handler here is reset to the default at exec instead.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, tests marked ``xdist_group`` run on one worker, one after another:
    ``--dist load`` (what ``-n`` sets) becomes ``loadgroup``, which spreads every other test
    just as ``load`` does. The Ray tests (group ``ray``) each start Ray, a node of several
    processes, or a cluster of three: two workers starting them at once on a loaded 2-core
    machine left a raylet past Ray's fixed 30 s to register."""
    if config.getoption("dist", "no") == "load":
        config.option.dist = "loadgroup"
