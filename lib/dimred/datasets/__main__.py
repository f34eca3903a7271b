"""``python -m dimred.datasets``: see :mod:`dimred.datasets._cli`."""

import sys

from ._cli import main

sys.exit(main())
