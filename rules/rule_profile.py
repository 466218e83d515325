"""Rule profiles: every [setting] of specs/kangle-rules.md as a named, documented option.

The shipped profile ``standard`` (rules/profiles/standard.toml) holds the defaults and
explains each setting; an organiser with house rules copies it and changes values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rules.fields import Fields
from rules.profile_files import read_profile

SHIPPED = Path(__file__).parent / "profiles"


@dataclass(frozen=True)
class RuleProfile:
    name: str = "standard"
    catch_up_turn: bool = True
    draw_decided_by: str = "lag"
    both_cleared: str = "draw"
    pivot_foul_extra_shots: int = 18
    fouls_in_one_shot: str = "each"
    dead_piece_scope: str = "first_contact"
    own_protected_hit_is_foul: bool = True
    shot_clock_s: int = 30
    timeout_forfeits: str = "shot"
    source: str = ""


def load_rules(name_or_path: str | Path = "standard") -> RuleProfile:
    """Load a rule profile by shipped name or path; a missing setting takes its default."""
    data, source = read_profile(name_or_path, "rules", SHIPPED)
    return rules_from_table(data, source)


def rules_from_table(data: dict, source: str) -> RuleProfile:
    """Build a rule profile from a parsed table (as stored in a game log)."""
    d = RuleProfile()
    s = Fields(data, "rules")
    profile = RuleProfile(
        name=s.text("name", d.name),
        catch_up_turn=s.flag("catch_up_turn", d.catch_up_turn),
        draw_decided_by=s.choice("draw_decided_by", ("lag", "draw"), d.draw_decided_by),
        both_cleared=s.choice("both_cleared", ("draw", "shooter_wins"), d.both_cleared),
        pivot_foul_extra_shots=s.count("pivot_foul_extra_shots", d.pivot_foul_extra_shots),
        fouls_in_one_shot=s.choice("fouls_in_one_shot", ("each", "once"), d.fouls_in_one_shot),
        dead_piece_scope=s.choice(
            "dead_piece_scope", ("first_contact", "before_first_cushion"), d.dead_piece_scope
        ),
        own_protected_hit_is_foul=s.flag(
            "own_protected_hit_is_foul", d.own_protected_hit_is_foul
        ),
        shot_clock_s=s.count("shot_clock_s", d.shot_clock_s),
        timeout_forfeits=s.choice("timeout_forfeits", ("shot", "turn"), d.timeout_forfeits),
        source=source,
    )
    s.done()
    return profile
