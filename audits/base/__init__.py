"""The bottom layer every other one uses, importing nothing of the engine: the verdict's classes, exit codes
and multiple-testing family (:mod:`.verdict`), interval statistics (:mod:`.stats`), JSON values
(:mod:`.serialize`), text made safe (:mod:`.sanitize`), output files (:mod:`.outfiles`), signed results
(:mod:`.integrity`) and the discovery of the paper packages (:mod:`.discovery`)."""
