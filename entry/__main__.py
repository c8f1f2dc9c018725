"""``python -m dptestbed``: the same command line as the ``dptestbed`` script."""

from dptestbed.audits.cli import main

raise SystemExit(main())
