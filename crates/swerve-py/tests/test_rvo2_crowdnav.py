"""CrowdNav's ORCA policy, call for call, on swerve.rvo2 — and against RVO2 itself.

`OrcaPolicy.predict` below follows CrowdNav's `crowd_sim/envs/policy/orca.py` in shape:
one `PyRVOSimulator(time_step, 10, 10, 5, 5, 0.3, 1)` per agent, kept across steps and
rebuilt when the number of agents changes; agents added with `addAgent(position, 10, 10, 5,
5, radius + 0.01 + safety_space, v_pref or max_speed, velocity)`; then per step
`setAgentPosition`, `setAgentVelocity`, `setAgentPrefVelocity`, `doStep`,
`getAgentVelocity(0)`. The robot and the 5 humans of a circle-crossing episode each run one.

The same episode is run with pyrvo (RVO2 2.0 in C++) behind a thin Python-RVO2-shaped shim;
every position of every step must be bit-identical.
"""

import math

import numpy as np
import pyrvo
import pytest

import swerve.rvo2

# Named seeds of the circle-crossing episodes.
EPISODE_SEEDS = (7, 8, 9, 10, 11, 12)
TIME_STEP = 0.25  # CrowdNav's env.time_step
TIME_LIMIT = 25.0  # CrowdNav's env.time_limit (s)
CIRCLE_RADIUS = 4.0  # CrowdNav's sim.circle_radius
HUMAN_NUM = 5
RADIUS = 0.3  # robot and humans (CrowdNav's default radius)
V_PREF = 1.0


class PyrvoAsRvo2:
    """RVO2 itself (pyrvo's C++ build) behind Python-RVO2's method names: the oracle."""

    def __init__(self, timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity=(0, 0)):
        self._sim = pyrvo.RVOSimulator(
            timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, pyrvo.Vector2(*velocity)
        )

    def addAgent(self, pos, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity):
        return self._sim.add_agent(
            tuple(pos), neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, tuple(velocity)
        )

    def getNumAgents(self):
        return self._sim.get_num_agents()

    def setAgentPosition(self, i, position):
        self._sim.set_agent_position(i, tuple(position))

    def setAgentVelocity(self, i, velocity):
        self._sim.set_agent_velocity(i, tuple(velocity))

    def setAgentPrefVelocity(self, i, velocity):
        self._sim.set_agent_pref_velocity(i, tuple(velocity))

    def doStep(self):
        self._sim.do_step()

    def getAgentVelocity(self, i):
        return self._sim.get_agent_velocity(i).to_tuple()


class rvo2_oracle:  # noqa: N801 - stands in for the `rvo2` module
    PyRVOSimulator = PyrvoAsRvo2


class SelfState:
    def __init__(self, px, py, vx, vy, radius, gx, gy, v_pref):
        self.px, self.py, self.vx, self.vy = px, py, vx, vy
        self.radius, self.gx, self.gy, self.v_pref = radius, gx, gy, v_pref

    @property
    def position(self):
        return self.px, self.py

    @property
    def velocity(self):
        return self.vx, self.vy


class ObservableState:
    def __init__(self, px, py, vx, vy, radius):
        self.px, self.py, self.vx, self.vy, self.radius = px, py, vx, vy, radius

    @property
    def position(self):
        return self.px, self.py

    @property
    def velocity(self):
        return self.vx, self.vy


