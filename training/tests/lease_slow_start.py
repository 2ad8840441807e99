"""A runner whose import takes 3 s, like a worker's warm-up (extracting the corpus takes 40-70 s here): for
test_lease.py, which checks that the per-program timeout starts with the programs, not before."""

from __future__ import annotations

import time

from training.tests.lease_runners import fake  # noqa: F401 - the runner

time.sleep(3)
