"""ir-sim (a robot simulator that drives ORCA through pyrvo) with swerve.pyrvo standing in.

ir-sim imports `pyrvo` when a robot group has `group_behavior: {name: 'orca'}`; here the
module it gets is a stand-in built from swerve.pyrvo. Three of ir-sim's ORCA examples
(usage/19orca_world), verbatim, each for 300 steps, every robot state bit-identical to the
same run with pyrvo itself and no robot in collision:

* `orca_behavior_world.yaml` — 200 robots crossing a 140 m circle (group behaviour);
* `orca_behavior_world_random.yaml` — 100 robots wandering between random goals (seeded);
* `orca_world.py` with `orca_world.yaml` — the script drives pyrvo directly:
  `RVOSimulator()`, `set_time_step`, `set_agent_defaults`, `add_agent(position)`, `do_step`,
  `get_agent_velocity(i).to_tuple()`.

Run to the end, the first example finishes with every robot arrived and none colliding
(bench/irsim_orca_example.py; two minutes, so not part of the suite). Rendering is off
(display=False) and matplotlib uses the non-interactive Agg backend.
"""

import os
import sys
import types

import numpy as np
import pytest

irsim = pytest.importorskip("irsim")
import matplotlib  # noqa: E402  (ir-sim brings matplotlib)

matplotlib.use("Agg")

import pyrvo as real_pyrvo  # noqa: E402

import swerve.pyrvo  # noqa: E402

# ir-sim's usage/19orca_world/orca_behavior_world.yaml, verbatim.
ORCA_BEHAVIOR_WORLD = """\
world:
  height: 290 
  width: 290  
  step_time: 0.1
  sample_time: 0.7
  offset: [-140, -140]

robot:
  - number: 200
    color: 'cycle'   # one palette color per robot, in order
    kinematics: {name: 'omni'}  
    shape: {name: 'circle', radius: 1.0}  
    distribution: {name: 'circle', radius: 140}
    goal_threshold: 0.1
    vel_max: [3, 3]
    vel_min: [-3, -3]
    plot:
      show_trajectory: True
      show_goal: True
      keep_traj_length: 50
    group_behavior: {name: 'orca', neighborDist: 15.0, maxNeighbors: 10, timeHorizon: 20.0, timeHorizonObst: 10.0, safe_radius: 0.5, maxSpeed: 2.0}
"""

# ir-sim's usage/19orca_world/orca_behavior_world_random.yaml, verbatim.
ORCA_BEHAVIOR_WORLD_RANDOM = """\
world:
  height: 290 
  width: 290  
  step_time: 0.1
  sample_time: 0.7
  offset: [-140, -140]

robot:
  - number: 100
    kinematics: {name: 'omni'}  
    shape: {name: 'circle', radius: 1.0}  
    distribution: {name: 'random', range_low: [-100, -100, -3.14], range_high: [100, 100, 3.14]}
    color: 'g'
    goal_threshold: 0.1
    vel_max: [3, 3]
    vel_min: [-3, -3]
    plot:
      show_trajectory: True
      show_goal: True
      keep_traj_length: 50
    group_behavior: 
      name: 'orca' 
      neighborDist: 15.0 
      maxNeighbors: 10
      timeHorizon: 20.0
      timeHorizonObst: 10.0
      safe_radius: 0.5
      maxSpeed: 2.0
      wander: True
      range_low: [-100, -100, -3.14]
      range_high: [100, 100, 3.14]
"""

# ir-sim's usage/19orca_world/orca_world.yaml, verbatim.
ORCA_WORLD = """\
world:
  height: 290 
  width: 290  
  step_time: 0.1
  sample_time: 0.7
  offset: [-140, -140]

robot:
  number: 200
  kinematics: {name: 'omni'}  
  shape: {name: 'circle', radius: 1.0}  
  distribution: {name: 'circle', radius: 140}
  color: 'g'
  goal_threshold: 0.1
  vel_max: [2, 2]
  vel_min: [-2, -2]
  plot:
    show_trajectory: True
    show_goal: True
    keep_traj_length: 50
"""

# Seeds ir-sim's random start poses and goals (`irsim.make(..., seed=...)`).
RANDOM_WORLD_SEED = 31
STEPS = 300


