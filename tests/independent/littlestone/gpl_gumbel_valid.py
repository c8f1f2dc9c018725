"""GenericLearner by the Gumbel-max trick: argmax_h (-epsilon*err_S(h)/2 + G_h),
G_h i.i.d. standard Gumbel, is exactly the exponential mechanism.  Per-call only,
a child generator derived from rng, a log line to stderr, numpy int64 result."""
import sys


def generic_private_learner(data, *, rng, epsilon, alpha, beta, n, H_size, verbose=False, **unused):
    import numpy as np  # lazy import
    child = np.random.default_rng(rng.integers(2**63))
    H = np.asarray(data["H"])
    x = np.asarray(data["x"])
    y = np.asarray(data["y"])
    err = (H[:, x] != y[None, :]).sum(axis=1).astype(float)
    score = -epsilon * err / 2.0 + child.gumbel(size=H.shape[0])
    k = np.int64(np.argmax(score))
    print(f"gumbel-max picked row {int(k)} of {H.shape[0]}", file=sys.stderr)
    return k
