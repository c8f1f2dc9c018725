"""Seed 001 (Bassily, Moran, Nandi: PPM learning of halfspaces): exact privacy profile,
theorem checks and errata."""
