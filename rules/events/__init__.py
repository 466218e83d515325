"""Competitions: the append-only event store and every seed's competition format."""
