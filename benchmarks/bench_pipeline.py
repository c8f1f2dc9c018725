"""Throughput of seed 000's record-level pipeline and vote-level samplers (measured, never asserted).

    python benchmarks/bench_pipeline.py [--quick]

1. Record-level classification pipeline (000 Sec. 4.1 / 004 Alg 2) at k = 1,000 chunks,
   n = 10^6 records, m = 1,000 public queries, 1-D threshold ERM: chunking, training the k chunk
   learners in one call, the (m, 2) vote counts, and one private run of the vote-level mechanism;
   under replace-one (fixed slots) and add/remove (keyed hash of record ids, public capacity).
2. Runs per second of every vote-level batch sampler of seed 000 (best of a few repeats).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import batch_rate

from dptestbed.impl.model_agnostic import classification as cl
from dptestbed.impl.model_agnostic import online_query_release as oqr
from dptestbed.impl.model_agnostic import soft_label as sl
from dptestbed.impl.model_agnostic import subsample_aggregate as sa


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def pipeline(n=1_000_000, k=1_000, m=1_000, relation="replace_one", seed=0):
    g = np.random.default_rng(seed)
    X = g.random(n)
    y = ((X >= 0.5) ^ (g.random(n) < 0.05)).astype(np.int64)       # flip noise 5%
    queries = g.random(m)
    ids = g.permutation(10 * n)[:n] if relation == "add_remove" else None
    key = sa.draw_hash_key(g) if relation == "add_remove" else None
    n_prime = n // k
    Theta = sa.LEARNERS["threshold_erm"]
    times = {}
    index, times["chunking"] = _timed(sa.chunk_index, n, k, relation=relation, ids=ids, key=key, n_prime=n_prime)
    (Xc, yc), times["gather"] = _timed(sa.chunk_data, X, y, index, Theta.pad)
    models, times["training (threshold ERM, k chunks)"] = _timed(Theta.fit, Xc, yc)
    votes, times["votes (k x m predictions, counts)"] = _timed(
        lambda: sa.votes_from_answers(Theta.predict(models, queries), 2))
    params = dict(epsilon=8.0, delta=1e-6, T=10, m=m)
    out, times["one private run (m queries)"] = _timed(cl.private_classification_queries, votes, rng=g, **params)
    times["total"] = sum(times.values())
    return times, out


# epsilon = 8, delta = 1e-3, T = 2, m = 10: lam = 2.75, w = 54.5; one unstable row in five, so
# the runs answer all 10 queries (two bottoms, c = 2 <= T) and the timings include no early halt
VOTES = np.array([[900, 100], [560, 440], [502, 498], [990, 10], [700, 300]] * 2)
LABELS_DIST = np.array([[1, 799.0], [2, 119.0], [3, 3.0], [4, 979.0], [5, 399.0]] * 2)
P = dict(epsilon=8.0, delta=1e-3, T=2, m=10)


def _soft_rows(g, m=10, K=1_000):
    centres = g.random(m)
    return np.clip(centres[:, None] + g.normal(0, 0.05, (m, K)), 0, 1)


def samplers(g):
    soft = _soft_rows(g)
    return [
        ("online_query_release (m=10, T=2)", oqr.online_query_release, LABELS_DIST, P),
        ("subsample_aggregate (m=10, L=2)", sa.subsample_aggregate, VOTES, P),
        ("subsample_aggregate (m=10, L=3)", sa.subsample_aggregate,
         np.stack([VOTES[:, 0] - 10, VOTES[:, 1], np.full(10, 10)], axis=1), P),
        ("subsample_aggregate_corrected (m=10)", sa.subsample_aggregate_corrected, VOTES, P),
        ("private_classification_queries (m=10)", cl.private_classification_queries, VOTES, P),
        ("private_classification_queries_conference", cl.private_classification_queries_conference, VOTES, P),
        ("label_private_learner (m=10)", cl.label_private_learner,
         {"x": np.linspace(0.05, 0.95, 10), "votes": VOTES}, P),
        ("soft_label_queries (m=10, K=1000)", sl.soft_label_queries, soft, dict(P, gamma=0.1)),
        ("soft_label_queries_corrected (m=10, K=1000)", sl.soft_label_queries_corrected, soft, dict(P, gamma=0.1)),
        ("soft_label_classifier (K=1000)", sl.soft_label_classifier, soft[0], dict(gamma=0.1, lam=5.0, w=50.0)),
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e5 records, fewer runs")
    args = parser.parse_args(argv)
    n_records = 100_000 if args.quick else 1_000_000
    for relation in ("replace_one", "add_remove"):
        times, out = pipeline(n=n_records, relation=relation)
        print(f"pipeline k=1000, n={n_records:.0e}, m=1000, threshold ERM, {relation}:")
        for name, t in times.items():
            print(f"  {name:40s} {t:8.3f} s")
        print(f"  released {np.mean(out >= 0):.0%}, bottom {np.mean(out == -1):.0%}, "
              f"not answered {np.mean(out == -2):.0%}")
    n, repeats = (20_000, 1) if args.quick else (200_000, 3)
    print(f"\n{'vote-level batch sampler':46s} {'runs/s':>12s}")
    for name, mechanism, data, params in samplers(np.random.default_rng(2)):
        print(f"{name:46s} {batch_rate(mechanism, data, params, n, repeats, seed=1):12.3g}")


if __name__ == "__main__":
    main()
