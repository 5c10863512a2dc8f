"""Suite-wide settings: hypothesis without per-example deadlines (numba compiles on first use,
and CI runs on a small shared machine, so wall-clock limits would only add flakiness); Ctrl-C
for the commands the tests start, however the suite itself was started; and the Ray tests on
one worker."""

import signal
from typing import Any

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


#: Test files whose tests run on one pytest-xdist worker, one after another. Each of them starts
#: Ray (a node of several processes, or a cluster of three), in this process or in a child: two
#: workers starting them at once on a loaded 2-core machine left a raylet past Ray's fixed 30 s
#: to register. (``xdist_group`` marks would say this in the files, but pytest-xdist 3.8 groups
#: by renaming a test's ``_nodeid``, which pytest 9 no longer reads: they group nothing.)
ONE_WORKER = (
    "tests/arena/test_ray.py",
    "tests/arena/test_ray_interrupt.py",
    "tests/arena/test_ray_start.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist load`` (what ``-n`` sets), but the tests of :data:`ONE_WORKER` are one unit of
    work, sent to one worker; every other test is a unit of its own, spread as ``load`` does."""
    if config.getoption("dist", "no") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "one worker" if nodeid.split("::")[0] in ONE_WORKER else nodeid

    return Scheduling(config, log)