class OrcaPolicy:
    """CrowdNav's ORCA policy (crowd_sim/envs/policy/orca.py), with `rvo2` injectable."""

    def __init__(self, rvo2):
        self.rvo2 = rvo2
        self.time_step = TIME_STEP
        self.neighbor_dist = 10
        self.max_neighbors = 10
        self.time_horizon = 5
        self.time_horizon_obst = 5
        self.radius = 0.3
        self.max_speed = 1
        self.safety_space = 0
        self.sim = None

    def predict(self, self_state, human_states):
        params = self.neighbor_dist, self.max_neighbors, self.time_horizon, self.time_horizon_obst
        if self.sim is not None and self.sim.getNumAgents() != len(human_states) + 1:
            del self.sim
            self.sim = None
        if self.sim is None:
            self.sim = self.rvo2.PyRVOSimulator(self.time_step, *params, self.radius, self.max_speed)
            self.sim.addAgent(
                self_state.position,
                *params,
                self_state.radius + 0.01 + self.safety_space,
                self_state.v_pref,
                self_state.velocity,
            )
            for human_state in human_states:
                self.sim.addAgent(
                    human_state.position,
                    *params,
                    human_state.radius + 0.01 + self.safety_space,
                    self.max_speed,
                    human_state.velocity,
                )
        else:
            self.sim.setAgentPosition(0, self_state.position)
            self.sim.setAgentVelocity(0, self_state.velocity)
            for i, human_state in enumerate(human_states):
                self.sim.setAgentPosition(i + 1, human_state.position)
                self.sim.setAgentVelocity(i + 1, human_state.velocity)

        # Set the preferred velocity to be a vector of unit magnitude (speed) in the direction of the goal.
        velocity = np.array((self_state.gx - self_state.px, self_state.gy - self_state.py))
        speed = np.linalg.norm(velocity)
        pref_vel = velocity / speed if speed > 1 else velocity

        # Perturb a little to avoid deadlocks due to perfect symmetry.
        self.sim.setAgentPrefVelocity(0, tuple(pref_vel))
        for i, human_state in enumerate(human_states):
            # unknown goal position of other humans
            self.sim.setAgentPrefVelocity(i + 1, (0, 0))

        self.sim.doStep()
        return self.sim.getAgentVelocity(0)


def circle_crossing(seed):
    """CrowdNav's circle-crossing start: humans on a circle (with noise), goals opposite,
    no two closer than their radii allow; the robot crosses from (0, -r) to (0, r)."""
    rng = np.random.default_rng(seed)
    agents = [dict(p=(0.0, -CIRCLE_RADIUS), g=(0.0, CIRCLE_RADIUS))]
    while len(agents) < HUMAN_NUM + 1:
        angle = rng.random() * math.pi * 2
        px_noise = (rng.random() - 0.5) * V_PREF
        py_noise = (rng.random() - 0.5) * V_PREF
        px = CIRCLE_RADIUS * math.cos(angle) + px_noise
        py = CIRCLE_RADIUS * math.sin(angle) + py_noise
        clash = False
        for other in agents:
            min_dist = 2 * RADIUS + 0.2  # CrowdNav's discomfort distance
            if (
                math.dist((px, py), other["p"]) < min_dist
                or math.dist((px, py), other["g"]) < min_dist
            ):
                clash = True
                break
        if not clash:
            agents.append(dict(p=(px, py), g=(-px, -py)))
    return agents


def closest_approach(p0, p1, q0, q1):
    """Smallest distance between two points moving linearly from p0→p1 and q0→q1 during a
    step (CrowdNav checks collisions along the step, not only at its end)."""
    rx, ry = p0[0] - q0[0], p0[1] - q0[1]
    dx, dy = (p1[0] - p0[0]) - (q1[0] - q0[0]), (p1[1] - p0[1]) - (q1[1] - q0[1])
    dd = dx * dx + dy * dy
    t = 0.0 if dd == 0 else min(1.0, max(0.0, -(rx * dx + ry * dy) / dd))
    return math.hypot(rx + t * dx, ry + t * dy)


def run_episode(rvo2, seed):
    """One CrowdNav episode in which the robot is visible to the humans. Returns the
    trajectory (positions of all agents after every step) and whether the robot arrived."""
    starts = circle_crossing(seed)
    states = [SelfState(a["p"][0], a["p"][1], 0.0, 0.0, RADIUS, a["g"][0], a["g"][1], V_PREF) for a in starts]
    policies = [OrcaPolicy(rvo2) for _ in states]
    trajectory = []
    min_gap = math.inf
    reached = False
    for _ in range(int(TIME_LIMIT / TIME_STEP)):
        actions = []
        for k, (state, policy) in enumerate(zip(states, policies)):
            others = [ObservableState(s.px, s.py, s.vx, s.vy, s.radius) for j, s in enumerate(states) if j != k]
            actions.append(policy.predict(state, others))
        before = [(s.px, s.py) for s in states]
        for state, (vx, vy) in zip(states, actions):
            state.px += vx * TIME_STEP
            state.py += vy * TIME_STEP
            state.vx, state.vy = vx, vy
            # Holonomic agents: speed never exceeds v_pref (ORCA's max speed).
            assert math.hypot(vx, vy) <= state.v_pref * (1 + 1e-5)
        after = [(s.px, s.py) for s in states]
        for j in range(1, len(states)):
            gap = closest_approach(before[0], after[0], before[j], after[j]) - 2 * RADIUS
            min_gap = min(min_gap, gap)
        trajectory.append(after)
        robot = states[0]
        if math.hypot(robot.px - robot.gx, robot.py - robot.gy) < robot.radius:
            reached = True
            break
    return trajectory, reached, min_gap


