"""Seeing and playing: the web app (:mod:`boardai.ui.web`), the terminal app
(:mod:`boardai.ui.tui`), board pictures and GIFs (:mod:`boardai.ui.pictures`), and the game
sessions they share (:mod:`boardai.ui.session`).

Importing this package imports nothing heavy: FastAPI, Textual and imageio load only inside
the modules that need them.
"""
