//! The binary frame the server streams to the page, one per published simulation step.
//!
//! Little-endian, every field 4 bytes so the page reads the arrays in place with
//! `Float32Array` / `Uint32Array` views (no copying, no parsing: this is what keeps a
//! 10,000-agent scene smooth).
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | u32 | [`MAGIC`] (`"SWV1"`) |
//! | 4 | u32 | scene version (bumped by each reset; the page drops frames of an old version) |
//! | 8 | u32 | step number since the last reset |
//! | 12 | f32 | simulated time since the last reset (s) |
//! | 16 | f32 | wall-clock time of the last step (ms) |
//! | 20 | u32 | flags: bit 0 playing, bit 1 ball angles follow the boxes |
//! | 24 | u32 | agent count `n` |
//! | 28 | u32 | overlapping agent pairs |
//! | 32 | u32 | agents at their goal |
//! | 36 | u32 | neighbour link count `l` (0 unless a page asked for links) |
//! | 40 | f32 | deepest overlap between two discs of the same kind (m; 0 when none) |
//! | 44 | u32 | ball count `m` (the world's balls, then a scenario's movers: the scene description's `movers` says how many) |
//! | 48 | u32 | broad-phase candidate pairs of the last step (balls) |
//! | 52 | u32 | contacts of the last step (balls) |
//! | 56 | u32 | broad-phase debug box count `b` (0 unless a page asked for the structure) |
//! | 60 | u32 | index of the broad phase in `BroadPhaseKind::ALL` (`u32::MAX`: no balls) |
//! | 64 | f32 × 2n | agent positions (x, y), in [`swerve::Simulator::agent_ids`] order |
//! | … | f32 × 2m | ball positions (x, y), in [`swerve::physics::World::balls`] order, then the movers' ([`crate::LiveScene::movers`]) |
//! | … | u32 × 2l | neighbour links as pairs of agent indices (agent, neighbour) |
//! | … | (f32 × 4, u32) × b | broad-phase boxes: min x, min y, max x, max y, then kind (bits 0–7: 0 grid cell, 1 quadtree node, 2 sweep interval, 3 tree node) and level (bits 8–31) |
//! | … | f32 × m | ball angles (rad, [`swerve::physics::Ball::angle`]), only with flag bit 1: sent once some ball has turned (friction or spin), so that a frictionless scene's frames stay as they were |
//!
//! Overlaps are counted among agents and among balls (never agent against ball) and summed.
//!
//! ## 3-D frames
//!
//! A 3-D scene ([`LiveScene::is_3d`]: an [`swerve::orca3d::Simulator`] crowd or a
//! [`swerve::physics3d::World`] of spheres) sends the same 64-byte header with flag bit 2 set;
//! positions then have three coordinates, and there are no broad-phase boxes or angles. The
//! header's fields keep their meaning: agents are the 3-D crowd's, balls are the spheres (a
//! crowd's movers, [`swerve::orca3d::Simulator::movers`], in a scene without a sphere world),
//! the overlaps and deepest overlap are between spheres (agents among agents, spheres among
//! spheres), and the broad-phase index counts in `physics3d::BroadPhaseKind::ALL`. Static
//! triangles and the box do not move: they are in the scene description (JSON) instead.
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | u32 × 16 | the header above, with flag bit 2 (3-D) set, `b` = 0 and flag bit 1 clear |
//! | 64 | f32 × 3n | agent positions (x, y, z), in [`swerve::orca3d::Simulator::agent_ids`] order |
//! | … | f32 × 3m | sphere positions (x, y, z), in [`swerve::physics3d::World::spheres`] order (or the movers') |
//! | … | u32 × 2l | neighbour links as pairs of agent indices (agent, neighbour) |

use crate::metrics::{count_at_goal, count_at_goal_3d, OverlapCounter};
use crate::LiveScene;
use swerve::orca3d::Vec3;
use swerve::physics::{BroadPhaseKind, DebugBoxKind};

/// The first four bytes of every frame: `"SWV1"` read as a little-endian u32.
pub const MAGIC: u32 = u32::from_le_bytes(*b"SWV1");

/// Size of the fixed header in bytes.
pub const HEADER_BYTES: usize = 64;

