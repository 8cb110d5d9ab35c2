//! The inspector's data for one agent: what ORCA decided in the last step, read from the
//! library's per-agent accessors and sent to the page as JSON. The page draws these values;
//! it computes none of them.
//!
//! Velocities and half-planes live in velocity space (m/s). A half-plane is RVO2's `Line`:
//! a point on its boundary and a unit direction; the permitted velocities are on the left.

use serde::Serialize;
use swerve::orca::linear_program::LpOutcome;
use swerve::{AgentId, Simulator};

/// One ORCA half-plane, tagged with where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InspectedHalfPlane {
    /// A point on the boundary line (m/s).
    pub point: [f32; 2],
    /// The unit direction of the boundary; permitted velocities are on its left.
    pub direction: [f32; 2],
    /// `"obstacle"`, `"acceleration"` (the agent's acceleration limit) or `"agent"`.
    pub kind: &'static str,
}

/// Which linear program produced the velocity.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "program")]
pub enum InspectedOutcome {
    /// All half-planes and the speed limit could be met (linear program 2).
    #[serde(rename = "LP2")]
    Feasible,
    /// The half-planes conflict; the velocity minimises the worst violation of the agent
    /// half-planes from `first_infeasible` on (linear program 3).
    #[serde(rename = "LP3")]
    Fallback {
        /// Index of the first half-plane linear program 2 could not satisfy.
        first_infeasible: usize,
    },
}

/// Everything the inspector shows for one agent at one step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InspectReport {
    /// Always `"inspect"` (the message type for the page).
    #[serde(rename = "type")]
    pub message_type: &'static str,
    /// Scene version (see [`crate::frame`]).
    pub version: u32,
    /// Steps since reset: the half-planes are those of this step.
    pub step: u32,
    /// The agent's id.
    pub agent: u32,
    /// The agent's index in the frame's position array.
    pub index: u32,
    /// Position now (m).
    pub position: [f32; 2],
    /// The velocity chosen in the last step (m/s).
    pub velocity: [f32; 2],
    /// The preferred velocity the last step started from (m/s).
    pub pref_velocity: [f32; 2],
    /// Radius (m).
    pub radius: f32,
    /// Maximum speed (m/s): the radius of the disc the velocity must lie in.
    pub max_speed: f32,
    /// Time horizon for agents (s).
    pub time_horizon: f32,
    /// Time horizon for obstacles (s).
    pub time_horizon_obst: f32,
    /// Neighbour search distance (m).
    pub neighbor_dist: f32,
    /// Maximum number of agent neighbours.
    pub max_neighbors: usize,
    /// The ORCA half-planes of the last step, obstacle ones first.
    pub half_planes: Vec<InspectedHalfPlane>,
    /// How many of `half_planes` come from obstacles.
    pub obstacle_half_planes: usize,
    /// How many of `half_planes` are the agent's acceleration limit (after the obstacles').
    pub acceleration_half_planes: usize,
    /// How many of `half_planes` come from agents.
    pub agent_half_planes: usize,
    /// Ids of the agents taken into account, nearest first.
    pub neighbors: Vec<u32>,
    /// Their indices in the frame's position array.
    pub neighbor_indices: Vec<u32>,
    /// Which linear program decided.
    pub outcome: InspectedOutcome,
    /// The agent's avoidance layers ([`Simulator::agent_avoidance_layers`]; RVO2: 1).
    pub avoidance_layers: u32,
    /// The agent's avoidance mask ([`Simulator::agent_avoidance_mask`]; RVO2: 1): it avoids
    /// the agents whose layers share a bit with it.
    pub avoidance_mask: u32,
    /// Whether layers matter for this agent: its layers or mask differ from the defaults, or
    /// it ignores an agent within its neighbour distance, or a neighbour ignores it. The
    /// inspector shows the layers only then.
    pub layers_in_use: bool,
    /// Ids of the agents within the neighbour distance of the agent's position now that it
    /// ignores (its mask shares no bit with their layers), nearest first: ORCA left them out
    /// however near they were.
    pub ignored: Vec<u32>,
    /// Their indices in the frame's position array.
    pub ignored_indices: Vec<u32>,
    /// Ids of the neighbours that ignore this agent (their mask shares no bit with its
    /// layers): they will not yield, so the agent took the whole avoidance of each.
    pub avoided_alone: Vec<u32>,
    /// With roadmap navigation, the way the agent means to walk from its position now: that
    /// position, the roadmap's waypoints, its goal ([`crate::LiveScene::route`]); empty
    /// otherwise.
    pub route: Vec<[f32; 2]>,
}

