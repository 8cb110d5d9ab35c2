"""Shared scene builders for the swerve Python tests.

Every random scene comes from a named seed, so a failure names the scene that broke.
"""

import math

import numpy as np
import pytest


def random_convex_polygon(rng, center, size):
    """A convex polygon with 3-7 vertices on a circle around `center`, counter-clockwise.

    Points on a circle taken in angular order always make a convex polygon; the angles are
    kept 0.05 rad apart so that no edge is degenerate.
    """
    count = int(rng.integers(3, 8))
    angles = np.sort(rng.uniform(0.0, 2.0 * math.pi - count * 0.05, count)) + np.arange(count) * 0.05
    return [(float(center[0] + size * math.cos(a)), float(center[1] + size * math.sin(a))) for a in angles]


def random_scene(seed):
    """A random ORCA scene: simulator parameters, obstacles and agents (with goals).

    Returns a dict of plain Python values that a test replays into any RVO2-like API.
    Obstacles sit in separate cells of a grid so that they never intersect; agents start on
    a ring around them and head for the opposite side, so they meet in the middle.
    """
    rng = np.random.default_rng(seed)
    defaults = dict(
        time_step=float(rng.uniform(0.05, 0.5)),
        neighbor_dist=float(rng.uniform(2.0, 15.0)),
        max_neighbors=int(rng.integers(1, 13)),
        time_horizon=float(rng.uniform(0.5, 10.0)),
        time_horizon_obst=float(rng.uniform(0.5, 10.0)),
        radius=float(rng.uniform(0.2, 1.0)),
        max_speed=float(rng.uniform(0.5, 3.0)),
    )
    obstacles = []
    cells = rng.permutation(9)[: int(rng.integers(0, 6))]
    for cell in cells:
        center = ((cell % 3 - 1) * 8.0, (cell // 3 - 1) * 8.0)
        if rng.random() < 0.2:
            # A thin wall: two vertices.
            angle = rng.uniform(0, math.pi)
            half = rng.uniform(1.0, 3.0)
            obstacles.append(
                [
                    (center[0] - half * math.cos(angle), center[1] - half * math.sin(angle)),
                    (center[0] + half * math.cos(angle), center[1] + half * math.sin(angle)),
                ]
            )
        else:
            obstacles.append(random_convex_polygon(rng, center, rng.uniform(1.0, 3.0)))
    if rng.random() < 0.3:
        # A clockwise square: a boundary that encloses every agent.
        obstacles.append([(-30.0, -30.0), (-30.0, 30.0), (30.0, 30.0), (30.0, -30.0)])

    agents = []
    count = int(rng.integers(5, 60))
    ring = rng.uniform(14.0, 20.0)
    for i in range(count):
        angle = 2.0 * math.pi * i / count + rng.uniform(-0.05, 0.05)
        position = (ring * math.cos(angle), ring * math.sin(angle))
        goal = (-position[0] + rng.uniform(-1, 1), -position[1] + rng.uniform(-1, 1))
        form = rng.choice(["default", "params", "params+velocity"])
        params = None
        velocity = None
        if form != "default":
            params = (
                float(rng.uniform(2.0, 15.0)),
                int(rng.integers(0, 13)),
                float(rng.uniform(0.5, 10.0)),
                float(rng.uniform(0.5, 10.0)),
                float(rng.uniform(0.2, 1.0)),
                float(rng.uniform(0.5, 3.0)),
            )
        if form == "params+velocity":
            velocity = (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)))
        agents.append(dict(position=position, goal=goal, params=params, velocity=velocity))
    return dict(defaults=defaults, obstacles=obstacles, agents=agents)


def pref_velocity_toward(goal, position):
    """RVO2 examples' rule: head for the goal at unit speed, slower within 1 m of it."""
    dx, dy = goal[0] - position[0], goal[1] - position[1]
    length_squared = dx * dx + dy * dy
    if length_squared > 1.0:
        length = math.sqrt(length_squared)
        return (dx / length, dy / length)
    return (dx, dy)


@pytest.fixture
def scene_factory():
    return random_scene
