"""Checks of seeds 000/004 (model-agnostic private learning via sparse vector and distance to instability): experiments, exact profiles, errata."""
