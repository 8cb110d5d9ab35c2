"""A drop-in for rvo23d (RVO2-3D's Python binding, PyPI ``jt-pyrvo23d``):
``import swerve.rvo2_3d as rvo23d`` and keep your code.

``PyRVOSimulator`` has rvo23d's constructor and camelCase methods, takes and returns tuples
of three floats, and gives RVO2-3D's results bit for bit. Unlike RVO2-3D, a bad value raises
``ValueError`` and an unknown agent or neighbour number raises ``LookupError`` (both
``swerve.SwerveError``) instead of crashing the interpreter.
"""

from swerve._swerve import PyRVOSimulator3d as PyRVOSimulator

__all__ = ["PyRVOSimulator"]
