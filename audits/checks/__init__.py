"""Theorem checks and errata: the experiment registry (:mod:`.experiments`), the binomial tests, power and
Holm's correction (:mod:`.theorems`), and the errata settled by measurement (:mod:`.errata`). Above the
privacy audit, below the run."""
