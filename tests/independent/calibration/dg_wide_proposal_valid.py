"""discrete_gaussian_mechanism -- VALID VARIANT (class instance with __call__, per-call only).

Differences from the textbook (CKS Algorithm 3 with t = floor(sigma)+1, diffprivlib bisection):
  * sigma: found by bisection on LOG(sigma) over a fixed wide bracket [1e-3*sens, 1e4*sens/eps...]
    with Theorem 7's delta(eps) evaluated by direct summation of the normalised pmf over
    |k| <= ceil(sigma*40)+sens+ceil(eps*sigma^2/sens) (tail beyond is < 1e-300 relative).
    Stops when the bracket is relatively < 1e-13.  The root is the one where delta(eps) crosses
    the target from above as sigma grows (monotone in practice at these points).
  * sampler: CKS rejection but from a discrete Laplace with t = 2*floor(sigma)+3 (CKS Alg. 3 is
    exact for ANY t > 0: accept Y ~ Lap_Z(t) w.p. exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2));
    proposal made as the difference of two geometric variables, P[G=k] = (1-q) q^k,
    q = exp(-1/t), which is exactly Lap_Z(t)).
  * no .batch: per-call only; a class instance is the function.
TRUTH: output law f + N_Z(0, sigma^2) with the spec's sigma (3.74048 at defaults, up to root-
finding precision) -> (eps, delta(eps))-DP along Theorem 7's curve; Fact DG1 holds exactly.
"""
import math


def _pmf_tail_delta(eps, sigma, sens):
    # Theorem 7: P[Y > eps s^2/D - D/2] - e^eps P[Y > eps s^2/D + D/2]
    K = int(math.ceil(40 * sigma + sens + eps * sigma * sigma / sens)) + 2
    w = [math.exp(-k * k / (2 * sigma * sigma)) for k in range(0, K + 1)]
    Z = w[0] + 2 * math.fsum(w[1:])
    a = eps * sigma * sigma / sens - sens / 2.0
    b = eps * sigma * sigma / sens + sens / 2.0

    def gt(x):  # P[Y > x]
        s = 0.0  # noqa: F841 (the author's code, kept as written)
        terms = []
        for k in range(-K, K + 1):
            if k > x:
                terms.append(w[abs(k)])
        return math.fsum(terms) / Z

    return gt(a) - math.exp(eps) * gt(b)


class DiscreteGaussian:
    def __init__(self):
        self._cache = {}

    def sigma(self, eps, delta, sens):
        key = (float(eps), float(delta), int(sens))
        if key in self._cache:
            return self._cache[key]
        lo, hi = math.log(1e-3 * sens), math.log(1e4 * sens * (1 + 1 / eps))
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if _pmf_tail_delta(eps, math.exp(mid), sens) > delta:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-13:
                break
        s = math.exp(hi)
        self._cache[key] = s
        return s

    def _dlap(self, t, rng):
        q = math.exp(-1.0 / t)
        g1 = int(rng.geometric(1 - q)) - 1  # numpy geometric counts trials >= 1
        g2 = int(rng.geometric(1 - q)) - 1
        return g1 - g2

    def _dgauss(self, sigma, rng):
        t = 2 * int(math.floor(sigma)) + 3
        s2 = sigma * sigma
        while True:
            y = self._dlap(t, rng)
            if rng.random() < math.exp(-((abs(y) - s2 / t) ** 2) / (2 * s2)):
                return y

    def __call__(self, data, *, rng, epsilon=1.0, delta=1e-5, sensitivity=1):
        f = int(round(float(data)))
        s = self.sigma(epsilon, delta, int(sensitivity))
        return f + self._dgauss(s, rng)


mech = DiscreteGaussian()
