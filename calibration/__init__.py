"""Camera intrinsics, board pose (image pixels ↔ board millimetres), colour models, and the
calibration profile file that holds them."""
