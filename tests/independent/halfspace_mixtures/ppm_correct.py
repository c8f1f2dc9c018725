"""A_LearnHalf (seed 001 Algorithm 2): public rows = status bit 0; C~_pub and Aff from the public points
(the spec's output encoding indexes the rows of dptestbed.impl.halfspace_mixtures.family.halfspace_family,
so that public function is called, as the contract says; its code was not read); G = index sets J of
1..d distinct rows plus the constant-1 hypothesis; exponential mechanism on all n examples with
weights exp(-eps * m(g)/2), m(g) = mistakes of g. Output: J sorted, padded with -1 to length d.

m(g) for |J| <= 2 by matrix products: with I[i, a] = 1[x_i in h_a], z_i = 1[x_i in Aff] and
s_i = +1 for label 1, -1 for label 0, m(J) = n_0 + sum_i z_i s_i prod_{a in J} I[i, a].

Output encoding (the spec's, (d, d + 1)): row r of the output is the halfspace J[r] of C~_pub given by the
input positions of the public points that support it, padded with -1, then its side; C~_pub's rows come by
subset size, then lexicographically, +1 before -1 (:func:`family_rows`, checked against halfspace_family's
length); unused rows (-1, ..., -1, 0)."""
import itertools

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import affine_hull, halfspace_family


def _candidates(X, y, p, tol_scale_rows=None):
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    y = np.asarray(y).reshape(-1).astype(np.int64)
    pub = np.asarray(p).reshape(-1) == 0
    Xp = X[pub]
    n0 = int(np.sum(y == 0))
    const = np.full((1, d), -1, dtype=np.int64)
    if Xp.shape[0] == 0:
        return const, np.array([float(np.sum(y != 1))]), d
    W = np.asarray(halfspace_family(Xp), dtype=np.float64).reshape(-1, d + 1)
    aff = affine_hull(Xp)
    scale_rows = Xp if tol_scale_rows is None else np.asarray(tol_scale_rows, dtype=np.float64)
    tol = 1e-9 * max(1.0, float(np.max(np.abs(scale_rows))) if scale_rows.size else 1.0)
    I = ((X @ W[:, :d].T) >= (W[:, d][None, :] - tol)).astype(np.float64)       # (n, |W|)
    B = np.asarray(aff.B, dtype=np.float64).reshape(-1, d)
    diff = X - np.asarray(aff.u, dtype=np.float64).reshape(1, d)
    resid = diff - (diff @ B.T) @ B
    z = (np.linalg.norm(resid, axis=1) <= tol).astype(np.float64)
    s = np.where(y == 1, 1.0, -1.0) * z                                         # (n,)
    Wn = W.shape[0]
    cands = [const]
    ms = [np.array([float(np.sum(y != 1))])]
    # |J| = 1
    c1 = np.full((Wn, d), -1, dtype=np.int64)
    c1[:, 0] = np.arange(Wn)
    cands.append(c1)
    ms.append(n0 + s @ I)
    if d >= 2:
        iu, ju = np.triu_indices(Wn, k=1)                  # combinations order
        M = (I * s[:, None]).T @ I
        c2 = np.full((iu.size, d), -1, dtype=np.int64)
        c2[:, 0], c2[:, 1] = iu, ju
        cands.append(c2)
        ms.append(n0 + M[iu, ju])
    for size in range(3, d + 1):
        combos = np.array(list(itertools.combinations(range(Wn), size)), dtype=np.int64).reshape(-1, size)
        vals = np.empty(combos.shape[0])
        for r, J in enumerate(combos):
            vals[r] = n0 + s @ np.prod(I[:, J], axis=1)
        cs = np.full((combos.shape[0], d), -1, dtype=np.int64)
        cs[:, :size] = combos
        cands.append(cs)
        ms.append(vals)
    return np.concatenate(cands), np.rint(np.concatenate(ms)), d


def family_rows(p, d, n_rows):
    """(positions padded with -1 to d, side) of each of halfspace_family's ``n_rows`` rows, in C~_pub's order."""
    positions = np.flatnonzero(np.asarray(p).reshape(-1) == 0)
    subsets = [subset for size in range(d + 1) for subset in itertools.combinations(positions.tolist(), size)]
    if positions.size and 2 * len(subsets) != n_rows:
        raise ValueError(f"C~_pub has {n_rows} rows, the enumeration {2 * len(subsets)}")
    table = np.full((2 * len(subsets), d), -1, dtype=np.int64)
    for k, subset in enumerate(subsets):
        table[2 * k:2 * k + 2, :len(subset)] = subset
    return table, np.tile(np.array([1, -1], dtype=np.int64), len(subsets))


def encode(J, rows, d):
    """(k, d) row indices of C~_pub (padded with -1) as the spec's (k, d, d + 1) outputs."""
    J = np.atleast_2d(np.asarray(J, dtype=np.int64))
    table, sides = rows
    out = np.full((J.shape[0], d, d + 1), -1, dtype=np.int64)
    out[:, :, d] = 0
    used = J >= 0
    out[used, :d] = table[J[used]]
    out[used, d] = sides[J[used]]
    return out


def encoder(data, d):
    """The encoding's rows for ``data``."""
    X = np.asarray(data["X"], dtype=np.float64)
    pub = np.asarray(data["p"]).reshape(-1) == 0
    n_rows = len(halfspace_family(X[pub])) if pub.any() else 0
    return family_rows(data["p"], d, n_rows)


def _probs(m, epsilon):
    sc = -0.5 * epsilon * m
    w = np.exp(sc - sc.max())
    return w / w.sum()


def learn(data, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    c = np.cumsum(_probs(m, epsilon))
    i = int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(cands) - 1))
    return encode(cands[i], encoder(data, d), d)[0]


def _batch(data, N, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    c = np.cumsum(_probs(m, epsilon))
    idx = np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), len(cands) - 1)
    return encode(cands[idx], encoder(data, d), d)


learn.batch = _batch
