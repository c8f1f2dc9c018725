"""soft_label_classifier -- VALID VARIANT (H_Priv, 000 Algorithm 8, written differently).

Differences from a textbook numpy version, none of which changes the law:
  * bins found with bisect on explicit edge lists (edges j*gamma, shifted edges (v - 1/2)*gamma),
    counted in a Python dict: regular bin of x = 1 + #{j >= 1 : j*gamma <= x} (so x = j gamma is in
    bin j+1, as P13 says), clipped to the last bin (x = 1 in the last bin); shifted bin
    v = #{v' : (v' - 1/2) gamma <= x}, kept when 1 <= v <= 1/gamma - 1;
  * Laplace noise as the difference of two exponentials, each -ln(1 - U) from rng.random();
  * ties in the argmax go to the smallest bin (the spec's rule), found by a scan;
  * w_hat = w + Lap(lam) at the start of the call, dist_hat = dist + Lap(2 lam); on failure
    w_hat is redrawn (step 7), Flag = 1, the shifted histogram gets a fresh Lap(2 lam).
  * per call only (no .batch), a class instance with __call__.

TRUTH: same law as Algorithm 8 with the spec's GenHist (P13) and tie rule: Exp(1) - Exp(1) is
Lap(1); the bins are the spec's for every float input (edges computed as j*gamma, the same
products a floor-based version compares against).  MC (verify_hpriv.py, defaults gamma = 1/7, lam = 3.89895,
w = 75.4863): x = j/7 lands in bin j+1 for j = 0..6 and x = 1 in bin 7; 1,038 values at 0.5 ->
(0.5, 0) in 10,000 of 10,000 calls; 519 at 0.2 + 519 at 0.8 (dist 0 in both histograms):
P[regular release] = 4.0e-5 (exact S(w) = 4.17e-5 for Lap(2 lam) - Lap(lam) > w), P[bottom]
0.99993 (exact (1 - S(w))^2 = 0.99992); 519 at 3/7 - 0.001 + 519 at 3/7 + 0.001 (straddling a
regular edge, dist 0 regular, 1037 shifted) -> (3/7, 1) in 10,000 of 10,000 calls.
"""
import bisect
import math


class HPriv:
    def _lap(self, rng, scale):
        u1 = rng.random(); u2 = rng.random()
        return scale * (-math.log1p(-u1) + math.log1p(-u2))

    @staticmethod
    def _dist(counts, nb):
        vals = [counts.get(v, 0) for v in range(1, nb + 1)]
        top = max(vals)
        vstar = vals.index(top) + 1          # smallest index among ties
        rest = sorted(vals, reverse=True)
        second = rest[1] if len(rest) > 1 else 0
        return max(0, top - second - 1), vstar

    def __call__(self, data, *, rng, gamma, lam, w, **params):
        gamma = float(gamma)
        if abs(1.0 / gamma - round(1.0 / gamma)) > 1e-9 / gamma:
            raise ValueError("1/gamma must be an integer")
        nb = int(math.floor(1.0 / gamma + 0.5))
        S = [min(1.0, max(0.0, float(s))) for s in list(data)]
        edges = [j * gamma for j in range(1, nb + 1)]            # j*gamma, j = 1..nb
        sh_edges = [(v - 0.5) * gamma for v in range(1, nb + 1)]  # (v - 1/2) gamma

        reg = {}
        for s in S:
            b = min(nb, 1 + bisect.bisect_right(edges, s))
            reg[b] = reg.get(b, 0) + 1
        w_hat = float(w) + self._lap(rng, lam)
        dist, vstar = self._dist(reg, nb)
        if dist + self._lap(rng, 2.0 * lam) > w_hat:
            return [(2 * vstar - 1) * gamma / 2.0, 0.0]
        w_hat = float(w) + self._lap(rng, lam)
        sh = {}
        for s in S:
            v = bisect.bisect_right(sh_edges, s)
            if 1 <= v <= nb - 1:
                sh[v] = sh.get(v, 0) + 1
        dist2, v2 = self._dist(sh, nb - 1)
        if dist2 + self._lap(rng, 2.0 * lam) > w_hat:
            return [v2 * gamma, 1.0]
        return [-1.0, 1.0]


hpriv = HPriv()
