"""A_LearnHalf (001 Algorithm 2): exponential mechanism over G built from the public points.

Membership tests use closed halfspaces with a small scale-aware tolerance.
"""
# ---- shared core (copied into each ppm file) ----
import itertools

import numpy as np

_V0 = np.sqrt(np.array([2.0, 3.0, 5.0, 7.0, 11.0]))


def _affine(Xpub, tol):
    u = Xpub[0]
    D = Xpub - u
    _, s, vt = np.linalg.svd(D, full_matrices=False)
    k = int(np.sum(s > tol))
    return u, vt[:k]


def _family(Xpub, d, tol):
    """Rows (w, w0) of C~_pub in the spec's order (pairs: supported halfspace, opposite),
    with the subset of public indices behind each row."""
    u, B = _affine(Xpub, tol)
    k = B.shape[0]
    PB = B.T @ B
    basis = [_V0[:d]] + [np.eye(d)[i] for i in range(d)]
    W, W0, subsets = [], [], []
    npub = Xpub.shape[0]
    for size in range(0, d + 1):
        for S in itertools.combinations(range(npub), size):
            if size == 0:
                w = _V0[:d] / np.linalg.norm(_V0[:d])
                w0 = 0.0
            else:
                P = Xpub[list(S)]
                M = P - P[0]
                _, sm, vm = np.linalg.svd(M, full_matrices=False)
                r = int(np.sum(sm > tol * max(1.0, np.sqrt(size))))
                if r < k:
                    PM = vm[:r].T @ vm[:r]
                    PA = PB - PB @ PM @ PB
                    ev, evec = np.linalg.eigh((PA + PA.T) / 2)
                    A = evec[:, ev > 0.5]
                    PA = A @ A.T
                else:
                    PA = np.eye(d) - PB
                w = None
                for V in basis:
                    pv = PA @ V
                    if np.linalg.norm(pv) > 1e-6 * np.linalg.norm(V):
                        w = pv / np.linalg.norm(pv)
                        break
                w0 = float(w @ P.mean(axis=0))
            W += [w, -w]
            W0 += [w0, -w0]
            subsets += [S, S]
    return u, B, np.array(W), np.array(W0), subsets


class _G:
    """The class G in the spec's order: (), then index sets of 1..d rows by size, lexicographic."""

    def __init__(self, C, d):
        self.C, self.d = C, d
        self.sizes = [1] + [int(np.prod([C - i for i in range(j)]) // np.prod(range(1, j + 1))) for j in range(1, d + 1)]
        self.starts = np.cumsum([0] + self.sizes)
        if d >= 2:
            self.tri = np.triu_indices(C, 1)

    def __len__(self):
        return int(self.starts[-1]) if self.C > 0 else 1

    def J(self, idx):
        idx = int(idx)
        if idx == 0 or self.C == 0:
            return ()
        if idx < self.starts[2]:
            return (idx - 1,)
        if self.d >= 2 and idx < self.starts[3]:
            t = idx - self.starts[2]
            return (int(self.tri[0][t]), int(self.tri[1][t]))
        t = idx - self.starts[3]
        for j in range(3, self.d + 1):
            for J in itertools.combinations(range(self.C), j):
                if t == 0:
                    return J
                t -= 1
        raise IndexError(idx)


def _data(data):
    X = np.asarray(data["X"], dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    y = np.asarray(data["y"]).astype(np.int64).reshape(-1)
    p = np.asarray(data["p"]).astype(np.int64).reshape(-1)
    return X, y, p


def _hypotheses(data):
    """Mistake counts m(g) on all n examples for every g in G (spec order)."""
    X, y, p = _data(data)
    n, d = X.shape
    pub_pos = np.flatnonzero(p == 0)
    base = float(np.sum(y != 1))                       # the constant-1 hypothesis
    if pub_pos.size == 0:
        return _G(0, d), np.array([base]), [], pub_pos, d
    Xpub = X[pub_pos]
    tol = 1e-9 * max(1.0, float(np.max(np.abs(X))))   # scale-aware tolerance
    u, B, W, W0, subsets = _family(Xpub, d, tol)
    resid = (X - u) - (X - u) @ B.T @ B
    in_aff = np.linalg.norm(resid, axis=1) <= tol
    inside = ((X @ W.T) >= W0 - tol).T & in_aff        # (C, n): predicted 0 by the single row
    sgn = np.where(y == 1, 1.0, -1.0)                  # predicting 0 costs 1 on y = 1, saves 1 on y = 0
    insf = inside.astype(float)
    parts = [np.array([base]), base + insf @ sgn]
    G = _G(W.shape[0], d)
    if d >= 2:
        M2 = (insf * sgn) @ insf.T
        parts.append(base + M2[G.tri])
    for j in range(3, d + 1):
        parts.append(np.array([base + float(np.sum(np.logical_and.reduce(inside[list(J)], axis=0) * sgn))
                               for J in itertools.combinations(range(W.shape[0]), j)]))
    return G, np.concatenate(parts), subsets, pub_pos, d


def _encode(J, subsets, pub_pos, d):
    out = np.zeros((d, d + 1), dtype=np.int64)
    out[:, :d] = -1
    for r, a in enumerate(J):
        for t, i in enumerate(subsets[a]):
            out[r, t] = pub_pos[i]
        out[r, d] = 1 if a % 2 == 0 else -1
    return out
# ---- end core ----


def _probs(m, epsilon):
    wts = np.exp(-0.5 * epsilon * (m - m.min()))
    return wts / wts.sum()


def ppm_halfspace_learner(data, *, rng, epsilon, d=None, n=None, n_pub=None, alpha=None, beta=None, err_hat=None):
    G, m, subsets, pub_pos, dd = _hypotheses(data)
    i = int(rng.choice(len(m), p=_probs(m, epsilon)))
    return _encode(G.J(i), subsets, pub_pos, dd)


def ppm_halfspace_learner_batch(data, n_runs, *, rng, epsilon, d=None, n=None, n_pub=None, alpha=None, beta=None, err_hat=None):
    G, m, subsets, pub_pos, dd = _hypotheses(data)
    idx = rng.choice(len(m), size=n_runs, p=_probs(m, epsilon))
    codes = {}
    out = np.empty((n_runs, dd, dd + 1), dtype=np.int64)
    for r, i in enumerate(idx):
        i = int(i)
        if i not in codes:
            codes[i] = _encode(G.J(i), subsets, pub_pos, dd)
        out[r] = codes[i]
    return out


ppm_halfspace_learner.batch = ppm_halfspace_learner_batch
