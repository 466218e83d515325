"""Test-suite settings shared by every test module.

Property tests never depend on chance in `make test`: the ``ci`` hypothesis profile,
loaded by default, is derandomized (each test's examples follow from its own source),
keeps no example database, and so gives the same outcome on every machine and every run.
`make fuzz` loads the ``fuzz`` profile instead: random, many more examples, to look for
new failing cases (a case it finds becomes an explicit ``@example`` or a unit test).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, database=None, max_examples=60,
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("KANGLE_HYPOTHESIS_PROFILE", "ci"))
