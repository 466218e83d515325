"""The ``kangle`` command: the thin composition root that wires the packages together."""
