"""``python -m boardai`` runs the command line."""

import sys

from boardai.cli import main

sys.exit(main())
