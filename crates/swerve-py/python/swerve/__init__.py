"""swerve: many moving discs that must not collide.

* ``swerve.Simulator`` — ORCA crowds (RVO2-exact) with a numpy interface: add agents in bulk,
  read ``positions()`` as an ``(N, 2)`` float32 array, ``step(n)`` without holding the GIL.
* ``swerve.World`` — rigid-ball physics (elastic or restitution-scaled collisions, walls,
  segments, continuous collision detection) with a selectable broad phase.
* ``swerve.rvo2`` — a drop-in for Python-RVO2: ``import swerve.rvo2 as rvo2``.
* ``swerve.pyrvo`` — a drop-in for pyrvo: ``import swerve.pyrvo as pyrvo``.

Errors raise ``swerve.SwerveError``; bad values are also ``ValueError``
(``InvalidValueError``) and unknown ids also ``LookupError`` (``UnknownIdError``).
"""

from swerve._swerve import (
    InvalidValueError,
    Simulator,
    SwerveError,
    UnknownIdError,
    World,
)

__all__ = [
    "InvalidValueError",
    "Simulator",
    "SwerveError",
    "UnknownIdError",
    "World",
]