/// Flag bit: the simulation is playing.
pub const FLAG_PLAYING: u32 = 1;

/// Frame flag: the ball angles follow the boxes.
pub const FLAG_BALL_ANGLES: u32 = 2;

/// Frame flag: a 3-D frame (positions are x, y, z; see the module's "3-D frames").
pub const FLAG_3D: u32 = 4;

/// Everything about one frame that is not read from the scene itself.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameInfo {
    /// Bumped by each reset.
    pub version: u32,
    /// Steps since the last reset.
    pub step: u32,
    /// Wall-clock duration of the last step (ms).
    pub step_ms: f32,
    /// Whether the simulation is playing.
    pub playing: bool,
    /// Whether to include the neighbour links.
    pub links: bool,
    /// Whether to include the broad phase's boxes.
    pub structure: bool,
}

/// Builds frames, reusing its buffers.
#[derive(Debug, Default)]
pub struct FrameEncoder {
    overlaps: OverlapCounter,
    radii: Vec<f32>,
    ball_positions: Vec<swerve::Vec2>,
    sphere_positions: Vec<Vec3>,
}

impl FrameEncoder {
    /// An encoder with empty buffers.
    pub fn new() -> FrameEncoder {
        FrameEncoder::default()
    }

    /// Encodes the scene's current state.
    pub fn encode(&mut self, scene: &dyn LiveScene, info: FrameInfo) -> Vec<u8> {
        if scene.is_3d() {
            return self.encode_3d(scene, info);
        }
        let sim = scene.simulator();
        let positions = sim.map_or(&[][..], |s| s.positions());
        self.radii.clear();
        if let Some(sim) = sim {
            // Every id in agent_ids() names a live agent, so agent_params cannot fail.
            self.radii.extend(sim.agent_ids().iter().map(|id| sim.agent_params(*id).map_or(0.0, |p| p.radius)));
        }
        let (mut overlaps, mut deepest) = self.overlaps.count_and_deepest(positions, &self.radii);
        let at_goal = count_at_goal(positions, &self.radii, scene.goals());
        let world = scene.world();
        let balls = world.map_or(&[][..], |w| w.balls());
        self.ball_positions.clear();
        self.ball_positions.extend(balls.iter().map(|b| b.position));
        self.radii.clear();
        self.radii.extend(balls.iter().map(|b| b.radius));
        let (ball_overlaps, ball_deepest) = self.overlaps.count_and_deepest(&self.ball_positions, &self.radii);
        // A scenario's movers travel after the balls (the description says how many).
        let movers = scene.movers();
        self.ball_positions.extend(movers.iter().map(|m| m.0));
        overlaps += ball_overlaps;
        deepest = deepest.max(ball_deepest);
        let stats = world.map(|w| w.last_step_stats()).unwrap_or_default();
        let broad_phase = world
            .map_or(u32::MAX, |w| BroadPhaseKind::ALL.iter().position(|k| *k == w.broad_phase()).unwrap_or(0) as u32);
        let debug = match (world, info.structure) {
            (Some(w), true) => Some(w.broad_phase_debug()),
            _ => None,
        };
        let box_count = debug.as_ref().map_or(0, |d| d.box_count());

        let mut links: Vec<u32> = Vec::new();
        if let (Some(sim), true) = (sim, info.links) {
            let index_of = index_map(sim);
            for (i, id) in sim.agent_ids().iter().enumerate() {
                if let Ok(neighbors) = sim.agent_neighbors(*id) {
                    for n in neighbors {
                        if let Some(&j) = index_of.get(&n.0) {
                            links.extend([i as u32, j]);
                        }
                    }
                }
            }
        }
        let ball_count = self.ball_positions.len();
        let mut out =
            Vec::with_capacity(HEADER_BYTES + 8 * positions.len() + 8 * ball_count + 4 * links.len() + 20 * box_count);
        let put = |out: &mut Vec<u8>, word: u32| out.extend_from_slice(&word.to_le_bytes());
        let angles = balls.iter().any(|b| b.angle != 0.0);
        let flags = if info.playing { FLAG_PLAYING } else { 0 } | if angles { FLAG_BALL_ANGLES } else { 0 };
        for word in [MAGIC, info.version, info.step] {
            put(&mut out, word);
        }
        put(&mut out, (scene.time() as f32).to_bits());
        put(&mut out, info.step_ms.to_bits());
        for word in [flags, positions.len() as u32, overlaps as u32, at_goal as u32, (links.len() / 2) as u32] {
            put(&mut out, word);
        }
        put(&mut out, deepest.to_bits());
        let (pairs, contacts) = (stats.candidate_pairs as u32, stats.contacts as u32);
        for word in [ball_count as u32, pairs, contacts, box_count as u32, broad_phase] {
            put(&mut out, word);
        }
        for p in positions.iter().chain(&self.ball_positions) {
            put(&mut out, p.x.to_bits());
            put(&mut out, p.y.to_bits());
        }
        for word in links {
            put(&mut out, word);
        }
        if let Some(debug) = debug {
            for layer in &debug.layers {
                let kind = match layer.kind {
                    DebugBoxKind::GridCell => 0,
                    DebugBoxKind::QuadtreeNode => 1,
                    DebugBoxKind::SweepInterval => 2,
                    DebugBoxKind::TreeNode => 3,
                };
                let tag = kind | (layer.level.min(0xFF_FFFF) << 8);
                for b in &layer.boxes {
                    for v in [b.min.x, b.min.y, b.max.x, b.max.y] {
                        put(&mut out, v.to_bits());
                    }
                    put(&mut out, tag);
                }
            }
        }
        if angles {
            // One angle per ball of the header's count; movers do not turn.
            for angle in balls.iter().map(|b| b.angle).chain(movers.iter().map(|_| 0.0f32)) {
                put(&mut out, angle.to_bits());
            }
        }
        out
    }
}