/// The agents `id` ignores within its neighbour distance of `position`, nearest first (ties
/// in id order), as (id, frame index) pairs.
fn ignored_nearby(sim: &Simulator, id: AgentId, position: swerve::Vec2, range: f32, mask: u32) -> Vec<(u32, u32)> {
    let mut near: Vec<(f32, u32, u32)> = sim
        .agent_ids()
        .iter()
        .zip(sim.positions())
        .enumerate()
        .filter(|&(_, (&other, p))| other != id && p.distance_squared(position) < range * range)
        .filter(|&(_, (&other, _))| sim.agent_avoidance_layers(other).is_ok_and(|layers| layers & mask == 0))
        // A frame index is a position in `agent_ids`, which fits in u32 as the ids do.
        .map(|(k, (other, p))| (p.distance_squared(position), other.0, k as u32))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.into_iter().map(|(_, other, k)| (other, k)).collect()
}

fn xy(v: swerve::Vec2) -> [f32; 2] {
    [v.x, v.y]
}

/// The report for agent `agent` of `sim`, or `None` if no such agent lives.
pub fn inspect(sim: &Simulator, agent: u32, version: u32, step: u32) -> Option<InspectReport> {
    let id = AgentId(agent);
    let index = sim.agent_ids().iter().position(|a| *a == id)? as u32;
    let params = sim.agent_params(id).ok()?;
    let half_planes = sim.agent_half_planes(id).ok()?;
    let hard_count = sim.agent_obstacle_half_plane_count(id).ok()?;
    let acceleration_count = sim.agent_acceleration_half_plane_count(id).ok()?;
    let obstacle_count = hard_count - acceleration_count;
    let neighbors: Vec<u32> = sim.agent_neighbors(id).ok()?.map(|n| n.0).collect();
    let index_of = crate::frame::index_map(sim);
    let outcome = match sim.agent_lp_outcome(id).ok()? {
        LpOutcome::Feasible => InspectedOutcome::Feasible,
        LpOutcome::Fallback { first_infeasible } => InspectedOutcome::Fallback { first_infeasible },
    };
    let position = sim.agent_position(id).ok()?;
    let avoidance_layers = sim.agent_avoidance_layers(id).ok()?;
    let avoidance_mask = sim.agent_avoidance_mask(id).ok()?;
    let ignored = ignored_nearby(sim, id, position, params.neighbor_dist, avoidance_mask);
    let avoided_alone: Vec<u32> = neighbors
        .iter()
        .copied()
        .filter(|&n| sim.agent_avoidance_mask(AgentId(n)).is_ok_and(|mask| mask & avoidance_layers == 0))
        .collect();
    let layers_in_use = avoidance_layers != swerve::orca::DEFAULT_AVOIDANCE_LAYERS
        || avoidance_mask != swerve::orca::DEFAULT_AVOIDANCE_MASK
        || !ignored.is_empty()
        || !avoided_alone.is_empty();
    Some(InspectReport {
        message_type: "inspect",
        version,
        step,
        agent,
        index,
        position: xy(position),
        velocity: xy(sim.agent_velocity(id).ok()?),
        pref_velocity: xy(sim.agent_pref_velocity(id).ok()?),
        radius: params.radius,
        max_speed: params.max_speed,
        time_horizon: params.time_horizon,
        time_horizon_obst: params.time_horizon_obst,
        neighbor_dist: params.neighbor_dist,
        max_neighbors: params.max_neighbors,
        half_planes: half_planes
            .iter()
            .enumerate()
            .map(|(k, h)| InspectedHalfPlane {
                point: xy(h.point),
                direction: xy(h.direction),
                kind: if k < obstacle_count {
                    "obstacle"
                } else if k < hard_count {
                    "acceleration"
                } else {
                    "agent"
                },
            })
            .collect(),
        obstacle_half_planes: obstacle_count,
        acceleration_half_planes: acceleration_count,
        agent_half_planes: half_planes.len() - hard_count,
        neighbor_indices: neighbors.iter().filter_map(|n| index_of.get(n).copied()).collect(),
        neighbors,
        outcome,
        avoidance_layers,
        avoidance_mask,
        layers_in_use,
        ignored: ignored.iter().map(|&(other, _)| other).collect(),
        ignored_indices: ignored.iter().map(|&(_, k)| k).collect(),
        avoided_alone,
        route: Vec::new(),
    })
}

