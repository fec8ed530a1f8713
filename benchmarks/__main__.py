"""``python -m benchmarks``: see :mod:`benchmarks`."""

from .runner import main

raise SystemExit(main())
