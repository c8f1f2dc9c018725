"""The six sparse-vector variants of Lyu, Su and Li 2017 ("Understanding the Sparse Vector
Technique for Differential Privacy", PVLDB 10(6), Figure 1, Algorithms 1-6), each as its
authors published it, with the epsilon its authors claimed.

Contract (all six): ``svt_lyu_N(data, *, rng, epsilon, threshold, c)``.
- ``data``: the query answers q_1(D)..q_m(D), float array of length m; every query has
  sensitivity Delta = 1 (neighbours move each answer by at most 1).
- ``epsilon``: the claimed privacy budget; ``threshold``: the public threshold T (the same
  T_i = T for every query); ``c``: the cutoff, the number of positive answers (tops) after
  which Algorithms 1-4 abort (Algorithms 5 and 6 have no cutoff and ignore ``c``).
- a query is answered top when q_i(D) + nu_i >= T + rho (Figure 1 compares with >=).
- output, Algorithms 1, 2, 4, 5, 6: int8 array of length m, 1 = top, 0 = bottom,
  -1 = not answered (aborted after the c-th top).
- output, Algorithm 3 (which releases the noisy answer q_i(D) + nu_i instead of top):
  float64 array of length 2m. Entries [0, m) are the answer codes a_i as above (1.0, 0.0,
  -1.0); entries [m, 2m) are the released values: q_i(D) + nu_i where a_i = 1, and exactly
  0.0 elsewhere. No NaN or infinity ever appears.
- batch samplers return the outputs stacked on axis 0: shape (n, m), or (n, 2m) for Alg. 3.

Which are private (Lyu et al. 2017): Alg. 1 (theirs) and Alg. 2 (Dwork and Roth 2014)
are epsilon-DP. Alg. 3 (Roth's lecture notes) releases noisy answers and is not
epsilon'-DP for any finite epsilon' (the loss grows with the number of bottoms);
Alg. 4 (Lee and Clifton 2014) is only ((1+6c)/4)*epsilon-DP; Alg. 5 (Stoddard et al. 2014,
no query noise) and Alg. 6 (Chen et al. 2015, query noise not scaled with c, no cutoff) are
not epsilon'-DP for any finite epsilon'.
"""

from __future__ import annotations

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, laplace

TOP, BOTTOM, NOT_ANSWERED = 1, 0, -1
DELTA = 1.0  # query sensitivity Delta (Figure 1 input); the specs fix it to 1


def _cutoff(c) -> int:
    if float(c) != int(c) or int(c) < 1:
        raise ValueError(f"c must be an integer >= 1, got {c!r}")
    return int(c)


# --------------------------------------------------------------------------- single runs


