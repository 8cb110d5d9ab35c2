//! The simulation thread: owns the scene, steps it at the asked rate, and publishes frames.
//!
//! Stepping a 10,000-agent crowd takes milliseconds of CPU, so it runs on its own OS thread
//! (the simulator itself fans out over rayon), never on the async runtime that serves pages.
//! Connections talk to it through a command channel and read what it publishes through
//! `tokio::sync::watch`, which keeps only the latest value: a slow page skips frames instead of
//! making the simulation or the other pages wait.

use crate::frame::{FrameEncoder, FrameInfo};
use crate::inspect::{inspect_scene, Inspection};
use crate::LiveScene;
use axum::body::Bytes;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// A request to the simulation thread.
pub(crate) enum Command {
    Play,
    Pause,
    Step,
    Reset,
    Speed(f32),
    BroadPhase(swerve::physics::BroadPhaseKind),
    Inspect { agent: u32, reply: oneshot::Sender<Option<Inspection>> },
    State { reply: oneshot::Sender<StateReport> },
    Summary { reply: oneshot::Sender<SummaryReport> },
}

/// The simulation's state, for `/api/state`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct StateReport {
    pub name: String,
    pub version: u32,
    pub step: u32,
    pub time: f64,
    pub playing: bool,
    pub agents: usize,
    pub steps_per_second: f32,
    pub step_ms: f32,
    pub balls: usize,
    /// The balls' broad phase, if there are balls.
    pub broad_phase: Option<String>,
    /// Broad-phase candidate pairs and contacts of the last step.
    pub candidate_pairs: usize,
    pub contacts: usize,
}

/// Per-agent half-plane counts and LP outcomes at one step, for `/api/agents`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SummaryReport {
    pub version: u32,
    pub step: u32,
    /// (agent id, half-planes, of which from obstacles, "LP2" or "LP3"); for a 3-D crowd
    /// (agent id, ORCA planes, of which from static obstacles, "LP3" or "LP4": RVO2-3D's
    /// programs).
    pub agents: Vec<(u32, usize, usize, &'static str)>,
}

/// What the connections share with the simulation thread.
pub(crate) struct Published {
    pub frames: watch::Receiver<Bytes>,
    pub scene: watch::Receiver<Arc<str>>,
    pub links_wanted: Arc<AtomicUsize>,
    pub structure_wanted: Arc<AtomicUsize>,
    pub stop: Arc<AtomicBool>,
}

/// The scene description sent as JSON on connect, after each reset and whenever the agents,
/// balls or obstacles change (see [`Runner::population`]).
#[derive(Serialize)]
struct SceneInfo<'a> {
    #[serde(rename = "type")]
    message_type: &'static str,
    name: &'a str,
    version: u32,
    time_step: f32,
    ids: Vec<u32>,
    radii: Vec<f32>,
    goals: Vec<[f32; 2]>,
    obstacles: Vec<Vec<[f32; 2]>>,
    /// min x, min y, max x, max y of everything in the scene (m).
    bounds: [f32; 4],
    steps_per_second: f32,
    ball_radii: Vec<f32>,
    /// The box the balls bounce in (min x, min y, max x, max y), if any.
    walls: Option<[f32; 4]>,
    /// The names of the broad phases, in the order of the frame's broad-phase index.
    broad_phases: Vec<&'static str>,
    /// Planar: how many of the last `ball_radii` (and of the frame's balls) are movers, discs
    /// the agents avoid (a scenario's `[[movers]]`); absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    movers: Option<usize>,
    /// 3 for a 3-D scene (frames with three coordinates); absent for a planar one, whose
    /// description is unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    dimensions: Option<u32>,
    /// 3-D: min x, min y, min z, max x, max y, max z of everything in the scene (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds3: Option<[f32; 6]>,
    /// 3-D: the box the spheres bounce in (min x, y, z, max x, y, z), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    box3: Option<[f32; 6]>,
    /// 3-D: the static triangles (three corners each, m): the spheres' and the crowd's obstacles.
    #[serde(skip_serializing_if = "Option::is_none")]
    triangles: Option<Vec<[[f32; 3]; 3]>>,
    /// 3-D: the agents' goals (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    goals3: Option<Vec<[f32; 3]>>,
}