@pytest.mark.parametrize("seed", EPISODE_SEEDS)
def test_crowdnav_orca_robot_reaches_goal_without_collision(seed):
    trajectory, reached, min_gap = run_episode(swerve.rvo2, seed)
    assert reached, f"the robot did not reach its goal within {TIME_LIMIT} s"
    assert min_gap >= 0.0, f"the robot collided with a human (gap {min_gap:.4f} m)"
    assert len(trajectory) > CIRCLE_RADIUS * 2 / (V_PREF * TIME_STEP) * 0.9  # it could not be faster


@pytest.mark.parametrize("seed", EPISODE_SEEDS)
def test_crowdnav_sequence_matches_rvo2_bit_for_bit(seed):
    ours, our_reached, _ = run_episode(swerve.rvo2, seed)
    theirs, their_reached, _ = run_episode(rvo2_oracle, seed)
    assert len(ours) == len(theirs)
    assert our_reached == their_reached
    for step, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"step {step}: {a} != {b}"


def test_short_add_agent_and_defaults_velocity():
    """Python-RVO2's short form `addAgent(pos)` takes the constructor's defaults, including
    the default velocity."""
    sim = swerve.rvo2.PyRVOSimulator(0.1, 1.5, 5, 1.5, 2, 0.4, 2, (0.5, -0.25))
    a = sim.addAgent((1.0, 2.0))
    assert a == 0
    assert sim.getAgentVelocity(a) == (0.5, -0.25)
    assert sim.getAgentRadius(a) == pytest.approx(0.4)
    assert sim.getAgentMaxNeighbors(a) == 5
    assert sim.getAgentPosition(a) == (1.0, 2.0)
    sim.setAgentDefaults(3.0, 2, 1.0, 1.0, 0.2, 1.0)
    b = sim.addAgent((5.0, 5.0))
    assert b == 1 and sim.getAgentVelocity(b) == (0.0, 0.0) and sim.getAgentNeighborDist(b) == 3.0
    sim.setTimeStep(0.5)
    sim.doStep()
    assert sim.getGlobalTime() == 0.5 and sim.getTimeStep() == 0.5


def test_obstacles_and_vertex_numbers_follow_rvo2():
    ours = swerve.rvo2.PyRVOSimulator(0.25, 15, 10, 5, 5, 0.5, 2)
    theirs = pyrvo.RVOSimulator(0.25, 15, 10, 5, 5, 0.5, 2)
    # Two squares; the wall crosses the second square's split plane, so processing splits it.
    polygons = [
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)],
        [(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)],
        [(-8.0, 3.0), (9.0, 2.5)],
    ]
    for polygon in polygons:
        assert ours.addObstacle(polygon) == theirs.add_obstacle(polygon)
    ours.processObstacles()
    theirs.process_obstacles()
    assert ours.getNumObstacleVertices() == theirs.get_num_obstacle_vertices()
    for v in range(theirs.get_num_obstacle_vertices()):
        assert ours.getObstacleVertex(v) == theirs.get_obstacle_vertex(v).to_tuple()
        assert ours.getNextObstacleVertexNo(v) == theirs.get_next_obstacle_vertex(v)
        assert ours.getPrevObstacleVertexNo(v) == theirs.get_prev_obstacle_vertex(v)
    assert ours.queryVisibility((-5.0, 0.0), (5.0, 0.0)) is False
    assert ours.queryVisibility((-5.0, -5.0), (5.0, -5.0), 0.5) is True
    # An agent pushed toward the square sees its edges and gets obstacle ORCA lines first.
    a = ours.addAgent((-3.0, 0.0), 15, 10, 5, 5, 0.5, 2, (0, 0))
    ours.setAgentPrefVelocity(a, (1.0, 0.0))
    ours.doStep()
    assert ours.getAgentNumObstacleNeighbors(a) > 0
    px, py, dx, dy = ours.getAgentORCALine(a, 0)
    assert abs(math.hypot(dx, dy) - 1.0) < 1e-6


