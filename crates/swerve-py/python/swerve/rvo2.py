"""A drop-in for Python-RVO2: ``import swerve.rvo2 as rvo2`` and keep your code.

``PyRVOSimulator`` has Python-RVO2's constructor and camelCase methods, takes and returns
tuples, and gives RVO2's results bit for bit. Unlike RVO2, a bad value raises ``ValueError``
and an unknown agent number raises ``LookupError`` (both ``swerve.SwerveError``).
"""

from swerve._swerve import PyRVOSimulator

__all__ = ["PyRVOSimulator"]