impl FrameEncoder {
    /// A 3-D frame (see the module's "3-D frames").
    fn encode_3d(&mut self, scene: &dyn LiveScene, info: FrameInfo) -> Vec<u8> {
        let sim = scene.simulator3d();
        let positions = sim.map_or(&[][..], |s| s.positions());
        self.radii.clear();
        if let Some(sim) = sim {
            // Every id in agent_ids() names a live agent, so agent_params cannot fail.
            self.radii.extend(sim.agent_ids().iter().map(|id| sim.agent_params(*id).map_or(0.0, |p| p.radius)));
        }
        let (mut overlaps, mut deepest) = self.overlaps.count_and_deepest_3d(positions, &self.radii);
        let at_goal = count_at_goal_3d(positions, &self.radii, scene.goals3d());
        let world = scene.world3d();
        let spheres = world.map_or(&[][..], |w| w.spheres());
        self.sphere_positions.clear();
        self.radii.clear();
        if world.is_some() {
            self.sphere_positions.extend(spheres.iter().map(|s| s.position));
            self.radii.extend(spheres.iter().map(|s| s.radius));
        } else if let Some(sim) = sim {
            // A crowd's movers (spheres that avoid nothing) travel as the spheres of a world.
            self.sphere_positions.extend(sim.movers().iter().map(|m| m.position));
            self.radii.extend(sim.movers().iter().map(|m| m.radius));
        }
        let (sphere_overlaps, sphere_deepest) = self.overlaps.count_and_deepest_3d(&self.sphere_positions, &self.radii);
        overlaps += sphere_overlaps;
        deepest = deepest.max(sphere_deepest);
        let stats = world.map(|w| w.last_step_stats()).unwrap_or_default();
        let broad_phase = world.map_or(u32::MAX, |w| {
            swerve::physics3d::BroadPhaseKind::ALL.iter().position(|k| *k == w.broad_phase()).unwrap_or(0) as u32
        });
        let mut links: Vec<u32> = Vec::new();
        if let (Some(sim), true) = (sim, info.links) {
            let index_of = index_map_3d(sim);
            for (i, id) in sim.agent_ids().iter().enumerate() {
                if let Ok(neighbors) = sim.agent_neighbors(*id) {
                    links.extend(neighbors.filter_map(|n| index_of.get(&n.0)).flat_map(|&j| [i as u32, j]));
                }
            }
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + 12 * (positions.len() + spheres.len()) + 4 * links.len());
        let put = |out: &mut Vec<u8>, word: u32| out.extend_from_slice(&word.to_le_bytes());
        let flags = if info.playing { FLAG_PLAYING } else { 0 } | FLAG_3D;
        for word in [MAGIC, info.version, info.step] {
            put(&mut out, word);
        }
        put(&mut out, (scene.time() as f32).to_bits());
        put(&mut out, info.step_ms.to_bits());
        for word in [flags, positions.len() as u32, overlaps as u32, at_goal as u32, (links.len() / 2) as u32] {
            put(&mut out, word);
        }
        put(&mut out, deepest.to_bits());
        let (pairs, contacts) = (stats.candidate_pairs as u32, stats.contacts as u32);
        for word in [self.sphere_positions.len() as u32, pairs, contacts, 0, broad_phase] {
            put(&mut out, word);
        }
        for p in positions.iter().chain(&self.sphere_positions) {
            for v in [p.x, p.y, p.z] {
                put(&mut out, v.to_bits());
            }
        }
        for word in links {
            put(&mut out, word);
        }
        out
    }
}

