"""Where an implementation runs: the auditor's runner (:mod:`.runner`), the sandboxed workers
(:mod:`.workers`), their isolation (:mod:`.isolation`, the auditor's side; :mod:`.confinement`, the
worker's), what comes back checked (:mod:`.contract_checks`), the contract probe (:mod:`.probes`), CPU
limits (:mod:`.cpulimit`) and process trees (:mod:`.proctree`). Below the privacy audit and the checks."""
