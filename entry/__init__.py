"""dptestbed: a testbed for differentially private learning.

One package, three subpackages mapped from the repository's top-level folders (setup.py):
:mod:`dptestbed.spec` (the declarative specs and their loader), :mod:`dptestbed.impl` (reference
implementations) and :mod:`dptestbed.audits` (privacy auditor, theorem checks, report, command
line, pytest plugin). This package is a regular one (not an implicit namespace), so installing
dptestbed adds exactly one top-level name, ``dptestbed``, and pytest marks only it for assertion
rewriting in other projects' test runs.
"""
