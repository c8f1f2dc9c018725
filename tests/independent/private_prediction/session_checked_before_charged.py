"""BUG: budget accounting checks the remaining budget BEFORE charging ("while spent < epsilon_total:
answer; spent += epsilon"), so when epsilon_total/epsilon is not an integer the session answers
ceil(epsilon_total/epsilon) queries instead of floor(...).  E.g. epsilon_total=2, epsilon=0.8: it
answers 3 queries (spent 0, 0.8, 1.6 < 2), total loss 3*0.8 = 2.4 > 2 (pair: all answers 0 vs all
answers gamma).  With an integer ratio (defaults 2/1) it is exactly correct.
Expected class: claim violated (at a non-integer ratio); exactly right at the defaults.
"""
import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    out = np.full(f.shape, np.inf)
    spent = 0.0
    for t in range(f.size):
        if spent < epsilon_total:          # bug: should be spent + epsilon <= epsilon_total
            out[t] = f[t] + rng.laplace(0.0, gamma / epsilon)
            spent += epsilon
    return out
