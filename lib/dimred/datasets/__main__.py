"""``python -m dimred.datasets``: see :mod:`dimred.datasets._cli`."""

import sys
import warnings

from ._cli import main, show_warning

warnings.showwarning = show_warning
sys.exit(main())