def test_clear_and_remove_obstacle():
    sim = swerve.rvo2.PyRVOSimulator(0.25, 15, 10, 5, 5, 0.5, 2)
    first = sim.addObstacle([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])
    second = sim.addObstacle([(4.0, -1.0), (6.0, -1.0), (6.0, 1.0), (4.0, 1.0)])
    assert (first, second) == (0, 4)
    sim.processObstacles()
    assert not sim.queryVisibility((-3.0, 0.0), (3.0, 0.0))
    sim.removeObstacle(first)
    sim.processObstacles()
    assert sim.queryVisibility((-3.0, 0.0), (3.0, 0.0))
    assert not sim.queryVisibility((3.0, 0.0), (7.0, 0.0))
    sim.clearObstacle()
    # As in Python-RVO2, agents keep the old obstacles until the next processObstacles.
    assert not sim.queryVisibility((3.0, 0.0), (7.0, 0.0))
    assert sim.getNumObstacleVertices() == 0
    sim.processObstacles()
    assert sim.queryVisibility((3.0, 0.0), (7.0, 0.0))
    with pytest.raises(LookupError):
        sim.removeObstacle(99)


# Named seeds for random scenes driven through the Python-RVO2 API.
RVO2_SCENE_SEEDS = (3000, 3001, 3002, 3003, 3004, 3005)


@pytest.mark.parametrize("seed", RVO2_SCENE_SEEDS)
def test_random_scene_through_rvo2_api_matches_pyrvo(seed):
    """Random scenes (obstacles, per-agent parameters) through swerve.rvo2's camelCase API
    against pyrvo: positions, velocities, ORCA lines and neighbours bit-identical."""
    from conftest import pref_velocity_toward, random_scene

    scene = random_scene(seed)
    d = scene["defaults"]
    args = (d["time_step"], d["neighbor_dist"], d["max_neighbors"], d["time_horizon"], d["time_horizon_obst"],
            d["radius"], d["max_speed"])
    ours = swerve.rvo2.PyRVOSimulator(*args)
    theirs = pyrvo.RVOSimulator(*args)
    for polygon in scene["obstacles"]:
        assert ours.addObstacle(polygon) == theirs.add_obstacle(polygon)
    ours.processObstacles()
    theirs.process_obstacles()
    for agent in scene["agents"]:
        if agent["params"] is None:
            ours.addAgent(agent["position"])
            theirs.add_agent(agent["position"])
        else:
            velocity = agent["velocity"] or (0.0, 0.0)
            ours.addAgent(agent["position"], *agent["params"], velocity)
            theirs.add_agent(agent["position"], *agent["params"], velocity)
    n = theirs.get_num_agents()
    assert ours.getNumAgents() == n
    for step in range(100):
        for i in range(n):
            goal = scene["agents"][i]["goal"]
            ours.setAgentPrefVelocity(i, pref_velocity_toward(goal, ours.getAgentPosition(i)))
            theirs.set_agent_pref_velocity(i, pref_velocity_toward(goal, theirs.get_agent_position(i).to_tuple()))
        ours.doStep()
        theirs.do_step()
        for i in range(n):
            assert ours.getAgentPosition(i) == theirs.get_agent_position(i).to_tuple(), (step, i)
            assert ours.getAgentVelocity(i) == theirs.get_agent_velocity(i).to_tuple(), (step, i)
    for i in range(n):
        assert ours.getAgentNumORCALines(i) == theirs.get_agent_num_orca_lines(i)
        for k in range(theirs.get_agent_num_orca_lines(i)):
            (dx, dy), (px, py) = theirs.get_agent_orca_line(i, k)
            assert ours.getAgentORCALine(i, k) == (px, py, dx, dy)
        assert [ours.getAgentAgentNeighbor(i, k) for k in range(ours.getAgentNumAgentNeighbors(i))] == [
            theirs.get_agent_agent_neighbor(i, k) for k in range(theirs.get_agent_num_agent_neighbors(i))
        ]
        assert [ours.getAgentObstacleNeighbor(i, k) for k in range(ours.getAgentNumObstacleNeighbors(i))] == [
            theirs.get_agent_obstacle_neighbor(i, k) for k in range(theirs.get_agent_num_obstacle_neighbors(i))
        ]
    assert ours.getGlobalTime() == theirs.get_global_time()
