"""A_LearnHalf (seed 001, Algorithm 2) written from the paper and the spec's output encoding alone,
with Step 5's halfspace computed from the spec's closed form (no function of the testbed is called):

- public rows: status bit p = 0; Aff: u = the first public point, directions by SVD of the public points
  minus u (singular values above tol = 1e-9 max(1, max|X_pub|)); membership in Aff: distance <= tol;
- C~_pub: for every subset S^ of at most d public positions (by size, then lexicographically) the halfspace
  {w.x >= w_0} (side +1) then {w.x <= w_0} (side -1); w = the unit projection of the first of
  V_0 = (sqrt 2, sqrt 3, sqrt 5, sqrt 7, sqrt 11)[:d], e_1, ..., e_d not orthogonal to the directions of
  Aff orthogonal to aff(S^) (to the complement of Aff when S^ spans Aff); w_0 = w.mean(S^); for S^ empty
  w = V_0/|V_0|, w_0 = 0; closed membership with tolerance tol;
- G: constant 1 and every set J of 1..d distinct members of C~_pub (g = 0 inside all of J and Aff);
- m(J) = mistakes on all n rows: with I[i, a] = 1[x_i in h_a], z_i = 1[x_i in Aff], s_i = +1 (label 1)
  or -1 (label 0), m(J) = n_0 + sum_i z_i s_i prod_{a in J} I[i, a];
- output: the (d, d + 1) rows of J (positions of S^ padded with -1, then the side), unused rows
  (-1, ..., -1, 0).

Functions (the truths are in tests/independent/MANIFEST.toml):
- ``learn``: the exponential mechanism with weights exp(-epsilon m/2) (the spec's law: correct);
- ``learn_sensitivity_three``: weights exp(-epsilon m/6), the score's sensitivity taken as 3/n instead of
  1/n: 3 times more private than it claims and about 3 times less accurate (its error scales like
  1/(epsilon n) where the mechanism dominates). Truth (measured on the competitive checks' instances, 1,000 runs
  each): mean population error 2.9 times the reference's at Theorem 4.9's d = 1 point (0.026 against 0.0089, n =
  800, epsilon = 0.3), 2.7 times the excess at Theorem 4.10's (0.014 against 0.0052), 4.0 times at n = 30,000,
  2.0 times at the d = 2 instance; every paper bound holds;
- ``learn_no_noise``: the first minimiser of m (no noise at all: not private);
- ``learn_constant``: the constant-1 hypothesis whatever the data.
"""
import itertools

import numpy as np

V0 = np.sqrt([2.0, 3.0, 5.0, 7.0, 11.0])


def _orthonormal(vectors, tol):
    """An orthonormal basis (rows) of the span of ``vectors`` (rows), by SVD with tolerance ``tol``."""
    vectors = np.atleast_2d(vectors)
    if vectors.size == 0:
        return np.zeros((0, vectors.shape[1] if vectors.ndim == 2 else 0))
    _, sv, vt = np.linalg.svd(vectors, full_matrices=False)
    return vt[sv > tol]


def _family(X_pub, pub_positions, d, tol):
    """(rows of C~_pub as (positions, side), W = (|C|, d + 1) [w, w_0], Aff (u, B))."""
    u = X_pub[0]
    A = _orthonormal(X_pub - u, tol)
    P_A = A.T @ A
    rows, W = [], []
    for size in range(0, d + 1):
        for subset in itertools.combinations(range(len(X_pub)), size):
            if size == 0:
                w, w0 = V0[:d] / np.linalg.norm(V0[:d]), 0.0
            else:
                S = X_pub[list(subset)]
                D = _orthonormal(S - S[0], tol)
                P_D = D.T @ D
                P_V = P_A - P_D if D.shape[0] < A.shape[0] else np.eye(d) - P_A
                w = None
                for v in [V0[:d], *np.eye(d)]:
                    proj = P_V @ v
                    if np.linalg.norm(proj) > 1e-9 * np.linalg.norm(v):
                        w = proj / np.linalg.norm(proj)
                        break
                w0 = float(w @ S.mean(axis=0))
            positions = [int(pub_positions[i]) for i in subset]
            for side in (1, -1):
                rows.append((positions, side))
                W.append(np.r_[side * w, side * w0])
    return rows, np.array(W), (u, A)


