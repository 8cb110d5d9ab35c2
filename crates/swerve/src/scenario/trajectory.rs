//! Trajectory files: the CSV the CLI writes and reads back (`frame,id,x,y,vx,vy`), PedPy's
//! plain-text format (whitespace-separated `ID frame X Y Z` with `# framerate:` and unit
//! comments, read by `pedpy.load_trajectory_from_txt`), and `scene.json`, the static part of
//! a run (obstacles, radii, groups, goals) that rendering needs besides positions.

use crate::scenario::{ObstacleRemoval, Runner};
use crate::{Error, Vec2};
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::Path;

/// The CSV header.
pub const CSV_HEADER: &str = "frame,id,x,y,vx,vy";

/// One disc in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Frame number (0 = initial state; frame k is after k steps).
    pub frame: u32,
    /// Agent (or ball) id.
    pub id: u32,
    /// Position (m).
    pub position: Vec2,
    /// Velocity (m/s).
    pub velocity: Vec2,
}

/// A recorded run: samples ordered by frame, then by the order they were recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectory {
    /// All samples.
    pub samples: Vec<Sample>,
}

impl Trajectory {
    /// Appends one frame.
    pub fn record(&mut self, frame: u32, ids: impl IntoIterator<Item = u32>, positions: &[Vec2], velocities: &[Vec2]) {
        for ((id, p), v) in ids.into_iter().zip(positions).zip(velocities) {
            self.samples.push(Sample { frame, id, position: *p, velocity: *v });
        }
    }

    /// The frames, each a slice of consecutive samples with the same frame number.
    pub fn frames(&self) -> impl Iterator<Item = &[Sample]> {
        self.samples.chunk_by(|a, b| a.frame == b.frame)
    }

    /// Number of distinct frames.
    pub fn frame_count(&self) -> usize {
        self.frames().count()
    }

    /// Writes the CSV (`frame,id,x,y,vx,vy`; numbers printed so they parse back to the same
    /// `f32`).
    pub fn write_csv(&self, mut out: impl Write) -> io::Result<()> {
        writeln!(out, "{CSV_HEADER}")?;
        for s in &self.samples {
            writeln!(out, "{},{},{},{},{},{}", s.frame, s.id, s.position.x, s.position.y, s.velocity.x, s.velocity.y)?;
        }
        Ok(())
    }

    /// Writes PedPy's text format: `ID frame X Y Z` in metres, Z = 0, with the frame rate
    /// (frames per second, `1 / time_step` when every step is a frame) in a comment.
    pub fn write_pedpy(&self, mut out: impl Write, name: &str, frame_rate: f32) -> io::Result<()> {
        // PedPy reads the first number on a comment line containing "framerate" and the unit
        // from "x/m"; the description line avoids both.
        writeln!(out, "# swerve run of scenario {}", name.replace(['\n', '\r'], " "))?;
        writeln!(out, "# framerate: {frame_rate}")?;
        writeln!(out, "# ID frame x/m y/m z/m")?;
        for s in &self.samples {
            writeln!(out, "{}\t{}\t{:.6}\t{:.6}\t0", s.id, s.frame, s.position.x, s.position.y)?;
        }
        Ok(())
    }

    /// Reads the CSV written by [`Trajectory::write_csv`]; `path` names the file in errors.
    pub fn read_csv(text: &str, path: &Path) -> Result<Trajectory, Error> {
        let parse_error = |line: usize, message: String| Error::Parse { path: path.to_path_buf(), line, message };
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, header)) if header.trim() == CSV_HEADER => {}
            _ => return Err(parse_error(1, format!("expected the header `{CSV_HEADER}`"))),
        }
        let mut samples = Vec::new();
        for (index, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != 6 {
                return Err(parse_error(index + 1, format!("expected 6 fields, found {}", fields.len())));
            }
            let int = |k: usize, name: &str| {
                fields[k]
                    .parse::<u32>()
                    .map_err(|_| parse_error(index + 1, format!("{name} `{}` is not an integer", fields[k])))
            };
            let num = |k: usize, name: &str| {
                fields[k]
                    .parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| parse_error(index + 1, format!("{name} `{}` is not a finite number", fields[k])))
            };
            let sample = Sample {
                frame: int(0, "frame")?,
                id: int(1, "id")?,
                position: Vec2::new(num(2, "x")?, num(3, "y")?),
                velocity: Vec2::new(num(4, "vx")?, num(5, "vy")?),
            };
            if samples.last().is_some_and(|last: &Sample| last.frame > sample.frame) {
                return Err(parse_error(index + 1, "frames must not decrease".into()));
            }
            samples.push(sample);
        }
        Ok(Trajectory { samples })
    }
}

/// One agent of a scene description.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneAgent {
    /// Agent id.
    pub id: u32,
    /// Group index.
    pub group: u32,
    /// Radius (m).
    pub radius: f32,
    /// Goal.
    pub goal: [f32; 2],
}

