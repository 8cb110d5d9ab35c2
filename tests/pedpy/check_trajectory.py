"""Loads a `swerve run` trajectory.txt with PedPy's own loader and checks what PedPy computes
from it (classic density, individual speed) against the same quantities computed directly from
the run's trajectory.csv.

Usage: check_trajectory.py RUN_DIR   (exit status 0 when every check passes)
"""

import csv
import math
import pathlib
import sys
from collections import defaultdict

import pedpy

# The crossing scene's junction, where both groups pass: a square measurement area (m).
AREA = [(-4.0, -4.0), (4.0, -4.0), (4.0, 4.0), (-4.0, 4.0)]
FRAME_STEP = 5


def inside(x, y):
    return AREA[0][0] < x < AREA[2][0] and AREA[0][1] < y < AREA[2][1]


def main(run_dir):
    run_dir = pathlib.Path(run_dir)
    traj = pedpy.load_trajectory_from_txt(trajectory_file=run_dir / "trajectory.txt")

    positions = defaultdict(dict)  # id -> frame -> (x, y)
    with open(run_dir / "trajectory.csv", newline="") as f:
        for row in csv.DictReader(f):
            positions[int(row["id"])][int(row["frame"])] = (float(row["x"]), float(row["y"]))
    frames = sorted({frame for track in positions.values() for frame in track})

    failures = []

    def check(ok, message):
        print(("ok   " if ok else "FAIL ") + message)
        if not ok:
            failures.append(message)

    check(traj.frame_rate == 10.0, f"frame rate read by PedPy: {traj.frame_rate} (dt 0.1 s)")
    check(traj.data["id"].nunique() == len(positions), f"pedestrians: {traj.data['id'].nunique()} == {len(positions)}")
    check(len(traj.data) == sum(len(t) for t in positions.values()), f"rows: {len(traj.data)}")

    # Classic density: pedestrians inside the area / its area, frame by frame.
    density = pedpy.compute_classic_density(traj_data=traj, measurement_area=pedpy.MeasurementArea(AREA))
    area = (AREA[2][0] - AREA[0][0]) * (AREA[2][1] - AREA[0][1])
    expected = {
        frame: sum(1 for track in positions.values() if frame in track and inside(*track[frame])) / area
        for frame in frames
    }
    worst = max(abs(density.loc[frame, "density"] - expected[frame]) for frame in frames)
    peak = max(expected.values())
    check(worst < 1e-9, f"classic density matches a direct count in every frame (worst error {worst:.2e}, peak {peak:.3f} /m²)")
    check(peak > 0.2, f"both groups pass through the junction (peak density {peak:.3f} /m²)")

    # Individual speed: displacement over ±FRAME_STEP frames divided by the time between.
    speed = pedpy.compute_individual_speed(traj_data=traj, frame_step=FRAME_STEP)
    errors = []
    for row in speed.itertuples():
        track = positions[row.id]
        a, b = track[row.frame - FRAME_STEP], track[row.frame + FRAME_STEP]
        direct = math.dist(a, b) / (2 * FRAME_STEP / 10.0)
        errors.append(abs(row.speed - direct))
    mean_speed = speed["speed"].mean()
    check(len(errors) > 1000 and max(errors) < 1e-4, f"individual speeds match ({len(errors)} samples, worst error {max(errors):.2e} m/s)")
    check(0.1 < mean_speed <= 1.5 + 1e-6, f"mean individual speed {mean_speed:.3f} m/s within (0.1, max speed 1.5]")

    print(f"{len(failures)} failed" if failures else "all PedPy checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