/// Agent count, last agent id, ball (or sphere) count, and obstacle count with the last
/// obstacle id: see [`Runner::population`].
type Population = (usize, u32, usize, (usize, u32));

pub(crate) struct Runner {
    scene: Box<dyn LiveScene>,
    encoder: FrameEncoder,
    version: u32,
    step: u32,
    step_ms: f32,
    playing: bool,
    steps_per_second: f32,
    links: bool,
    structure: bool,
    /// See [`Runner::population`].
    population: Population,
    frames: watch::Sender<Bytes>,
    scene_info: watch::Sender<Arc<str>>,
    links_wanted: Arc<AtomicUsize>,
    structure_wanted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Runner {
    pub(crate) fn new(scene: Box<dyn LiveScene>, steps_per_second: f32, playing: bool) -> (Runner, Published) {
        let (frames, frames_rx) = watch::channel(Bytes::new());
        let (scene_info, scene_rx) = watch::channel(Arc::<str>::from(""));
        let links_wanted = Arc::new(AtomicUsize::new(0));
        let structure_wanted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut runner = Runner {
            scene,
            encoder: FrameEncoder::new(),
            version: 1,
            step: 0,
            step_ms: 0.0,
            playing,
            steps_per_second,
            links: false,
            structure: false,
            population: (0, u32::MAX, 0, (0, u32::MAX)),
            frames,
            scene_info,
            links_wanted: links_wanted.clone(),
            structure_wanted: structure_wanted.clone(),
            stop: stop.clone(),
        };
        runner.population = runner.population();
        runner.publish_scene();
        runner.publish_frame();
        (runner, Published { frames: frames_rx, scene: scene_rx, links_wanted, structure_wanted, stop })
    }

    fn publish_scene(&mut self) {
        if self.scene.is_3d() {
            return self.publish_scene_3d();
        }
        let scene = &*self.scene;
        let (mut ids, mut radii, mut positions) = (Vec::new(), Vec::new(), Vec::new());
        let (mut obstacles, mut time_step) = (Vec::new(), 0.0);
        if let Some(sim) = scene.simulator() {
            ids = sim.agent_ids().iter().map(|id| id.0).collect();
            radii = sim.agent_ids().iter().map(|id| sim.agent_params(*id).map_or(0.0, |p| p.radius)).collect();
            positions = sim.positions().to_vec();
            obstacles = sim.obstacle_polygons().iter().map(|p| p.iter().map(|v| [v.x, v.y]).collect()).collect();
            time_step = sim.time_step();
        }
        let world = scene.world();
        let movers = scene.movers();
        let mut ball_radii: Vec<f32> = world.map_or(Vec::new(), |w| w.balls().iter().map(|b| b.radius).collect());
        ball_radii.extend(movers.iter().map(|m| m.1));
        let walls = world.and_then(|w| w.bounds()).map(|b| [b.min.x, b.min.y, b.max.x, b.max.y]);
        if let Some(w) = world {
            obstacles.extend(w.segments().iter().map(|s| vec![[s.a.x, s.a.y], [s.b.x, s.b.y]]));
        }
        let goals: Vec<[f32; 2]> = scene.goals().iter().map(|g| [g.x, g.y]).collect();
        let everything = positions
            .iter()
            .copied()
            .chain(scene.goals().iter().copied())
            .chain(scene.simulator().into_iter().flat_map(|s| s.obstacle_polygons().iter().flatten().copied()))
            .chain(world.into_iter().flat_map(|w| w.balls().iter().map(|b| b.position)))
            .chain(world.and_then(|w| w.bounds()).into_iter().flat_map(|b| [b.min, b.max]))
            .chain(movers.iter().map(|m| m.0))
            .filter(|p| p.is_finite());
        let bounds = swerve::geom::Aabb::from_points(everything)
            .map_or([-10.0, -10.0, 10.0, 10.0], |b| [b.min.x, b.min.y, b.max.x, b.max.y]);
        let info = SceneInfo {
            message_type: "scene",
            name: scene.name(),
            version: self.version,
            time_step,
            ids,
            radii,
            goals,
            obstacles,
            bounds,
            steps_per_second: self.steps_per_second,
            ball_radii,
            walls,
            broad_phases: swerve::physics::BroadPhaseKind::ALL.iter().map(|k| k.name()).collect(),
            movers: (!movers.is_empty()).then_some(movers.len()),
            dimensions: None,
            bounds3: None,
            box3: None,
            triangles: None,
            goals3: None,
        };
        // Serialising plain numbers and strings cannot fail; an empty message would only make
        // the page wait for the next one.
        let json = serde_json::to_string(&info).unwrap_or_default();
        self.scene_info.send_replace(Arc::from(json));
    }

    /// The scene description of a 3-D scene: radii, goals, triangles, the box and the bounds
    /// of everything; the planar fields hold the xy shadow of the same.
    fn publish_scene_3d(&mut self) {
        use swerve::orca3d::Vec3;
        let scene = &*self.scene;
        let (mut ids, mut radii, mut time_step) = (Vec::new(), Vec::new(), 0.0);
        let mut points: Vec<Vec3> = Vec::new();
        let mut triangles = Vec::new();
        if let Some(sim) = scene.simulator3d() {
            ids = sim.agent_ids().iter().map(|id| id.0).collect();
            radii = sim.agent_ids().iter().map(|id| sim.agent_params(*id).map_or(0.0, |p| p.radius)).collect();
            points.extend(
                sim.positions().iter().zip(&radii).flat_map(|(p, r)| [*p - Vec3::splat(*r), *p + Vec3::splat(*r)]),
            );
            time_step = sim.time_step();
            // The crowd's static obstacles (beyond RVO2-3D), drawn as the spheres' triangles are.
            for (_, mesh) in sim.obstacles() {
                triangles.extend(mesh.iter().map(|t| [t.a.to_array(), t.b.to_array(), t.c.to_array()]));
                points.extend(mesh.iter().flat_map(|t| [t.a, t.b, t.c]));
            }
        }
        points.extend(scene.goals3d());
        let world = scene.world3d();
        // A 3-D crowd's movers are drawn as spheres (the frames carry them so).
        let movers = scene.simulator3d().map_or(&[][..], |s| s.movers());
        let ball_radii: Vec<f32> = match world {
            Some(w) => w.spheres().iter().map(|s| s.radius).collect(),
            None => movers.iter().map(|m| m.radius).collect(),
        };
        points.extend(
            movers.iter().flat_map(|m| [m.position - Vec3::splat(m.radius), m.position + Vec3::splat(m.radius)]),
        );
        let mut box3 = None;
        if let Some(w) = world {
            points.extend(
                w.spheres()
                    .iter()
                    .flat_map(|s| [s.position - Vec3::splat(s.radius), s.position + Vec3::splat(s.radius)]),
            );
            triangles.extend(w.triangles().iter().map(|t| [t.a.to_array(), t.b.to_array(), t.c.to_array()]));
            points.extend(w.triangles().iter().flat_map(|t| [t.a, t.b, t.c]));
            if let Some(b) = w.bounds() {
                box3 = Some([b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z]);
                points.extend([b.min, b.max]);
            }
        }
        let finite = points.iter().filter(|p| p.is_finite());
        let (lo, hi) = finite
            .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let bounds3 = if lo.cmple(hi).all() {
            [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]
        } else {
            [-10.0, -10.0, -10.0, 10.0, 10.0, 10.0]
        };
        let goals3: Vec<[f32; 3]> = scene.goals3d().iter().map(|g| g.to_array()).collect();
        let info = SceneInfo {
            message_type: "scene",
            name: scene.name(),
            version: self.version,
            time_step,
            ids,
            radii,
            goals: goals3.iter().map(|g| [g[0], g[1]]).collect(),
            obstacles: Vec::new(),
            bounds: [bounds3[0], bounds3[1], bounds3[3], bounds3[4]],
            steps_per_second: self.steps_per_second,
            ball_radii,
            walls: box3.map(|b| [b[0], b[1], b[3], b[4]]),
            broad_phases: swerve::physics3d::BroadPhaseKind::ALL.iter().map(|k| k.name()).collect(),
            movers: None,
            dimensions: Some(3),
            bounds3: Some(bounds3),
            box3,
            triangles: Some(triangles),
            goals3: Some(goals3),
        };
        // As for the planar description: plain numbers and strings always serialise.
        let json = serde_json::to_string(&info).unwrap_or_default();
        self.scene_info.send_replace(Arc::from(json));
    }

    /// What the page's scene description depends on: agent and ball counts, the last
    /// agent id and the obstacle count. A scene that adds or removes agents (spawners, agents
    /// leaving at their goal) changes it, and the page then needs a new description (ids,
    /// radii) to draw the frame; so does one that removes an obstacle (a scenario's
    /// `remove_at`: the description lists the simulator's live obstacles).
    fn population(&self) -> Population {
        if let Some(sim) = self.scene.simulator3d() {
            // Obstacle ids are never reused here either (see below).
            let (count, last) = sim.obstacles().fold((0, u32::MAX), |(count, _), (id, _)| (count + 1, id.0));
            // Movers travel as spheres, whose radii the description lists.
            let movers = sim.movers().len();
            return (sim.num_agents(), sim.agent_ids().last().map_or(u32::MAX, |id| id.0), movers, (count, last));
        }
        if let Some(world) = self.scene.world3d() {
            return (0, u32::MAX, world.num_spheres(), (0, u32::MAX));
        }
        let sim = self.scene.simulator();
        (
            sim.map_or(0, |s| s.num_agents()),
            sim.and_then(|s| s.agent_ids().last()).map_or(u32::MAX, |id| id.0),
            // The movers travel after the balls, whose radii the description lists.
            self.scene.world().map_or(0, |w| w.balls().len()) + self.scene.movers().len(),
            // Obstacle ids are never reused: any removal or addition within one step changes
            // the count or the last id.
            sim.map_or((0, u32::MAX), |s| {
                (s.obstacle_ids().len(), s.obstacle_ids().last().map_or(u32::MAX, |id| id.0))
            }),
        )
    }

    fn publish_frame(&mut self) {
        let population = self.population();
        if population != self.population {
            self.population = population;
            self.version = self.version.wrapping_add(1);
            self.publish_scene();
        }
        let info = FrameInfo {
            version: self.version,
            step: self.step,
            step_ms: self.step_ms,
            playing: self.playing,
            links: self.links,
            structure: self.structure,
        };
        let bytes = self.encoder.encode(&*self.scene, info);
        self.frames.send_replace(Bytes::from(bytes));
    }

    fn advance(&mut self) {
        let start = Instant::now();
        self.scene.step();
        self.step_ms = start.elapsed().as_secs_f32() * 1000.0;
        self.step = self.step.wrapping_add(1);
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Play => {
                self.playing = true;
                self.publish_frame();
            }
            Command::Pause => {
                self.playing = false;
                self.publish_frame();
            }
            Command::Step => {
                self.playing = false;
                self.advance();
                self.publish_frame();
            }
            Command::Reset => {
                self.scene.reset();
                self.version = self.version.wrapping_add(1);
                self.step = 0;
                self.step_ms = 0.0;
                self.population = self.population();
                self.publish_scene();
                self.publish_frame();
            }
            Command::Speed(steps_per_second) => self.steps_per_second = steps_per_second,
            Command::BroadPhase(kind) => {
                if let Some(world) = self.scene.world_mut() {
                    world.set_broad_phase(kind);
                    self.publish_frame();
                }
            }
            Command::Inspect { agent, reply } => {
                let report = inspect_scene(&*self.scene, agent, self.version, self.step);
                // The asker may have gone away meanwhile; nothing to do then.
                let _ = reply.send(report);
            }
            Command::State { reply } => {
                if self.scene.is_3d() {
                    let world = self.scene.world3d();
                    let stats = world.map(|w| w.last_step_stats()).unwrap_or_default();
                    let _ = reply.send(StateReport {
                        name: self.scene.name().to_string(),
                        version: self.version,
                        step: self.step,
                        time: self.scene.time(),
                        playing: self.playing,
                        agents: self.scene.simulator3d().map_or(0, |s| s.num_agents()),
                        steps_per_second: self.steps_per_second,
                        step_ms: self.step_ms,
                        balls: world.map_or(0, |w| w.num_spheres()),
                        broad_phase: world.map(|w| w.broad_phase().name().to_string()),
                        candidate_pairs: stats.candidate_pairs,
                        contacts: stats.contacts,
                    });
                    return;
                }
                let _ = reply.send(StateReport {
                    name: self.scene.name().to_string(),
                    version: self.version,
                    step: self.step,
                    time: self.scene.time(),
                    playing: self.playing,
                    agents: self.scene.simulator().map_or(0, |s| s.num_agents()),
                    steps_per_second: self.steps_per_second,
                    step_ms: self.step_ms,
                    balls: self.scene.world().map_or(0, |w| w.balls().len()),
                    broad_phase: self.scene.world().map(|w| w.broad_phase().to_string()),
                    candidate_pairs: self.scene.world().map_or(0, |w| w.last_step_stats().candidate_pairs),
                    contacts: self.scene.world().map_or(0, |w| w.last_step_stats().contacts),
                });
            }
            Command::Summary { reply } => {
                let mut agents = Vec::new();
                if let Some(sim) = self.scene.simulator3d() {
                    for id in sim.agent_ids() {
                        let planes = sim.agent_planes(*id).map_or(0, |p| p.len());
                        let obstacle = sim.agent_obstacle_plane_count(*id).unwrap_or(0);
                        let lp = match sim.agent_lp_outcome(*id) {
                            Ok(swerve::orca::linear_program::LpOutcome::Fallback { .. }) => "LP4",
                            _ => "LP3",
                        };
                        agents.push((id.0, planes, obstacle, lp));
                    }
                }
                if let Some(sim) = self.scene.simulator() {
                    for id in sim.agent_ids() {
                        let total = sim.agent_half_planes(*id).map_or(0, |h| h.len());
                        // Obstacles' alone (the hard ones less the acceleration limit's).
                        let obstacle = sim.agent_obstacle_half_plane_count(*id).unwrap_or(0)
                            - sim.agent_acceleration_half_plane_count(*id).unwrap_or(0);
                        let lp = match sim.agent_lp_outcome(*id) {
                            Ok(swerve::orca::linear_program::LpOutcome::Fallback { .. }) => "LP3",
                            _ => "LP2",
                        };
                        agents.push((id.0, total, obstacle, lp));
                    }
                }
                let _ = reply.send(SummaryReport { version: self.version, step: self.step, agents });
            }
        }
    }

