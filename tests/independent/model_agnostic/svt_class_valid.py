"""A_sparseVec as a callable class instance; Laplace drawn as (Exp(1) x fair sign)
from a spawned child generator; output a plain python list of ints."""


class SparseVector:
    def __call__(self, data, *, rng, epsilon, delta, T, w, m, beta):
        import math
        child = rng.spawn(1)[0]
        lam = math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon

        def lap(b):
            e = child.exponential(b)
            return e if child.random() < 0.5 else -e

        out = []
        c = 0
        w_hat = w + lap(lam)
        for q in list(data):
            if c > T:
                out.append(-1)
                continue
            if float(q) + lap(2.0 * lam) > w_hat:
                out.append(1)
            else:
                out.append(0)
                c += 1
                w_hat = w + lap(lam)
        return out


sparse_vector = SparseVector()