/// One ball (or mover) of a scene description: its index and radius.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneBall {
    /// Ball (or mover) index.
    pub id: u32,
    /// Radius (m).
    pub radius: f32,
}

/// The static part of a run: what a renderer needs besides the trajectory (`scene.json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SceneInfo {
    /// Scenario name.
    pub name: String,
    /// Simulated seconds per trajectory frame.
    pub frame_time: f32,
    /// Obstacle polygons.
    pub obstacles: Vec<Vec<[f32; 2]>>,
    /// Group names.
    pub groups: Vec<String>,
    /// Every agent that appeared, by id.
    pub agents: Vec<SceneAgent>,
    /// Balls (positions in `balls.csv`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub balls: Vec<SceneBall>,
    /// The scenario's movers (positions in `movers.csv`), by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<SceneBall>,
    /// Box of the ball world, when bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<[[f32; 2]; 2]>,
    /// Roadmap vertices, when navigating by roadmap.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roadmap_vertices: Vec<[f32; 2]>,
    /// Roadmap edges as vertex index pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roadmap_edges: Vec<[u32; 2]>,
    /// The first this many roadmap vertices are goals.
    #[serde(default)]
    pub roadmap_goal_count: u32,
    /// Obstacles the run removed (`remove_at` in the scenario), each with the first frame
    /// drawn without it: obstacle `obstacle` exists in frames `0..frame`. Empty (and absent
    /// from the file) when every obstacle stayed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacle_removals: Vec<ObstacleRemoval>,
}

impl SceneInfo {
    /// The scene of a runner (call at the end of the run so that spawned agents are listed).
    pub fn of_runner(runner: &Runner, frame_time: f32) -> SceneInfo {
        let scenario = runner.scenario();
        let mut agents = Vec::new();
        let mut id = 0u32;
        while let (Some(goal), Some(group), Some(radius)) =
            (runner.goal(crate::AgentId(id)), runner.group(crate::AgentId(id)), runner.radius(crate::AgentId(id)))
        {
            agents.push(SceneAgent { id, group, radius, goal: goal.to_array() });
            id += 1;
        }
        let (roadmap_vertices, roadmap_edges) = match runner.roadmap() {
            Some(r) => (
                r.vertices().iter().map(|v| v.to_array()).collect(),
                r.edges().map(|(a, b)| [a as u32, b as u32]).collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        SceneInfo {
            name: scenario.name.clone(),
            frame_time,
            obstacles: scenario.obstacles.iter().map(|o| o.vertices.clone()).collect(),
            groups: runner.groups().to_vec(),
            agents,
            balls: runner
                .initial_balls()
                .iter()
                .enumerate()
                .map(|(i, b)| SceneBall { id: i as u32, radius: b.radius })
                .collect(),
            movers: runner.movers().enumerate().map(|(i, m)| SceneBall { id: i as u32, radius: m.radius }).collect(),
            bounds: scenario.balls.as_ref().and_then(|b| b.bounds).map(|b| [b.min, b.max]),
            roadmap_vertices,
            roadmap_edges,
            roadmap_goal_count: runner.roadmap().map_or(0, |r| r.goal_count() as u32),
            obstacle_removals: runner.obstacle_removals().to_vec(),
        }
    }

    /// Whether obstacle `index` (of [`SceneInfo::obstacles`]) exists in frame `frame`: it
    /// was never removed, or the removal came after that frame.
    pub fn obstacle_exists(&self, index: usize, frame: usize) -> bool {
        self.obstacle_removals.iter().all(|r| r.obstacle != index || frame < r.frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trips_exact_bits() {
        let mut t = Trajectory::default();
        // Values whose shortest decimal form needs all of f32's digits.
        let p = [Vec2::new(0.1, -1.0 / 3.0), Vec2::new(f32::from_bits(1128787925), f32::from_bits(1084282151))];
        let v = [Vec2::new(1e-7, 2.5), Vec2::new(-f32::MIN_POSITIVE, f32::EPSILON * 3.0)];
        t.record(0, [3, 7], &p, &v);
        t.record(1, [3, 7], &v, &p);
        let mut text = Vec::new();
        t.write_csv(&mut text).unwrap();
        let back = Trajectory::read_csv(std::str::from_utf8(&text).unwrap(), Path::new("t.csv")).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.frame_count(), 2);
    }

    #[test]
    fn malformed_csv_names_the_line() {
        let err =
            Trajectory::read_csv("frame,id,x,y,vx,vy\n0,1,2,3,4,5\n0,1,x,3,4,5\n", Path::new("t.csv")).unwrap_err();
        assert!(err.to_string().starts_with("t.csv:3: x `x`"), "{err}");
        let err = Trajectory::read_csv("a,b\n", Path::new("t.csv")).unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
    }
}
