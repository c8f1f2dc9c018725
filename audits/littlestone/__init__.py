"""Seed 003 (Bun, Livni, Moran: Littlestone classes are privately learnable): theorem checks,
exact privacy profiles and errata; every module here registers itself when imported."""
