"""Results as plain JSON values, with one convention for every document dptestbed writes
(``schemas/common.schema.json``): a finite number is a JSON number, an infinite one the string
"inf" or "-inf" (a privacy loss without a finite bound), NaN is null."""

from __future__ import annotations

import math

import numpy as np


def jsonable(value):
    """numpy scalars/arrays and formulas -> plain JSON values: NaN -> null, an infinity -> "inf" / "-inf"."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return None
        return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")
    if hasattr(value, "source") and hasattr(value, "latex"):
        return value.source
    return value