/// One ORCA plane of a 3-D agent ([`swerve::orca3d::Plane`]): the permitted velocities `v`
/// have `(v - point) · normal ≥ 0`. A degenerate pair (two agents on one point) gives a NaN
/// plane, sent as `null` coordinates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InspectedPlane {
    /// A point on the boundary plane (m/s).
    pub point: [f32; 3],
    /// The unit normal, pointing into the permitted side.
    pub normal: [f32; 3],
    /// `"obstacle"` (a static triangle's hard plane, beyond RVO2-3D) or `"agent"`.
    pub kind: &'static str,
}

/// Which of RVO2-3D's linear programs produced a 3-D agent's velocity.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "program")]
pub enum InspectedOutcome3d {
    /// Every plane and the speed limit could be met (RVO2-3D's `linearProgram3`, in space).
    #[serde(rename = "LP3")]
    Feasible,
    /// The planes conflict; the velocity minimises the worst violation of the planes from
    /// `first_infeasible` on (RVO2-3D's `linearProgram4`).
    #[serde(rename = "LP4")]
    Fallback {
        /// Index of the first plane linear program 3 could not satisfy.
        first_infeasible: usize,
    },
}

/// Everything the inspector shows for one 3-D agent ([`swerve::orca3d::Simulator`]) at one
/// step, read from its per-agent accessors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InspectReport3d {
    /// Always `"inspect"` (the message type for the page).
    #[serde(rename = "type")]
    pub message_type: &'static str,
    /// Always 3: tells the page this is velocity space in three dimensions.
    pub dimensions: u32,
    /// Scene version (see [`crate::frame`]).
    pub version: u32,
    /// Steps since reset: the planes are those of this step.
    pub step: u32,
    /// The agent's id.
    pub agent: u32,
    /// The agent's index in the frame's position array.
    pub index: u32,
    /// Position now (m).
    pub position: [f32; 3],
    /// The velocity chosen in the last step (m/s).
    pub velocity: [f32; 3],
    /// The preferred velocity the last step started from (m/s).
    pub pref_velocity: [f32; 3],
    /// Radius (m).
    pub radius: f32,
    /// Maximum speed (m/s): the radius of the sphere the velocity must lie in.
    pub max_speed: f32,
    /// Time horizon (s).
    pub time_horizon: f32,
    /// Neighbour search distance (m).
    pub neighbor_dist: f32,
    /// Maximum number of neighbours.
    pub max_neighbors: usize,
    /// The agent's obstacle time horizon (s): how far ahead it keeps clear of static
    /// triangles ([`swerve::orca3d::Simulator::agent_obstacle_time_horizon`]).
    pub obstacle_time_horizon: f32,
    /// The ORCA planes of the last step ([`swerve::orca3d::Simulator::agent_planes`]),
    /// obstacle ones first.
    pub planes: Vec<InspectedPlane>,
    /// How many of `planes` (the first ones) come from static obstacles
    /// ([`swerve::orca3d::Simulator::agent_obstacle_plane_count`]).
    pub obstacle_planes: usize,
    /// How many of `planes` come from other agents (and movers).
    pub agent_planes: usize,
    /// Ids of the agents taken into account, nearest first.
    pub neighbors: Vec<u32>,
    /// Their indices in the frame's position array.
    pub neighbor_indices: Vec<u32>,
    /// Which linear program decided.
    pub outcome: InspectedOutcome3d,
    /// With roadmap navigation, the way the agent means to fly from its position now: that
    /// position, the roadmap's waypoints, its goal ([`crate::LiveScene::route3d`]); empty
    /// otherwise.
    pub route: Vec<[f32; 3]>,
}

/// An inspector report of either kind, as sent to the page and served at `/api/inspect/ID`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Inspection {
    /// A planar agent ([`swerve::Simulator`]).
    Plane(InspectReport),
    /// A 3-D agent ([`swerve::orca3d::Simulator`]).
    Space(InspectReport3d),
}

fn xyz(v: swerve::orca3d::Vec3) -> [f32; 3] {
    [v.x, v.y, v.z]
}

