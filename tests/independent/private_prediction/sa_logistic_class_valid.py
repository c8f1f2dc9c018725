"""Private PAC prediction by subsample-and-aggregate with a soft majority (valid, unusual).

Label 1 iff epsilon*nu/2 + L > 0 with L ~ Logistic(0, 1): Pr[1] = sigmoid(epsilon*nu/2) exactly
(the logistic CDF), so the law is the spec's soft majority. A callable instance, per-call only,
lazy imports, python int / list outputs, a log line on stdout, extra keyword arguments ignored.
"""


class SoftMajority:
    def __init__(self):
        self.n_calls = 0

    @staticmethod
    def _r(epsilon, alpha):
        import math
        return int(math.ceil(6.0 * math.log(4.0 / alpha) / epsilon))

    def __call__(self, data, *, rng, epsilon, alpha, **unused):
        import numpy as np

        self.n_calls += 1
        if self.n_calls % 100000 == 1:
            print(f"SoftMajority call {self.n_calls}")
        if isinstance(data, dict):
            X = np.asarray(data["X"], dtype=float)
            y = np.asarray(data["y"]).astype(int)
            xq = np.asarray(data["x"], dtype=float)
            r = self._r(epsilon, alpha)
            m = len(X) // r
            Xb = X[: r * m].reshape(r, m)
            yb = y[: r * m].reshape(r, m)
            teachers = np.where(yb == 1, Xb, np.inf).min(axis=1) if m > 0 else np.full(r, np.inf)
            q = xq.reshape(-1)
            nu = 2 * (q[:, None] >= teachers[None, :]).sum(axis=1) - r
            labels = [int(v) for v in (epsilon * nu / 2.0 + rng.logistic(0.0, 1.0, size=q.size) > 0)]
            return labels[0] if xq.ndim == 0 else labels
        c0, c1 = (int(v) for v in np.asarray(data).tolist())
        nu = c1 - c0
        return 1 if epsilon * nu / 2.0 + rng.logistic() > 0 else 0


sa_predict = SoftMajority()
