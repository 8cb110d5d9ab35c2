"""Runs ir-sim's ORCA example `usage/19orca_world/orca_behavior_world.yaml` (200 robots
crossing a 140 m circle) to the end with swerve.pyrvo (or pyrvo) as ir-sim's `pyrvo`, and
prints steps, arrivals, collisions and wall time. Takes about two minutes per run.

    python crates/swerve-py/bench/irsim_orca_example.py [swerve|pyrvo]
"""

import os
import sys
import tempfile
import time

import matplotlib

matplotlib.use("Agg")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "swerve"
    if which == "swerve":
        import swerve.pyrvo

        sys.modules["pyrvo"] = swerve.pyrvo
    import irsim
    from test_irsim import ORCA_BEHAVIOR_WORLD

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "orca_behavior_world.yaml")
        with open(path, "w") as f:
            f.write(ORCA_BEHAVIOR_WORLD)
        env = irsim.make(path, display=False)
        start = time.perf_counter()
        collisions = 0
        for step in range(10000):
            env.step()
            collisions += sum(robot.collision for robot in env.robot_list)
            if env.done():
                break
        elapsed = time.perf_counter() - start
        arrived = sum(robot.arrive for robot in env.robot_list)
        print(
            f"{which}: {step + 1} steps, {arrived}/{len(env.robot_list)} arrived, "
            f"{collisions} robot-steps in collision, {elapsed:.1f} s"
        )
        env.end(0)


if __name__ == "__main__":
    main()