/// The report for agent `agent` of the 3-D crowd `sim`, or `None` if no such agent lives.
pub fn inspect_3d(sim: &swerve::orca3d::Simulator, agent: u32, version: u32, step: u32) -> Option<InspectReport3d> {
    let id = AgentId(agent);
    let index = sim.agent_ids().iter().position(|a| *a == id)? as u32;
    let params = sim.agent_params(id).ok()?;
    let neighbors: Vec<u32> = sim.agent_neighbors(id).ok()?.map(|n| n.0).collect();
    let index_of = crate::frame::index_map_3d(sim);
    let outcome = match sim.agent_lp_outcome(id).ok()? {
        LpOutcome::Feasible => InspectedOutcome3d::Feasible,
        LpOutcome::Fallback { first_infeasible } => InspectedOutcome3d::Fallback { first_infeasible },
    };
    let planes = sim.agent_planes(id).ok()?;
    let obstacle_planes = sim.agent_obstacle_plane_count(id).ok()?;
    Some(InspectReport3d {
        message_type: "inspect",
        dimensions: 3,
        version,
        step,
        agent,
        index,
        position: xyz(sim.agent_position(id).ok()?),
        velocity: xyz(sim.agent_velocity(id).ok()?),
        pref_velocity: xyz(sim.agent_pref_velocity(id).ok()?),
        radius: params.radius,
        max_speed: params.max_speed,
        time_horizon: params.time_horizon,
        neighbor_dist: params.neighbor_dist,
        max_neighbors: params.max_neighbors,
        obstacle_time_horizon: sim.agent_obstacle_time_horizon(id).ok()?,
        planes: planes
            .iter()
            .enumerate()
            .map(|(k, p)| InspectedPlane {
                point: xyz(p.point),
                normal: xyz(p.normal),
                kind: if k < obstacle_planes { "obstacle" } else { "agent" },
            })
            .collect(),
        obstacle_planes,
        agent_planes: planes.len() - obstacle_planes,
        neighbor_indices: neighbors.iter().filter_map(|n| index_of.get(n).copied()).collect(),
        neighbors,
        outcome,
        route: Vec::new(),
    })
}

