"""``python -m gpuscope``."""

import sys

from gpuscope.cli import main

sys.exit(main())