/// Agent id → index in [`swerve::orca3d::Simulator::agent_ids`] order.
pub(crate) fn index_map_3d(sim: &swerve::orca3d::Simulator) -> std::collections::HashMap<u32, u32> {
    sim.agent_ids().iter().enumerate().map(|(i, id)| (id.0, i as u32)).collect()
}

/// Agent id → index in [`swerve::Simulator::agent_ids`] order.
pub(crate) fn index_map(sim: &swerve::Simulator) -> std::collections::HashMap<u32, u32> {
    sim.agent_ids().iter().enumerate().map(|(i, id)| (id.0, i as u32)).collect()
}

/// A decoded frame header (used by the tests and by tools reading a recorded stream).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameHeader {
    /// Scene version.
    pub version: u32,
    /// Steps since the last reset.
    pub step: u32,
    /// Simulated time since the last reset (s).
    pub time: f32,
    /// Wall-clock duration of the last step (ms).
    pub step_ms: f32,
    /// Whether the simulation was playing.
    pub playing: bool,
    /// Number of agents.
    pub agents: u32,
    /// Overlapping pairs.
    pub overlaps: u32,
    /// Agents at their goal.
    pub at_goal: u32,
    /// Number of neighbour links.
    pub links: u32,
    /// Deepest overlap between two discs of the same kind (m).
    pub deepest_overlap: f32,
    /// Number of balls.
    pub balls: u32,
    /// Broad-phase candidate pairs of the last step.
    pub candidate_pairs: u32,
    /// Contacts of the last step.
    pub contacts: u32,
    /// Number of broad-phase boxes.
    pub boxes: u32,
    /// Index of the broad phase in `BroadPhaseKind::ALL`, `u32::MAX` without balls.
    pub broad_phase: u32,
    /// Whether the ball angles follow the boxes (see [`decode_ball_angles`]).
    pub ball_angles: bool,
    /// Whether this is a 3-D frame (see [`decode_3d`]).
    pub three_d: bool,
}

/// Reads a frame's header and positions (agents, then balls); `None` if `bytes` is not a whole
/// frame.
pub fn decode(bytes: &[u8]) -> Option<(FrameHeader, Vec<swerve::Vec2>)> {
    let word = |i: usize| -> Option<u32> { Some(u32::from_le_bytes(bytes.get(4 * i..4 * i + 4)?.try_into().ok()?)) };
    let header = decode_header(bytes)?;
    let n = header.agents as usize;
    if header.three_d || bytes.len() != frame_length(&header) {
        return None;
    }
    let positions = (0..n + header.balls as usize)
        .map(|i| {
            let at = HEADER_BYTES / 4 + 2 * i;
            Some(swerve::Vec2::new(f32::from_bits(word(at)?), f32::from_bits(word(at + 1)?)))
        })
        .collect::<Option<Vec<_>>>()?;
    Some((header, positions))
}

/// The length in bytes of the frame `header` heads.
fn frame_length(header: &FrameHeader) -> usize {
    let (n, m) = (header.agents as usize, header.balls as usize);
    let angles = if header.ball_angles { 4 * m } else { 0 };
    HEADER_BYTES + 8 * (n + m) + 8 * header.links as usize + 20 * header.boxes as usize + angles
}

