"""The web app: a FastAPI server (:mod:`boardai.ui.web.app`) with a WebSocket per game
(:mod:`boardai.ui.web.protocol`) and a plain HTML/CSS/JS page in ``static/``."""