def _candidates(data):
    """(list of J as tuples of C~_pub indices, () for constant 1; their mistakes m; rows of C~_pub; d)."""
    X = np.asarray(data["X"], dtype=np.float64)
    n, d = X.shape
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    pub = np.flatnonzero(np.asarray(data["p"]).reshape(-1) == 0)
    n0 = int(np.sum(y == 0))
    if pub.size == 0:
        return [()], np.array([float(n0)]), [], d
    X_pub = X[pub]
    tol = 1e-9 * max(1.0, float(np.max(np.abs(X_pub))))
    rows, W, (u, A) = _family(X_pub, pub, d, tol)
    I = ((X @ W[:, :d].T) >= W[:, d][None, :] - tol).astype(np.float64)           # (n, |C|)
    diff = X - u
    z = (np.linalg.norm(diff - (diff @ A.T) @ A, axis=1) <= tol).astype(np.float64)
    s = np.where(y == 1, 1.0, -1.0) * z
    C = W.shape[0]
    sets, ms = [()], [np.array([float(n0)])]
    sets += [(a,) for a in range(C)]
    ms.append(n0 + s @ I)
    if d >= 2:
        iu, ju = np.triu_indices(C, k=1)
        M = (I * s[:, None]).T @ I
        sets += list(zip(iu.tolist(), ju.tolist()))
        ms.append(n0 + M[iu, ju])
    for size in range(3, d + 1):
        for J in itertools.combinations(range(C), size):
            sets.append(J)
            ms.append(np.array([n0 + s @ np.prod(I[:, list(J)], axis=1)]))
    return sets, np.rint(np.concatenate(ms)), rows, d


def _encode(J, rows, d):
    out = np.full((d, d + 1), -1, dtype=np.int64)
    out[:, d] = 0
    for r, a in enumerate(J):
        positions, side = rows[a]
        out[r, :len(positions)] = positions
        out[r, d] = side
    return out


def _draw(data, count, rng, exponent):
    sets, m, rows, d = _candidates(data)
    score = -exponent * m
    w = np.exp(score - score.max())
    c = np.cumsum(w)
    idx = np.minimum(np.searchsorted(c, rng.random(count) * c[-1], side="right"), len(sets) - 1)
    return np.stack([_encode(sets[i], rows, d) for i in idx])


def learn(data, *, rng, epsilon):
    return _draw(data, 1, rng, epsilon / 2)[0]


def _learn_batch(data, n, *, rng, epsilon):
    return _draw(data, n, rng, epsilon / 2)


learn.batch = _learn_batch


def learn_sensitivity_three(data, *, rng, epsilon):
    return _draw(data, 1, rng, epsilon / 6)[0]


def _three_batch(data, n, *, rng, epsilon):
    return _draw(data, n, rng, epsilon / 6)


learn_sensitivity_three.batch = _three_batch


def learn_no_noise(data, *, rng, epsilon):
    sets, m, rows, d = _candidates(data)
    return _encode(sets[int(np.argmin(m))], rows, d)


def _no_noise_batch(data, n, *, rng, epsilon):
    out = learn_no_noise(data, rng=rng, epsilon=epsilon)
    return np.broadcast_to(out, (n, *out.shape)).copy()


learn_no_noise.batch = _no_noise_batch


def learn_constant(data, *, rng, epsilon):
    d = np.asarray(data["X"]).shape[1]
    return _encode((), [], d)


def _constant_batch(data, n, *, rng, epsilon):
    return np.stack([learn_constant(data, rng=rng, epsilon=epsilon)] * n)


learn_constant.batch = _constant_batch
