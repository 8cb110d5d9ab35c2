"""A drop-in for pyrvo: ``import swerve.pyrvo as pyrvo`` and keep your code.

``RVOSimulator`` has pyrvo's constructors and snake_case methods and returns ``Vector2``
(``.x``, ``.y``, ``.to_tuple()``); results are RVO2's bit for bit. Unlike RVO2, a bad value
raises ``ValueError`` and an unknown agent number raises ``LookupError`` (both
``swerve.SwerveError``).
"""

from swerve._swerve import RVOSimulator, Vector2

__all__ = ["RVOSimulator", "Vector2"]