/// Reads a 3-D frame's header and positions (agents, then spheres); `None` if `bytes` is not a
/// whole 3-D frame.
pub fn decode_3d(bytes: &[u8]) -> Option<(FrameHeader, Vec<Vec3>)> {
    let header = decode_header(bytes)?;
    let bodies = header.agents as usize + header.balls as usize;
    if !header.three_d || bytes.len() != HEADER_BYTES + 12 * bodies + 8 * header.links as usize {
        return None;
    }
    let float = |i: usize| f32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]);
    let first = HEADER_BYTES / 4;
    Some((
        header,
        (0..bodies)
            .map(|k| Vec3::new(float(first + 3 * k), float(first + 3 * k + 1), float(first + 3 * k + 2)))
            .collect(),
    ))
}

/// Reads the header of a frame of either kind (2-D or 3-D); `None` if `bytes` is shorter than
/// a header or does not start with [`MAGIC`]. The lengths are not checked.
pub fn decode_header(bytes: &[u8]) -> Option<FrameHeader> {
    let word = |i: usize| -> Option<u32> { Some(u32::from_le_bytes(bytes.get(4 * i..4 * i + 4)?.try_into().ok()?)) };
    if word(0)? != MAGIC {
        return None;
    }
    Some(FrameHeader {
        version: word(1)?,
        step: word(2)?,
        time: f32::from_bits(word(3)?),
        step_ms: f32::from_bits(word(4)?),
        playing: word(5)? & FLAG_PLAYING != 0,
        agents: word(6)?,
        overlaps: word(7)?,
        at_goal: word(8)?,
        links: word(9)?,
        deepest_overlap: f32::from_bits(word(10)?),
        balls: word(11)?,
        candidate_pairs: word(12)?,
        contacts: word(13)?,
        boxes: word(14)?,
        broad_phase: word(15)?,
        ball_angles: word(5)? & FLAG_BALL_ANGLES != 0,
        three_d: word(5)? & FLAG_3D != 0,
    })
}

