"""``python -m zarr_reshape``: the ``zarr-reshape`` command."""

import sys

from ._cli import main

sys.exit(main())
