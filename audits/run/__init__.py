"""Running a plan: what a run checks (:mod:`.planning`), its items in processes of their own (:mod:`.execution`,
:mod:`.dask_executor`), the run as a whole (:mod:`.suite`), the results document (:mod:`.results`), the output
folder (:mod:`.output_folder`) and the mutants' kill matrix (:mod:`.mutation`). Above the checks and the privacy
audit, below the command line."""
