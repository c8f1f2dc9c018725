"""The exact losses behind the seed-000 mutants' labels, on every pair the privacy audit would try (computed,
never sampled; rerun it whenever the pair search changes).

    python benchmarks/mutant_labels.py [--suite quick|full] [--spec ID ...]

For each mutant of the sparse-vector family with an exact law (``audits.model_agnostic.mutant_profiles``)
it prints its label, the largest exact epsilon relative to the claim over the pairs of
``audits.privacy.procedure.audited_pairs`` at every audit point of the suite and over the pairs placed at the
mutant's own threshold, that pair, the figure in its bug text, and whether the label holds: "utility" needs
the loss within the claim and the figure equal to it (to 0.01); "privacy" needs a loss above it, here or in
the exact computation its label names (``Mutant.exact_loss``, recomputed by the tests).
"""

from __future__ import annotations

import argparse
import re
import time

from dptestbed.audits.model_agnostic.mutant_profiles import exact_mutants, rule_of, worst_pair

FIGURE = re.compile(r"exact eps (?:over the stress pairs )?([0-9.]+) against ([0-9.]+)")


def rows(suite: str, specs: list[str] | None) -> list[dict]:
    out = []
    for mutant in exact_mutants():
        if specs and mutant.spec not in specs:
            continue
        t0 = time.perf_counter()
        pair, eps, claim = worst_pair(mutant.spec, rule_of(mutant), suite)
        found = FIGURE.search(mutant.bug)
        stated = (float(found.group(1)), float(found.group(2))) if found else None
        if mutant.breaks == "utility":
            holds = eps <= claim and stated is not None and abs(stated[0] - eps) <= 0.006 and stated[1] == claim
        else:  # shown on these pairs, or by the exact computation named in its label
            holds = eps > claim or bool(mutant.exact_loss)
        out.append({"mutant": mutant.id, "breaks": mutant.breaks, "eps": eps, "claim": claim, "pair": pair,
                    "stated": stated, "holds": holds, "seconds": time.perf_counter() - t0})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=("quick", "full"), default="full")
    parser.add_argument("--spec", nargs="*")
    args = parser.parse_args()
    print("| mutant | label | exact eps | claim | pair | figure in the label | holds |")
    print("|---|---|---|---|---|---|---|")
    for r in rows(args.suite, args.spec):
        stated = f"{r['stated'][0]:.2f} against {r['stated'][1]:g}" if r["stated"] else "-"
        print(f"| {r['mutant']} | {r['breaks']} | {r['eps']:.3f} | {r['claim']:g} | {r['pair']} | {stated} | "
              f"{'yes' if r['holds'] else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