/// Reads a frame's ball angles: empty when the frame carries none (no ball has turned), `None`
/// if `bytes` is not a whole frame.
pub fn decode_ball_angles(bytes: &[u8]) -> Option<Vec<f32>> {
    let (header, _) = decode(bytes)?;
    if !header.ball_angles {
        return Some(Vec::new());
    }
    let from = frame_length(&header) - 4 * header.balls as usize;
    let angles = bytes[from..].chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    Some(angles.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_positions_bit_exact() {
        let mut scene = crate::scenes::obstacles().unwrap();
        for _ in 0..3 {
            scene.step();
        }
        let info = FrameInfo { version: 7, step: 3, step_ms: 1.5, playing: true, links: true, structure: true };
        let bytes = FrameEncoder::new().encode(&scene, info);
        assert_eq!(&bytes[..4], b"SWV1");
        let (header, positions) = decode(&bytes).unwrap();
        assert_eq!((header.version, header.step, header.playing), (7, 3, true));
        assert_eq!(header.agents as usize, scene.simulator().unwrap().num_agents());
        let expected = scene.simulator().unwrap().positions();
        assert!(positions
            .iter()
            .zip(expected)
            .all(|(a, b)| a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits()));
        let sim = scene.simulator().unwrap();
        let total_neighbors: usize = sim.agent_ids().iter().map(|id| sim.agent_neighbors(*id).unwrap().len()).sum();
        assert_eq!(header.links as usize, total_neighbors);
        assert!(decode(&bytes[..bytes.len() - 1]).is_none());
        assert_eq!((header.balls, header.boxes, header.broad_phase), (0, 0, u32::MAX));
    }

    #[test]
    fn ball_frames_carry_positions_stats_and_boxes() {
        let mut scene = crate::scenes::balls(1800).unwrap();
        for _ in 0..5 {
            scene.step();
        }
        let world = scene.world().unwrap();
        let info = FrameInfo { structure: true, ..FrameInfo::default() };
        let bytes = FrameEncoder::new().encode(&scene, info);
        let (header, positions) = decode(&bytes).unwrap();
        assert_eq!((header.agents, header.balls), (0, 1800));
        assert!(positions.iter().zip(world.balls()).all(|(p, b)| p.x.to_bits() == b.position.x.to_bits()));
        let stats = world.last_step_stats();
        assert_eq!(
            (header.candidate_pairs as usize, header.contacts as usize),
            (stats.candidate_pairs, stats.contacts)
        );
        assert!(header.candidate_pairs > 0);
        assert_eq!(header.boxes as usize, world.broad_phase_debug().box_count());
        assert!(header.boxes > 0);
        assert_eq!(BroadPhaseKind::ALL[header.broad_phase as usize], BroadPhaseKind::UniformGrid);
        let without = FrameEncoder::new().encode(&scene, FrameInfo::default());
        assert_eq!(decode(&without).unwrap().0.boxes, 0);
        // Frictionless balls never turn: no angles in the frame.
        assert!(!header.ball_angles);
        assert_eq!(decode_ball_angles(&bytes).unwrap(), Vec::<f32>::new());
    }

    #[test]
    fn frames_in_3d_carry_three_coordinates_and_never_parse_as_planar_ones() {
        let mut scene = crate::scenes::pit3d(300).unwrap();
        for _ in 0..10 {
            scene.step();
        }
        let info = FrameInfo { version: 2, step: 10, links: true, structure: true, ..FrameInfo::default() };
        let bytes = FrameEncoder::new().encode(&scene, info);
        let world = scene.world3d().unwrap();
        assert_eq!(bytes.len(), HEADER_BYTES + 12 * 300, "no links, boxes or angles for spheres");
        assert!(decode(&bytes).is_none() && decode_ball_angles(&bytes).is_none());
        let (header, positions) = decode_3d(&bytes).unwrap();
        assert!(header.three_d && !header.ball_angles);
        assert_eq!((header.agents, header.balls, header.boxes, header.step), (0, 300, 0, 10));
        let bits = |v: Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        assert!(positions.iter().zip(world.spheres()).all(|(p, s)| bits(*p) == bits(s.position)));
        let kinds = swerve::physics3d::BroadPhaseKind::ALL;
        assert_eq!(kinds[header.broad_phase as usize], world.broad_phase());
        let spheres: Vec<Vec3> = world.spheres().iter().map(|s| s.position).collect();
        let radii: Vec<f32> = world.spheres().iter().map(|s| s.radius).collect();
        let oracle = crate::metrics::count_overlaps_brute_force_3d(&spheres, &radii);
        assert_eq!((header.overlaps as usize, header.deepest_overlap), oracle);
        assert!(decode_3d(&bytes[..bytes.len() - 4]).is_none(), "a frame cut short is not a frame");
        // A planar frame is not a 3-D one.
        let planar = FrameEncoder::new().encode(&crate::scenes::obstacles().unwrap(), FrameInfo::default());
        assert!(decode_3d(&planar).is_none() && !decode_header(&planar).unwrap().three_d);
    }

    #[test]
    fn turning_balls_send_their_angles() {
        let scenario = swerve::scenario::Scenario::builtin("sandpile").unwrap();
        let mut scene = crate::scenario_scene::ScenarioScene::new(scenario).unwrap();
        for _ in 0..120 {
            scene.step();
        }
        let info = FrameInfo { structure: true, links: true, ..FrameInfo::default() };
        let bytes = FrameEncoder::new().encode(&scene, info);
        let (header, positions) = decode(&bytes).unwrap();
        assert!(header.ball_angles && header.boxes > 0);
        let balls = scene.world().unwrap().balls();
        assert_eq!(positions.len(), balls.len());
        let angles = decode_ball_angles(&bytes).unwrap();
        assert_eq!(angles.len(), balls.len());
        assert!(angles.iter().zip(balls).all(|(a, b)| a.to_bits() == b.angle.to_bits()));
        assert!(angles.iter().filter(|a| **a != 0.0).count() > 100, "the pouring balls turn");
        assert!(decode(&bytes[..bytes.len() - 4]).is_none(), "a frame cut short is not a frame");
    }
}