def stand_in(module):
    """A module to install as `pyrvo` that counts the simulators ir-sim creates."""
    created = []

    def RVOSimulator(*args):  # noqa: N802 - pyrvo's class name
        sim = module.RVOSimulator(*args)
        created.append(sim)
        return sim

    shim = types.ModuleType("pyrvo")
    shim.RVOSimulator = RVOSimulator
    shim.Vector2 = module.Vector2
    shim.created = created
    return shim


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run_group_behavior(monkeypatch, module, config, steps, seed=None):
    """Runs an ir-sim world whose robots use the ORCA group behaviour with `module` as
    pyrvo. Returns (states per step, robots in collision per step, all arrived, the shim)."""
    shim = stand_in(module)
    monkeypatch.setitem(sys.modules, "pyrvo", shim)
    env = irsim.make(config, display=False, seed=seed)
    states, collided = [], []
    for _ in range(steps):
        env.step()
        states.append(np.array([robot.state[:, 0] for robot in env.robot_list]))
        collided.append([i for i, robot in enumerate(env.robot_list) if robot.collision])
        if env.done():
            break
    arrived = all(robot.arrive for robot in env.robot_list)
    env.end(0)
    return states, collided, arrived, shim


def test_orca_behavior_world_verbatim_matches_pyrvo(monkeypatch, tmp_path):
    config = write(tmp_path, "orca_behavior_world.yaml", ORCA_BEHAVIOR_WORLD)
    ours, our_collided, _, shim = run_group_behavior(monkeypatch, swerve.pyrvo, config, STEPS)
    assert shim.created and all(isinstance(s, swerve.pyrvo.RVOSimulator) for s in shim.created)
    theirs, their_collided, _, _ = run_group_behavior(monkeypatch, real_pyrvo, config, STEPS)
    assert len(ours) == len(theirs) == STEPS
    for step, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(a, b, err_msg=f"step {step}")
    assert not any(our_collided) and not any(their_collided)
    # The robots did move toward the centre (the ORCA velocities were applied).
    radius = np.hypot(ours[-1][:, 0], ours[-1][:, 1])
    assert np.all(radius < 140.0 - 0.5 * STEPS * 0.1)


def test_orca_behavior_world_random_matches_pyrvo(monkeypatch, tmp_path):
    config = write(tmp_path, "orca_behavior_world_random.yaml", ORCA_BEHAVIOR_WORLD_RANDOM)
    ours, our_collided, _, shim = run_group_behavior(monkeypatch, swerve.pyrvo, config, STEPS, RANDOM_WORLD_SEED)
    assert shim.created
    theirs, their_collided, _, _ = run_group_behavior(monkeypatch, real_pyrvo, config, STEPS, RANDOM_WORLD_SEED)
    assert len(ours) == len(theirs) == STEPS
    for step, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(a, b, err_msg=f"step {step}")
    # ir-sim does not keep random start poses apart, and a robot in contact stops for good
    # (its collision mode), so a pair that starts in contact stays so, with pyrvo as with
    # swerve. Require the same contacts as pyrvo's and no contact that was not there at the
    # first step.
    assert our_collided == their_collided
    assert all(set(contacts) <= set(our_collided[0]) for contacts in our_collided)
    # Every robot not stopped by a contact moved.
    moved = np.hypot(*(ours[-1][:, :2] - ours[0][:, :2]).T) > 1.0
    assert moved.sum() == len(moved) - len(our_collided[0])


def orca_world_script(pyrvo, config):
    """ir-sim's usage/19orca_world/orca_world.py, without rendering and timing prints."""
    orca = pyrvo.RVOSimulator()

    env = irsim.make(config, save_ani=False, display=False)

    orca.set_time_step(env.step_time)
    orca.set_agent_defaults(15.0, 10, 20.0, 10.0, 1.5, 2.0)

    for _i, robot in enumerate(env.robot_list):
        orca.add_agent(robot.state[:2, 0].tolist())

    states, collided = [], False
    for _ in range(STEPS):
        for i, robot in enumerate(env.robot_list):
            orca.set_agent_pref_velocity(i, robot.get_desired_omni_vel(normalized=True).flatten().tolist())
            orca.set_agent_position(i, robot.state[:2, 0].tolist())

        orca.do_step()
        action_list = [orca.get_agent_velocity(i).to_tuple() for i in range(orca.get_num_agents())]

        env.step(action_list)
        states.append(np.array([robot.state[:, 0] for robot in env.robot_list]))
        collided |= any(robot.collision for robot in env.robot_list)

        if env.done():
            break

    arrived = all(robot.arrive for robot in env.robot_list)
    env.end(0)
    return states, collided, arrived


def test_orca_world_script_matches_pyrvo(tmp_path):
    config = write(tmp_path, "orca_world.yaml", ORCA_WORLD)
    ours, our_collided, _ = orca_world_script(swerve.pyrvo, config)
    theirs, _, _ = orca_world_script(real_pyrvo, config)
    assert len(ours) == len(theirs) == STEPS
    for step, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(a, b, err_msg=f"step {step}")
    assert not our_collided
