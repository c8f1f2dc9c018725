"""Reference implementations, vectorised with numpy. Contract: ``mechanism(data, *, rng, **params)``."""
