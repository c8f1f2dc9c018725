"""SOA breaking ties Ldim(V^+(x)) = Ldim(V^-(x)) towards -1 instead of +1.

VALID VARIANT per the paper: Littlestone's mistake bound and Fact A1 hold for any fixed deterministic
tie rule (the spec's theorem assumptions say 'a fixed deterministic tie rule'); the spec's encoding
fixes ties -> +1 (C2), so outputs differ on tied points.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soa_correct import soa as _soa


def soa(data, **params):
    return _soa(data, tie=-1)
