"""The ``dptestbed`` command line (:func:`main`): one module per group of commands, :mod:`.specs`
(specs, show), :mod:`.audit` (audit), :mod:`.verify` (verify, check, report) and :mod:`.mutants`
(mutants); :mod:`.options` holds what they share, :mod:`.main` the parser and the dispatch.

Exit codes: 0 fine; 1 a violation was found (audit/verify/check); 2 bad input (bad spec,
unknown id, parameter out of domain) or an implementation error. User errors print one
line on stderr, never a traceback.
"""

from .main import main

__all__ = ["main"]
