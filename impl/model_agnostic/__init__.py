"""Seeds 000/004: model-agnostic private learning via sparse vector and distance to instability (reference implementations and broken variants)."""
