"""``python -m mtgsim`` runs the command line."""

import sys

from mtgsim.cli import main

if __name__ == "__main__":
    sys.exit(main())
