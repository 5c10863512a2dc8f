"""Suite-wide settings: hypothesis without per-example deadlines (numba compiles on first use,
and CI runs on a small shared machine, so wall-clock limits would only add flakiness)."""

from hypothesis import settings

settings.register_profile("boardai", deadline=None, print_blob=True)
settings.load_profile("boardai")