def svt_lyu_1(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 1 (their SVT): epsilon-DP. int8 codes of length m (1 top, 0 bottom, -1 aborted)."""
    q, c = as_vector(data), _cutoff(c)
    a = np.full(q.size, NOT_ANSWERED, dtype=np.int8)
    eps1 = epsilon / 2; rho = laplace(rng, DELTA / eps1)        # Alg. 1: eps1 = eps/2, rho = Lap(Delta/eps1)
    eps2 = epsilon - eps1; count = 0                            # Alg. 1: eps2 = eps - eps1, count = 0
    for i, qi in enumerate(q):                                  # Alg. 1: for each query q_i
        nu = laplace(rng, 2 * c * DELTA / eps2)                 # Alg. 1: nu_i = Lap(2c*Delta/eps2)
        if qi + nu >= threshold + rho:                          # Alg. 1: if q_i(D) + nu_i >= T_i + rho
            a[i] = TOP; count += 1                              # Alg. 1: output top, count = count + 1
            if count >= c:                                      # Alg. 1: abort if count >= c
                break
        else:
            a[i] = BOTTOM                                       # Alg. 1: output bottom
    return a


def svt_lyu_2(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 2 (Dwork and Roth 2014): epsilon-DP; rho is re-drawn after every top."""
    q, c = as_vector(data), _cutoff(c)
    a = np.full(q.size, NOT_ANSWERED, dtype=np.int8)
    eps1 = epsilon / 2; rho = laplace(rng, c * DELTA / eps1)    # Alg. 2: eps1 = eps/2, rho = Lap(c*Delta/eps1)
    eps2 = epsilon - eps1; count = 0                            # Alg. 2: eps2 = eps - eps1, count = 0
    for i, qi in enumerate(q):                                  # Alg. 2: for each query q_i
        nu = laplace(rng, 2 * c * DELTA / eps1)                 # Alg. 2: nu_i = Lap(2c*Delta/eps1)
        if qi + nu >= threshold + rho:                          # Alg. 2: if q_i(D) + nu_i >= T_i + rho
            a[i] = TOP; rho = laplace(rng, c * DELTA / eps2)    # Alg. 2: output top, rho = Lap(c*Delta/eps2)
            count += 1                                          # Alg. 2: count = count + 1
            if count >= c:                                      # Alg. 2: abort if count >= c
                break
        else:
            a[i] = BOTTOM                                       # Alg. 2: output bottom
    return a


def svt_lyu_3(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 3 (Roth's lecture notes): NOT private, releases q_i(D) + nu_i for tops.
    float64 array of length 2m: [codes (1.0/0.0/-1.0) | released values (0.0 where not top)]."""
    q, c = as_vector(data), _cutoff(c)
    m = q.size
    out = np.zeros(2 * m); out[:m] = NOT_ANSWERED
    eps1 = epsilon / 2; rho = laplace(rng, DELTA / eps1)        # Alg. 3: eps1 = eps/2, rho = Lap(Delta/eps1)
    eps2 = epsilon - eps1; count = 0                            # Alg. 3: eps2 = eps - eps1, count = 0
    for i, qi in enumerate(q):                                  # Alg. 3: for each query q_i
        nu = laplace(rng, c * DELTA / eps2)                     # Alg. 3: nu_i = Lap(c*Delta/eps2)
        if qi + nu >= threshold + rho:                          # Alg. 3: if q_i(D) + nu_i >= T_i + rho
            out[i] = TOP; out[m + i] = qi + nu                  # Alg. 3: output a_i = q_i(D) + nu_i (the defect)
            count += 1                                          # Alg. 3: count = count + 1
            if count >= c:                                      # Alg. 3: abort if count >= c
                break
        else:
            out[i] = BOTTOM                                     # Alg. 3: output bottom
    return out


def svt_lyu_4(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 4 (Lee and Clifton 2014): NOT epsilon-DP, only ((1+6c)/4)*epsilon-DP."""
    q, c = as_vector(data), _cutoff(c)
    a = np.full(q.size, NOT_ANSWERED, dtype=np.int8)
    eps1 = epsilon / 4; rho = laplace(rng, DELTA / eps1)        # Alg. 4: eps1 = eps/4, rho = Lap(Delta/eps1)
    eps2 = epsilon - eps1; count = 0                            # Alg. 4: eps2 = eps - eps1, count = 0
    for i, qi in enumerate(q):                                  # Alg. 4: for each query q_i
        nu = laplace(rng, DELTA / eps2)                         # Alg. 4: nu_i = Lap(Delta/eps2) (not scaled with c)
        if qi + nu >= threshold + rho:                          # Alg. 4: if q_i(D) + nu_i >= T_i + rho
            a[i] = TOP; count += 1                              # Alg. 4: output top, count = count + 1
            if count >= c:                                      # Alg. 4: abort if count >= c
                break
        else:
            a[i] = BOTTOM                                       # Alg. 4: output bottom
    return a


def svt_lyu_5(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 5 (Stoddard et al. 2014): NOT private; no query noise, no cutoff (c unused)."""
    q = as_vector(data); _cutoff(c)
    a = np.empty(q.size, dtype=np.int8)
    eps1 = epsilon / 2; rho = laplace(rng, DELTA / eps1)        # Alg. 5: eps1 = eps/2, rho = Lap(Delta/eps1)
    for i, qi in enumerate(q):                                  # Alg. 5: for each query q_i
        nu = 0.0                                                # Alg. 5: nu_i = 0
        a[i] = TOP if qi + nu >= threshold + rho else BOTTOM    # Alg. 5: top if q_i(D) + nu_i >= T_i + rho, else bottom
    return a


def svt_lyu_6(data, *, rng, epsilon, threshold, c):
    """Lyu et al. Alg. 6 (Chen et al. 2015): NOT private; query noise Lap(Delta/eps2), no cutoff (c unused)."""
    q = as_vector(data); _cutoff(c)
    a = np.empty(q.size, dtype=np.int8)
    eps1 = epsilon / 2; rho = laplace(rng, DELTA / eps1)        # Alg. 6: eps1 = eps/2, rho = Lap(Delta/eps1)
    eps2 = epsilon - eps1                                       # Alg. 6: eps2 = eps - eps1
    for i, qi in enumerate(q):                                  # Alg. 6: for each query q_i
        nu = laplace(rng, DELTA / eps2)                         # Alg. 6: nu_i = Lap(Delta/eps2)
        a[i] = TOP if qi + nu >= threshold + rho else BOTTOM    # Alg. 6: top if q_i(D) + nu_i >= T_i + rho, else bottom
    return a


# --------------------------------------------------------------------------- batch samplers


def _batch_codes(q, n, rng, *, threshold, rho_scale, nu_scale, c, resample_scale=None):
    """n independent runs of a Figure 1 variant. Returns (codes int8 (n, m), noisy answers (n, m)).

    rho_scale: initial threshold noise; nu_scale: query noise (None = no noise, Alg. 5);
    c: cutoff (None = no cutoff); resample_scale: rho re-drawn after each top (Alg. 2)."""
    n, m = int(n), q.size
    rho = laplace(rng, rho_scale, n)                                          # one rho per run
    noisy = q + laplace(rng, nu_scale, (n, m)) if nu_scale is not None else np.broadcast_to(q, (n, m))
    if resample_scale is None:
        top = noisy >= threshold + rho[:, None]                               # rho is shared by all queries of a run
        codes = top.astype(np.int8)
        if c is not None:
            tops_before = np.cumsum(top, axis=1, dtype=np.int64) - top        # tops strictly before query i
            codes[tops_before >= c] = NOT_ANSWERED                            # aborted after the c-th top
        return codes, noisy
    codes = np.empty((n, m), dtype=np.int8)
    count = np.zeros(n, dtype=np.int64)
    for i in range(m):                                                        # loop over queries, vectorised over runs
        active = count < c
        top = noisy[:, i] >= threshold + rho
        codes[:, i] = np.where(active, top, NOT_ANSWERED)
        redraw = active & top
        rho[redraw] = laplace(rng, resample_scale, int(redraw.sum()))         # Alg. 2: rho re-drawn after a top
        count += redraw
    return codes, noisy


def _batch_1(data, n, *, rng, epsilon, threshold, c):
    c = _cutoff(c)
    return _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=2 * DELTA / epsilon,
                        nu_scale=4 * c * DELTA / epsilon, c=c)[0]


def _batch_2(data, n, *, rng, epsilon, threshold, c):
    c = _cutoff(c)
    return _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=2 * c * DELTA / epsilon,
                        nu_scale=4 * c * DELTA / epsilon, c=c, resample_scale=2 * c * DELTA / epsilon)[0]


def _batch_3(data, n, *, rng, epsilon, threshold, c):
    c = _cutoff(c)
    codes, noisy = _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=2 * DELTA / epsilon,
                                nu_scale=2 * c * DELTA / epsilon, c=c)
    m = codes.shape[1]
    out = np.zeros((codes.shape[0], 2 * m))
    out[:, :m] = codes
    np.copyto(out[:, m:], noisy, where=codes == TOP)  # the noisy answer of each top, 0 elsewhere
    return out


def _batch_4(data, n, *, rng, epsilon, threshold, c):
    c = _cutoff(c)
    return _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=4 * DELTA / epsilon,
                        nu_scale=DELTA / (0.75 * epsilon), c=c)[0]


def _batch_5(data, n, *, rng, epsilon, threshold, c):
    _cutoff(c)
    return _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=2 * DELTA / epsilon,
                        nu_scale=None, c=None)[0]


def _batch_6(data, n, *, rng, epsilon, threshold, c):
    _cutoff(c)
    return _batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=2 * DELTA / epsilon,
                        nu_scale=2 * DELTA / epsilon, c=None)[0]


svt_lyu_1 = batched(_batch_1)(svt_lyu_1)
svt_lyu_2 = batched(_batch_2)(svt_lyu_2)
svt_lyu_3 = batched(_batch_3)(svt_lyu_3)
svt_lyu_4 = batched(_batch_4)(svt_lyu_4)
svt_lyu_5 = batched(_batch_5)(svt_lyu_5)
svt_lyu_6 = batched(_batch_6)(svt_lyu_6)
