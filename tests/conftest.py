"""Hypothesis profiles for the test suite.

``ci`` (the default) is quick and deterministic; ``nightly`` runs many more
examples with fresh randomness. Choose one with the ``HYPOTHESIS_PROFILE``
environment variable, e.g. ``HYPOTHESIS_PROFILE=nightly pytest tests``
(see docs/property-testing.md).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

# Deterministic on CI: the same examples every run, so a red build is reproducible
# and never caused by luck; the nightly profile explores new examples.
settings.register_profile(
    "ci",
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.register_profile(
    "nightly",
    max_examples=1500,
    stateful_step_count=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
