"""bounded_mean, BUG: sensitivity written as upper/n (the developer assumed lower = 0).

Kind: a parameter silently ignored; harmless at the default point (lower = 0), wrong only in
another parameter regime (lower != 0).

TRUTH: noise scale is upper/(n*epsilon) instead of (upper-lower)/(n*epsilon).
 - defaults (eps=1, lower=0, upper=1, n=10): identical to the spec (loss 1.0 = claim, valid there).
 - audit point eps=0.5, lower=-2, upper=3, n=5: pair D=[-2,0,0,0,0] vs D'=[3,0,0,0,0] (clipped mean
   moves by 1); Laplace scale 3/(5*0.5)=1.2 instead of 1.0, so the exact privacy loss is
   1/1.2 = 0.8333 against the claim 0.5 (pure epsilon, Laplace shift: exact).
 - if upper <= 0 (e.g. lower=-3, upper=0) the scale is 0 or negative: numpy raises for scale < 0,
   returns the exact mean for scale 0 (infinite loss) -- not at any audit point.
"""
import numpy as np


def mean(data, *, rng, epsilon, lower, upper, n):
    x = np.clip(np.asarray(data, dtype=float).ravel(), lower, upper)
    sens = upper / x.size          # BUG: should be (upper - lower) / x.size
    return float(x.mean() + rng.laplace(0.0, sens / epsilon))
