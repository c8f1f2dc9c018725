"""Test-suite settings: hypothesis runs derandomized (the same examples on every run, no example
database), so the suite is reproducible and CI cannot flake on a newly drawn example. Every
statistical test fixes its numpy seed explicitly."""

from hypothesis import settings

settings.register_profile("dptestbed", derandomize=True, database=None)
settings.load_profile("dptestbed")