/// The report for agent `agent` of whichever crowd `scene` has, or `None` if no such agent
/// lives.
pub fn inspect_scene(scene: &dyn crate::LiveScene, agent: u32, version: u32, step: u32) -> Option<Inspection> {
    if let Some(sim) = scene.simulator3d() {
        let mut report = inspect_3d(sim, agent, version, step)?;
        report.route = scene.route3d(agent).into_iter().map(xyz).collect();
        return Some(Inspection::Space(report));
    }
    let mut report = inspect(scene.simulator()?, agent, version, step)?;
    report.route = scene.route(agent).iter().map(|p| p.to_array()).collect();
    Some(Inspection::Plane(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LiveScene;

    #[test]
    fn an_acceleration_limit_is_shown_as_its_own_kind_between_obstacles_and_agents() {
        let mut sim = swerve::Simulator::new(0.25, swerve::AgentParams::default()).unwrap();
        let limited = sim.add_agent(swerve::Vec2::new(0.0, 0.0)).unwrap();
        let free = sim.add_agent(swerve::Vec2::new(4.0, 0.0)).unwrap();
        sim.add_obstacle(&[swerve::Vec2::new(-3.0, -3.0), swerve::Vec2::new(-3.0, 3.0)]).unwrap();
        sim.process_obstacles();
        sim.set_agent_max_acceleration(limited, 2.0).unwrap();
        sim.set_record_decisions(true);
        sim.step();
        let report = inspect(&sim, limited.0, 1, 1).unwrap();
        let kinds: Vec<&str> = report.half_planes.iter().map(|h| h.kind).collect();
        let obstacles = report.obstacle_half_planes;
        assert!(obstacles > 0, "{kinds:?}");
        assert_eq!(report.acceleration_half_planes, 8);
        assert!(kinds[..obstacles].iter().all(|k| *k == "obstacle"), "{kinds:?}");
        assert!(kinds[obstacles..obstacles + 8].iter().all(|k| *k == "acceleration"), "{kinds:?}");
        assert!(kinds[obstacles + 8..].iter().all(|k| *k == "agent") && report.agent_half_planes == 1, "{kinds:?}");
        let other = inspect(&sim, free.0, 1, 1).unwrap();
        assert_eq!(other.acceleration_half_planes, 0);
        assert!(other.half_planes.iter().all(|h| h.kind != "acceleration"));
    }

    #[test]
    fn layers_show_whom_an_agent_ignores_and_whom_it_avoids_alone() {
        let mut sim = swerve::Simulator::new(0.25, swerve::AgentParams::default()).unwrap();
        let a = sim.add_agent(swerve::Vec2::new(0.0, 0.0)).unwrap();
        let ghost = sim.add_agent(swerve::Vec2::new(4.0, 0.0)).unwrap();
        let deaf = sim.add_agent(swerve::Vec2::new(0.0, 5.0)).unwrap();
        let far = sim.add_agent(swerve::Vec2::new(100.0, 0.0)).unwrap();
        // `ghost` is on layer 2 only, which `a` does not avoid; `deaf` stays on layer 1 (so
        // `a` avoids it) but avoids layer 2 only, so it ignores `a`; `far` is out of range.
        sim.set_agent_avoidance_layers(ghost, 0b10).unwrap();
        sim.set_agent_avoidance_layers(far, 0b10).unwrap();
        sim.set_agent_avoidance_mask(deaf, 0b10).unwrap();
        sim.set_record_decisions(true);
        sim.step();
        let report = inspect(&sim, a.0, 1, 1).unwrap();
        assert_eq!((report.avoidance_layers, report.avoidance_mask), (1, 1));
        assert!(report.layers_in_use);
        assert_eq!(report.neighbors, [deaf.0]);
        assert_eq!(report.ignored, [ghost.0]);
        assert_eq!(report.ignored_indices, [1]);
        assert_eq!(report.avoided_alone, [deaf.0]);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["avoidance_layers"], 1);
        assert_eq!(json["ignored_indices"], serde_json::json!([1]));
        let ghost_report = inspect(&sim, ghost.0, 1, 1).unwrap();
        assert_eq!((ghost_report.avoidance_layers, ghost_report.avoidance_mask), (2, 1));
        assert!(ghost_report.layers_in_use && ghost_report.ignored.is_empty());
        // Without layers nothing is ignored and the inspector leaves them out.
        let mut plain = swerve::Simulator::new(0.25, swerve::AgentParams::default()).unwrap();
        let b = plain.add_agent(swerve::Vec2::new(0.0, 0.0)).unwrap();
        plain.add_agent(swerve::Vec2::new(4.0, 0.0)).unwrap();
        plain.set_record_decisions(true);
        plain.step();
        let report = inspect(&plain, b.0, 1, 1).unwrap();
        assert!(!report.layers_in_use && report.ignored.is_empty() && report.avoided_alone.is_empty());
    }

    #[test]
    fn layers_from_a_scenario_file_reach_the_inspector() {
        let text = "name = \"l\"\ntime_step = 0.25\nsteps = 10\n\
                    [agent_defaults]\navoidance_mask = 0b11\n\
                    [[agents]]\nposition = [0.0, 0.0]\ngoal = [9.0, 0.0]\n\
                    [[agents]]\nposition = [3.0, 0.0]\ngoal = [-9.0, 0.0]\n\
                    avoidance_layers = 0b10\navoidance_mask = 0b10\n";
        let scenario = swerve::scenario::Scenario::from_toml_str(text, "l").unwrap();
        let mut scene = crate::ScenarioScene::new(scenario).unwrap();
        scene.step();
        let sim = scene.simulator().unwrap();
        let ids = sim.agent_ids().to_vec();
        let walker = inspect(sim, ids[0].0, 1, 1).unwrap();
        assert_eq!((walker.avoidance_layers, walker.avoidance_mask), (1, 3));
        assert_eq!(walker.avoided_alone, [ids[1].0], "the vehicle ignores the walker");
        let vehicle = inspect(sim, ids[1].0, 1, 1).unwrap();
        assert_eq!((vehicle.avoidance_layers, vehicle.avoidance_mask), (2, 2));
        assert_eq!(vehicle.ignored, [ids[0].0]);
        assert!(vehicle.neighbors.is_empty());
    }

    #[test]
    fn report_holds_the_library_values_and_survives_json() {
        let mut scene = crate::scenes::obstacles().unwrap();
        for _ in 0..4 {
            scene.step();
        }
        let sim = scene.simulator().unwrap();
        let id = *sim.agent_ids().iter().find(|id| sim.agent_obstacle_half_plane_count(**id).unwrap() > 0).unwrap();
        let report = inspect(sim, id.0, 1, 4).unwrap();
        let planes = sim.agent_half_planes(id).unwrap();
        assert_eq!(report.half_planes.len(), planes.len());
        assert_eq!(report.obstacle_half_planes, sim.agent_obstacle_half_plane_count(id).unwrap());
        assert!(report.obstacle_half_planes > 0);
        assert_eq!(report.half_planes[0].kind, "obstacle");
        assert_eq!(report.neighbors.len(), sim.agent_neighbors(id).unwrap().len());
        // JSON keeps every f32 exactly (serde_json prints the shortest round-tripping form).
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        for (k, plane) in planes.iter().enumerate() {
            let px = json["half_planes"][k]["point"][0].as_f64().unwrap() as f32;
            assert_eq!(px.to_bits(), plane.point.x.to_bits());
        }
        assert!(inspect(sim, 1_000_000, 1, 4).is_none());
    }
}
