"""Results as plain JSON values."""

from __future__ import annotations

import numpy as np


def jsonable(value):
    """numpy scalars/arrays and formulas -> plain JSON values (NaN/inf -> null)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if hasattr(value, "source") and hasattr(value, "latex"):
        return value.source
    return value
