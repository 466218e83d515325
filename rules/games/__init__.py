"""Scoring of every supported game (specs/game-scoring.md): typed, validated results
and pure functions from a result to each player's or team's score."""
