"""The batch sampler must agree with the function users call (audits/privacy/agreement.py): a correct
``fn.batch`` behind a wrong ``fn`` is an implementation error, never a pass; a faithful one passes."""

from __future__ import annotations

import textwrap

import pytest

from dptestbed.audits.privacy import IMPL_ERROR, NO_VIOLATION, audit
from dptestbed.spec import load_spec, spec_file

CODE = textwrap.dedent('''
    import numpy as np

    def _batch(data, n, *, rng, epsilon, gamma):
        f = np.atleast_1d(np.asarray(data, dtype=float))
        return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))

    def no_noise(data, *, rng, epsilon, gamma):
        return np.atleast_1d(np.asarray(data, dtype=float)).copy()

    def half_noise(data, *, rng, epsilon, gamma):
        f = np.atleast_1d(np.asarray(data, dtype=float))
        return f + rng.laplace(0.0, 0.5 * gamma / epsilon, size=f.shape)

    def faithful(data, *, rng, epsilon, gamma):
        f = np.atleast_1d(np.asarray(data, dtype=float))
        return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

    def exponential_difference(data, *, rng, epsilon, gamma):   # Lap(b) = Exp(b) - Exp(b): the same law
        f = np.atleast_1d(np.asarray(data, dtype=float))
        b = gamma / epsilon
        return f + rng.exponential(b, size=f.shape) - rng.exponential(b, size=f.shape)

    for fn in (no_noise, half_noise, faithful, exponential_difference):
        fn.batch = _batch
''')


@pytest.fixture
def mech(tmp_path):
    path = tmp_path / "two_faced.py"
    path.write_text(CODE)
    return lambda name: f"{path}:{name}"


@pytest.mark.parametrize("name", ["no_noise", "half_noise"])
def test_wrong_function_behind_a_correct_batch_is_an_implementation_error(mech, name):
    result = audit(load_spec(spec_file("laplace_mechanism")), mech(name), samples=20_000, seed=1)
    assert result.verdict == IMPL_ERROR
    assert "disagrees with the function" in result.reason and "shift_by_sensitivity" in result.reason


@pytest.mark.parametrize("name", ["faithful", "exponential_difference"])
def test_a_batch_sampler_of_the_function_s_law_passes(mech, name):
    result = audit(load_spec(spec_file("laplace_mechanism")), mech(name), samples=20_000, seed=1)
    assert result.verdict in (NO_VIOLATION, "no power"), result.reason
    assert result.agreement["comparisons"] >= 2 and result.agreement["runs"] >= 2_000
