"""Theorem experiments for seed 000 (being written). Registered on import by audits/experiments.py."""
