"""The ``dptestbed`` command line (:func:`main`): one module per group of commands, :mod:`.specs`
(specs, show), :mod:`.audit` (audit), :mod:`.verify` (verify, check, report) and :mod:`.mutants`
(mutants); :mod:`.options` holds what they share, :mod:`.main` the parser and the dispatch.

Exit codes: per command in its ``--help`` (:data:`.options.EXIT_HELP`), the codes themselves in
:mod:`..base.verdict`; 2 is always bad usage, 130 an interruption. User errors print one line on
stderr, never a traceback.
"""

from .main import main

__all__ = ["main"]
