"""soft_label_queries_corrected (A_SL-Quer, Alg 6 with H_Priv, Alg 8), valid
variant written as a stateful class (the threshold w_hat lives on the object for one
call), histograms by np.bincount on integer bin indices, w = 2 lam log(4m/delta)."""
import math

import numpy as np


class SoftLabelQueries:
    def __init__(self, rng, epsilon, delta, T, m, gamma):
        self.rng = rng
        self.T = T
        self.n = int(math.floor(1.0 / gamma + 0.5))
        if abs(1.0 / gamma - self.n) > 1e-9 / gamma:
            raise ValueError("1/gamma must be an integer")
        self.gamma = gamma
        self.lam = math.sqrt(64.0 * T * math.log(2.0 / delta)) / epsilon
        self.w = 2.0 * self.lam * math.log(4.0 * m / delta)
        self.w_hat = self.w + rng.laplace(0.0, self.lam)

    @staticmethod
    def _dist(hist):
        if hist.size == 1:
            top, second = int(hist[0]), 0
        else:
            s = np.sort(hist)
            top, second = int(s[-1]), int(s[-2])
        return max(0, top - second - 1), int(np.argmax(hist))

    def h_priv(self, scores):
        n = self.n
        s = np.clip(np.asarray(scores, dtype=float), 0.0, 1.0)
        reg = np.minimum(np.floor(s * n + 1e-9).astype(np.int64), n - 1)
        dist, v = self._dist(np.bincount(reg, minlength=n))
        if dist + self.rng.laplace(0.0, 2.0 * self.lam) > self.w_hat:
            return (2 * (v + 1) - 1) * self.gamma / 2.0, 0
        self.w_hat = self.w + self.rng.laplace(0.0, self.lam)
        sh = np.floor(s * n - 0.5 + 1e-9).astype(np.int64)
        sh = sh[(sh >= 0) & (sh <= n - 2)]
        dist, v = self._dist(np.bincount(sh, minlength=n - 1))
        if dist + self.rng.laplace(0.0, 2.0 * self.lam) > self.w_hat:
            return (v + 1) * self.gamma, 1
        return None, 1

    def run(self, rows):
        out = np.tile(np.array([-2.0, -1.0]), (len(rows), 1))
        c = 0
        for i, row in enumerate(rows):
            if c > self.T:
                break
            s_hat, flag = self.h_priv(row)
            if flag == 1:
                if s_hat is None:
                    c += 2
                    self.w_hat = self.w + self.rng.laplace(0.0, self.lam)
                else:
                    c += 1
            out[i] = (-1.0 if s_hat is None else s_hat, float(flag))
        return out


def queries(data, *, rng, epsilon, delta, T, m, gamma):
    rows = np.atleast_2d(np.asarray(data, dtype=float))
    return SoftLabelQueries(rng, epsilon, delta, T, m, gamma).run(rows)
