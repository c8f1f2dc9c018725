"""The bottom layer every other one uses, importing nothing of the engine: the outcome classes and exit
codes (:mod:`.outcomes`), interval statistics (:mod:`.stats`), JSON values (:mod:`.serialize`), text made
safe (:mod:`.sanitize`), output files (:mod:`.outfiles`), signed results (:mod:`.integrity`) and the
discovery of the paper packages (:mod:`.discovery`)."""
