"""A_LearnHalf (paper 001, Algorithm 2) -- PRIVACY BUG: two-pass sampler forgets the level sizes.

Step 9 is implemented with the "two-pass" sampler of the notes: first draw an error level m*, then
a hypothesis uniformly among those with m(g) = m*.  The level is drawn with probability
proportional to exp(-epsilon*m/2) over the DISTINCT levels present, forgetting the multiplicity
c_m = #{g : m(g) = m}.  So Pr[g] = exp(-epsilon*m(g)/2) / (c_{m(g)} * sum_levels exp(-epsilon*m/2)):
the level sizes c_m depend on the private rows, and a hypothesis that is alone on its level on S but
shares it with many others on a neighbour S' changes probability by a factor c_m.
"""
import itertools

import numpy as np

_V0 = np.sqrt(np.array([2.0, 3.0, 5.0, 7.0, 11.0]))


def _orth_rows(M, tol):
    if M.shape[0] == 0:
        return np.zeros((0, M.shape[1]))
    _, s, vt = np.linalg.svd(M, full_matrices=False)
    return vt[s > tol]


def _family(Xpub, d):
    """Rows (w, w0) of C~_pub, the subsets (public indices) and Aff = (u, B, tol)."""
    npub = Xpub.shape[0]
    tol = 1e-9 * max(1.0, float(np.max(np.abs(Xpub))) if npub else 1.0)
    u = Xpub[0]
    B = _orth_rows(Xpub - u, tol)
    eye = np.eye(d)
    cands = [_V0[:d]] + [eye[i] for i in range(d)]
    rows, subsets = [], []
    for size in range(0, d + 1):
        for S in itertools.combinations(range(npub), size):
            if size == 0:
                w = _V0[:d] / np.linalg.norm(_V0[:d])
                w0 = 0.0
            else:
                P = Xpub[list(S)]
                diffs = P - P[0]
                Q = _orth_rows(diffs, tol * max(1.0, np.sqrt(size)))
                if Q.shape[0] >= B.shape[0]:          # S spans Aff: complement of Aff
                    PA = eye - B.T @ B
                else:                                  # directions of Aff orthogonal to aff(S)
                    R = B - (B @ Q.T) @ Q if Q.shape[0] else B
                    A = _orth_rows(R, 1e-12)
                    PA = A.T @ A
                w = None
                for V in cands:
                    pv = PA @ V
                    if np.linalg.norm(pv) > 1e-6 * np.linalg.norm(V):
                        w = pv / np.linalg.norm(pv)
                        break
                w0 = float(w @ P.mean(axis=0))
            rows.append((w, w0, 1))
            rows.append((-w, -w0, -1))
            subsets.append(S)
            subsets.append(S)
    return rows, subsets, (u, B, tol)


def _enumerate(data, d):
    """Hypotheses of G (output arrays) and their mistake counts m(g) on all n rows."""
    X = np.asarray(data["X"], dtype=float).reshape(len(data["y"]), -1)
    y = np.asarray(data["y"]).astype(int)
    p = np.asarray(data["p"]).astype(int)
    d = X.shape[1]
    pub_pos = np.flatnonzero(p == 0)
    const = np.full((d, d + 1), -1, dtype=np.int64)
    const[:, d] = 0
    outs, mistakes = [const], [int(np.sum(y != 1))]
    if pub_pos.size == 0:
        return outs, np.array(mistakes)
    rows, subsets, (u, B, tol) = _family(X[pub_pos], d)
    resid = (X - u) - ((X - u) @ B.T) @ B if B.shape[0] else (X - u)
    in_aff = np.linalg.norm(resid, axis=1) <= tol
    inside = np.array([X @ w >= w0 - tol for (w, w0, _) in rows]) & in_aff[None, :]
    for j in range(1, d + 1):
        for J in itertools.combinations(range(len(rows)), j):
            ins = np.logical_and.reduce(inside[list(J)], axis=0)
            g = np.where(ins, 0, 1)
            out = const.copy()
            for r, a in enumerate(J):
                S = subsets[a]
                out[r, :d] = -1
                out[r, : len(S)] = pub_pos[list(S)]
                out[r, d] = rows[a][2]
            outs.append(out)
            mistakes.append(int(np.sum(g != y)))
    return outs, np.array(mistakes)


def _probs(data, epsilon, d):
    outs, m = _enumerate(data, d)
    levels, lvl_of = np.unique(m, return_inverse=True)
    lw = -0.5 * epsilon * levels
    pl = np.exp(lw - lw.max())
    pl /= pl.sum()                                  # BUG: should be c_m * exp(-eps m / 2)
    c = np.bincount(lvl_of)
    return np.stack(outs), pl[lvl_of] / c[lvl_of]


def ppm_halfspace_learner(data, *, rng, epsilon, d, n, n_pub, alpha, beta, err_hat):
    outs, pr = _probs(data, epsilon, d)
    return outs[rng.choice(pr.size, p=pr / pr.sum())]


def _batch(data, n_runs, /, *, rng, epsilon, d, n, n_pub, alpha, beta, err_hat):
    outs, pr = _probs(data, epsilon, d)
    return outs[rng.choice(pr.size, size=n_runs, p=pr / pr.sum())]


ppm_halfspace_learner.batch = _batch
