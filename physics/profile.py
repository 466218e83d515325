"""Physics profiles: the friction, restitution, hole and stepping values of a simulation."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from rules.errors import KangleError
from rules.fields import Fields
from rules.profile_files import read_profile

SHIPPED = Path(__file__).parent / "profiles"


@dataclass(frozen=True)
class FlyOff:
    """Optional model of pieces jumping the cushion (speeds in m/s)."""

    enabled: bool = False
    min_speed: float = 3.0
    probability: float = 0.25
    rim_share: float = 0.4
    seed: int = 0


@dataclass(frozen=True)
class PhysicsProfile:
    """Values documented in physics/profiles/standard.toml (speeds m/s, times s)."""

    name: str = "standard"
    sliding_friction: float = 0.15
    spin_friction: float = 0.15
    piece_restitution: float = 0.85
    piece_friction: float = 0.1
    cushion_restitution: float = 0.6
    cushion_friction: float = 0.2
    capture_speed: float = 2.5
    fly_off: FlyOff = FlyOff()
    max_step_fraction: float = 0.5
    max_step: float = 0.004
    order_tolerance: float = 0.0001
    rest_speed: float = 0.002
    max_duration: float = 30.0
    trajectory_rate: int = 60
    source: str = ""

    def with_fly_off(self, enabled: bool = True, **changes) -> PhysicsProfile:
        return replace(self, fly_off=replace(self.fly_off, enabled=enabled, **changes))


def load_physics(name_or_path: str | Path = "standard") -> PhysicsProfile:
    data, source = read_profile(name_or_path, "physics", SHIPPED)
    top = Fields(data, "physics")
    table, contacts = top.table("table"), top.table("contacts")
    holes, fly, step = top.table("holes"), top.table("fly_off"), top.table("stepping")
    profile = PhysicsProfile(
        name=top.text("name"),
        sliding_friction=table.positive("sliding_friction"),
        spin_friction=table.nonneg("spin_friction"),
        piece_restitution=contacts.fraction("piece_restitution"),
        piece_friction=contacts.nonneg("piece_friction"),
        cushion_restitution=contacts.fraction("cushion_restitution"),
        cushion_friction=contacts.nonneg("cushion_friction"),
        capture_speed=holes.positive("capture_speed"),
        fly_off=FlyOff(
            enabled=fly.flag("enabled"),
            min_speed=fly.positive("min_speed"),
            probability=fly.fraction("probability"),
            rim_share=fly.fraction("rim_share"),
            seed=fly.count("seed"),
        ),
        max_step_fraction=step.positive("max_step_fraction"),
        max_step=step.positive("max_step"),
        order_tolerance=step.nonneg("order_tolerance"),
        rest_speed=step.positive("rest_speed"),
        max_duration=step.positive("max_duration"),
        trajectory_rate=step.count("trajectory_rate"),
        source=source,
    )
    for section in (top, table, contacts, holes, fly, step):
        section.done()
    problems = []
    if profile.piece_restitution < 0.01:
        problems.append("contacts.piece_restitution must be at least 0.01 (pieces that do not "
                        "bounce at all cannot be simulated)")
    if profile.max_duration > 600:
        problems.append("stepping.max_duration must be at most 600 s (no shot lasts longer)")
    if profile.max_step > 0.1:
        problems.append("stepping.max_step must be at most 0.1 s")
    if profile.trajectory_rate < 1:
        problems.append("stepping.trajectory_rate must be at least 1 sample a second")
    if problems:
        raise KangleError(f"physics profile {source}: " + "; ".join(problems))
    return profile


def profile_toml(profile: PhysicsProfile, header: str = "",
                 notes: dict[str, str] | None = None) -> str:
    """``profile`` as a physics profile file that ``load_physics`` reads back to the same
    values: ``header`` becomes its opening comment, ``notes[name]`` a comment above that
    value."""
    notes = notes or {}
    fly = profile.fly_off
    sections = {
        "table": {"sliding_friction": profile.sliding_friction,
                  "spin_friction": profile.spin_friction},
        "contacts": {"piece_restitution": profile.piece_restitution,
                     "piece_friction": profile.piece_friction,
                     "cushion_restitution": profile.cushion_restitution,
                     "cushion_friction": profile.cushion_friction},
        "holes": {"capture_speed": profile.capture_speed},
        "fly_off": {"enabled": fly.enabled, "min_speed": fly.min_speed,
                    "probability": fly.probability, "rim_share": fly.rim_share,
                    "seed": fly.seed},
        "stepping": {"max_step_fraction": profile.max_step_fraction,
                     "max_step": profile.max_step, "order_tolerance": profile.order_tolerance,
                     "rest_speed": profile.rest_speed, "max_duration": profile.max_duration,
                     "trajectory_rate": profile.trajectory_rate},
    }
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    lines.append(f"name = {json.dumps(profile.name, ensure_ascii=False)}")
    for section, values in sections.items():
        lines += ["", f"[{section}]"]
        for key, value in values.items():
            if key in notes:
                lines += [f"# {line}".rstrip() for line in notes[key].splitlines()]
            text = str(value).lower() if isinstance(value, bool) else repr(value)
            lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"
