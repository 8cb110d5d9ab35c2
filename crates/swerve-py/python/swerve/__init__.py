"""swerve: many moving discs that must not collide.

* ``swerve.Simulator`` — ORCA crowds (RVO2-exact) with a numpy interface: add agents in bulk,
  read ``positions()`` as an ``(N, 2)`` float32 array, ``step(n)`` without holding the GIL.
* ``swerve.Simulator3d`` — the same for spheres in 3-D (RVO2-3D-exact): ``(N, 3)`` arrays.
* ``swerve.World`` — rigid-ball physics (elastic or restitution-scaled collisions, walls,
  segments, continuous collision detection) with a selectable broad phase.
* ``swerve.World3d`` — the same for spheres in a box in 3-D: ``(N, 3)`` arrays, five broad
  phases (octree included), gravity with resting contacts.
* ``swerve.ScenarioRunner`` — a scenario file (``swerve run``'s TOML or JSON: a 2-D crowd
  and balls, 3-D spheres or a 3-D crowd) or a built-in played step by step, with numpy
  accessors.
* ``swerve.rvo2`` — a drop-in for Python-RVO2: ``import swerve.rvo2 as rvo2``.
* ``swerve.pyrvo`` — a drop-in for pyrvo: ``import swerve.pyrvo as pyrvo``.
* ``swerve.rvo2_3d`` — a drop-in for rvo23d (RVO2-3D): ``import swerve.rvo2_3d as rvo23d``.

Errors raise ``swerve.SwerveError``; bad values are also ``ValueError``
(``InvalidValueError``) and unknown ids also ``LookupError`` (``UnknownIdError``).
"""

from swerve._swerve import (
    InvalidValueError,
    ScenarioRunner,
    Simulator,
    Simulator3d,
    SwerveError,
    UnknownIdError,
    World,
    World3d,
)

__all__ = [
    "InvalidValueError",
    "ScenarioRunner",
    "Simulator",
    "Simulator3d",
    "SwerveError",
    "UnknownIdError",
    "World",
    "World3d",
]
