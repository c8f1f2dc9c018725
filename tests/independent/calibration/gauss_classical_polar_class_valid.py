"""gaussian_mechanism_classical -- VALID VARIANT (tester ta).

Classical Gaussian mechanism (Dwork-Roth Thm A.1 / diffprivlib Gaussian):
    out = f(D) + N(0, sigma^2 I_p),  sigma = sensitivity*sqrt(2 ln(1.25/delta))/epsilon.

Written differently: a callable class instance (no function object), per-call only (no .batch),
accepts lists, and draws the normals with the polar Box-Muller (Marsaglia) method from
rng.random() uniforms instead of rng.normal.  The polar method is an exact N(0,1) sampler
(rejection to the unit disc, then z = u*sqrt(-2 ln s / s)), so the output law is exactly
f(D) + N(0, sigma^2 I_p): the spec's law.  TRUTH: valid, mu = sens/sigma = 0.1858 at the defaults,
exact delta(0.9) = 3.5e-8 <= 1e-5.
"""
import math


class _ClassicalGaussian:
    def __call__(self, data, *, rng, epsilon, delta, sensitivity, **_ignored):
        f = [float(v) for v in (data.tolist() if hasattr(data, "tolist") else data)]
        if isinstance(f, float):
            f = [f]
        sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
        zs = []
        while len(zs) < len(f):
            while True:
                u = 2.0 * rng.random() - 1.0
                v = 2.0 * rng.random() - 1.0
                s = u * u + v * v
                if 0.0 < s < 1.0:
                    break
            k = math.sqrt(-2.0 * math.log(s) / s)
            zs.append(u * k)
            zs.append(v * k)
        import numpy as np
        return np.array([fi + sigma * zi for fi, zi in zip(f, zs)], dtype=np.float64)


gaussian = _ClassicalGaussian()
