"""Results as plain JSON values."""

from __future__ import annotations

import math

import numpy as np


def jsonable(value, *, infinite: str = "null"):
    """numpy scalars/arrays and formulas -> plain JSON values. NaN -> null; an infinity -> null,
    or with ``infinite="string"`` the strings "inf" / "-inf" (a privacy loss that is infinite)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v, infinite=infinite) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, infinite=infinite) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist(), infinite=infinite)
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isfinite(v):
            return v
        return ("inf" if v > 0 else "-inf") if infinite == "string" and not math.isnan(v) else None
    if hasattr(value, "source") and hasattr(value, "latex"):
        return value.source
    return value
