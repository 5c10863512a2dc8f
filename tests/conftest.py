"""Suite-wide settings: hypothesis without per-example deadlines (numba compiles on first use,
and CI runs on a small shared machine, so wall-clock limits would only add flakiness); and
Ctrl-C for the commands the tests start, however the suite itself was started."""

import signal

from hypothesis import settings

settings.register_profile("boardai", deadline=None, print_blob=True)
settings.load_profile("boardai")

# A suite started in the background of a non-interactive shell (`nohup pytest &`) ignores
# SIGINT, and so would every command it starts (an ignored signal stays ignored across exec,
# and Python then installs no KeyboardInterrupt handler): the tests that press Ctrl-C in a
# command waited out their timeouts. A handler here is reset to the default at exec instead.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
