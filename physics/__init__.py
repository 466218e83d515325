"""The 康樂棋 table in Pymunk: shots simulated into shot records, a replay viewer, a planner."""