    /// Runs until every command sender is gone or `stop` is set.
    pub(crate) fn run(mut self, commands: Receiver<Command>) {
        let mut next_step = Instant::now();
        while !self.stop.load(Ordering::Relaxed) {
            let wait = if self.playing {
                next_step.saturating_duration_since(Instant::now())
            } else {
                Duration::from_millis(100)
            };
            match commands.recv_timeout(wait) {
                Ok(command) => self.handle(command),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let links = self.links_wanted.load(Ordering::Relaxed) > 0;
            let structure = self.structure_wanted.load(Ordering::Relaxed) > 0;
            let now = Instant::now();
            if self.playing && now >= next_step {
                self.links = links;
                self.structure = structure;
                self.advance();
                self.publish_frame();
                let interval = if self.steps_per_second > 0.0 {
                    Duration::from_secs_f32(1.0 / self.steps_per_second)
                } else {
                    Duration::ZERO
                };
                // Keep a steady rate, but do not try to catch up after slow steps.
                next_step = (next_step + interval).max(Instant::now().checked_sub(interval).unwrap_or(now));
            } else if links != self.links || structure != self.structure {
                // A page turned links or the structure on or off while paused: resend the
                // frame with (or without) them.
                self.links = links;
                self.structure = structure;
                self.publish_frame();
            }
        }
    }
}
