//! Drawing 3-D runs (`swerve sphere`, `towers`, `pit3d`, and `swerve run` on a 3-D file): the
//! frames kept for the GIF, and a GIF seen from a camera that circles the scene once over the
//! run.

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{BufWriter, Write};
use std::path::Path;
use swerve::orca3d::{Mover, Vec3};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// The GIF flags of the 3-D commands (`swerve sphere`, `towers`, `pit3d`).
#[derive(clap::Args)]
pub struct GifArgs {
    /// At most this many frames in the GIF, evenly spaced, always the last.
    #[arg(long, default_value_t = 120)]
    pub gif_frames: usize,
    /// Width and height of the GIF in pixels.
    #[arg(long, default_value_t = 480)]
    pub size: u32,
    /// Skip the GIF.
    #[arg(long)]
    pub no_gif: bool,
}

impl GifArgs {
    /// At most how many frames to draw, `None` with `--no-gif`; checked before a run, which
    /// may take minutes, rather than after it.
    pub fn frames(&self) -> Result<Option<usize>> {
        if self.no_gif {
            return Ok(None);
        }
        crate::pit3d::check_gif_options(self.gif_frames, self.size)?;
        Ok(Some(self.gif_frames))
    }
}

/// The frames kept for the GIF: every `stride`-th step, the stride doubling (and every other
/// kept frame dropped) whenever more than twice the GIF's frames are kept, so that memory stays
/// bounded however long the run.
pub struct FrameKeeper {
    /// (step, positions), in step order.
    pub kept: Vec<(usize, Vec<Vec3>)>,
    stride: usize,
    /// The GIF's frame count (0: keep nothing).
    most: usize,
}

impl FrameKeeper {
    /// Keeps frames for a GIF of at most `most` frames (0: keeps none).
    pub fn new(most: usize) -> FrameKeeper {
        FrameKeeper { kept: Vec::new(), stride: 1, most }
    }

    /// Offers the positions after `step`.
    pub fn offer(&mut self, step: usize, positions: &[Vec3]) {
        if self.most == 0 || step % self.stride != 0 {
            return;
        }
        self.kept.push((step, positions.to_vec()));
        if self.kept.len() > 2 * self.most {
            self.stride *= 2;
            let stride = self.stride;
            self.kept.retain(|(s, _)| s % stride == 0);
        }
    }

    /// Keeps the last step, whatever the stride.
    pub fn finish(&mut self, step: usize, positions: &[Vec3]) {
        if self.most > 0 && self.kept.last().map_or(true, |(s, _)| *s != step) {
            self.kept.push((step, positions.to_vec()));
        }
    }
}

/// What a 3-D run's pictures show and from where, written as the run's `scene.json` so that
/// `swerve render` can draw the run again: the bodies' sizes and colours, the obstacles'
/// edges, and a camera circling `centre` about the z axis once over the run, 25° above the
/// horizontal, at `distance`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Scene3d {
    /// Always 3: what tells `swerve render` a 3-D run's `scene.json` from a planar one's.
    pub dimensions: u32,
    /// The scene's name (`sphere`, `towers`, `pit3d`, or the scenario's).
    pub name: String,
    /// Simulated seconds between trajectory frames.
    pub frame_time: f32,
    /// The point the camera looks at (m).
    pub centre: [f32; 3],
    /// The camera's distance from `centre` (m).
    pub distance: f32,
    /// The bodies of `trajectory.csv`, by its `id` column (a slot that never holds one has
    /// radius 0).
    pub bodies: Vec<Body3d>,
    /// The movers of `movers.csv`, by its `id` column (none without movers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<Body3d>,
    /// Line segments drawn behind the bodies: the obstacles' and walls' edges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<Edge3d>,
}

/// A body's look.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Body3d {
    /// Its radius (m).
    pub radius: f32,
    /// Its colour.
    pub colour: [u8; 3],
}

/// A line segment of the scene (an obstacle's edge).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Edge3d {
    /// One end (m).
    pub from: [f32; 3],
    /// The other end (m).
    pub to: [f32; 3],
    /// The first frame that no longer shows it (its obstacle was removed then); absent when
    /// every frame does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<usize>,
}

impl Edge3d {
    /// An edge that stays for the whole run.
    pub fn lasting((from, to): (Vec3, Vec3)) -> Edge3d {
        Edge3d { from: from.to_array(), to: to.to_array(), gone: None }
    }
}

impl Scene3d {
    /// A scene named `name` whose frames are `frame_time` apart, seen from `distance` away
    /// from `centre`; bodies, movers and edges to be filled in.
    pub fn new(name: &str, frame_time: f32, centre: Vec3, distance: f32) -> Scene3d {
        Scene3d {
            dimensions: 3,
            name: name.to_string(),
            frame_time,
            centre: centre.to_array(),
            distance,
            bodies: Vec::new(),
            movers: Vec::new(),
            edges: Vec::new(),
        }
    }

    /// Every body's look in a frame's order: `trajectory.csv`'s bodies, then the movers.
    pub fn looks(&self) -> impl Iterator<Item = &Body3d> {
        self.bodies.iter().chain(&self.movers)
    }

    /// Why this scene cannot be drawn, if it cannot: a `scene.json` is read from a file,
    /// which may have been edited.
    pub fn check(&self) -> Result<()> {
        anyhow::ensure!(self.dimensions == 3, "dimensions: {} (a 3-D run's scene has 3)", self.dimensions);
        let finite = |p: [f32; 3]| p.iter().all(|c| c.is_finite());
        anyhow::ensure!(finite(self.centre), "centre: {:?} is not a finite point", self.centre);
        anyhow::ensure!(
            self.distance.is_finite() && self.distance > 0.0,
            "distance: {} (the camera's distance must be a positive number of metres)",
            self.distance
        );
        for (list, bodies) in [("bodies", &self.bodies), ("movers", &self.movers)] {
            if let Some(k) = bodies.iter().position(|b| !(b.radius.is_finite() && b.radius >= 0.0)) {
                bail!("{list}[{k}].radius: {} (must be a finite number of metres, at least 0)", bodies[k].radius);
            }
        }
        if let Some(k) = self.edges.iter().position(|e| !(finite(e.from) && finite(e.to))) {
            bail!("edges[{k}]: an end is not a finite point");
        }
        Ok(())
    }

    /// Writes the scene as `scene.json` into `folder`.
    pub fn write(&self, folder: &Path) -> Result<()> {
        let path = folder.join("scene.json");
        let mut f =
            BufWriter::new(std::fs::File::create(&path).with_context(|| format!("cannot create {}", path.display()))?);
        // Compact: a body is a line of its own when pretty, and a run may have a million.
        serde_json::to_writer(&mut f, self).context("writing scene.json")?;
        writeln!(f).and_then(|()| f.flush()).context("writing scene.json")
    }
}

/// Writes the kept frames (each body's position in [`Scene3d::looks`]' order) as a GIF of at
/// most `max` frames, `size` pixels square; `steps` is the run's last step, where the camera
/// has circled once. Bodies are drawn far to near and dimmed with depth.
pub fn write_gif(
    path: &Path,
    frames: &[(usize, Vec<Vec3>)],
    steps: usize,
    scene: &Scene3d,
    max: usize,
    size: u32,
) -> Result<()> {
    let count = frames.len();
    let chosen: Vec<usize> = if count <= max {
        (0..count).collect()
    } else {
        (0..max).map(|k| k * (count - 1) / (max - 1).max(1)).collect()
    };
    let images: Vec<Vec<u8>> = chosen
        .par_iter()
        .map(|&k| {
            let (step, positions) = &frames[k];
            draw(*step, positions, turn(*step, steps), scene, size).map(|pixmap| pixmap.data().to_vec())
        })
        .collect::<Result<_>>()?;
    let file =
        BufWriter::new(std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?);
    let side = size as u16;
    let mut encoder = gif::Encoder::new(file, side, side, &[]).context("GIF header")?;
    encoder.set_repeat(gif::Repeat::Infinite).context("GIF header")?;
    let delay = (1000 / chosen.len().max(1)).clamp(3, 10) as u16;
    let frames: Vec<gif::Frame> = images
        .into_par_iter()
        .map(|mut rgba| {
            let mut frame = gif::Frame::from_rgba_speed(side, side, &mut rgba, 10);
            frame.delay = delay;
            frame
        })
        .collect();
    for frame in frames {
        encoder.write_frame(&frame).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The camera after `step` of a run of `steps`: it circles once over the run.
pub fn turn(step: usize, steps: usize) -> f32 {
    std::f32::consts::TAU * step as f32 / steps.max(1) as f32
}

/// The camera's view of a point from `turn` radians about the scene: (depth, screen x, screen
/// y, pixels per metre), or `None` behind the camera (or for a NaN point: a body not there).
pub fn project(p: Vec3, scene: &Scene3d, turn: f32, size: u32) -> Option<(f32, f32, f32, f32)> {
    // A scene of radius `distance / 3.2` fills about four fifths of the frame.
    let focal = size as f32 * 1.25;
    let (sin_t, cos_t) = turn.sin_cos();
    let (sin_e, cos_e) = 25f32.to_radians().sin_cos();
    let p = p - Vec3::from(scene.centre);
    let x = cos_t * p.x + sin_t * p.y;
    let y = -sin_t * p.x + cos_t * p.y;
    // Depth along the view direction and height on screen after the tilt.
    let depth = scene.distance + cos_e * y - sin_e * p.z;
    let up = sin_e * y + cos_e * p.z;
    (depth > 1e-3 * scene.distance).then(|| {
        let s = focal / depth;
        (depth, size as f32 / 2.0 + x * s, size as f32 / 2.0 - up * s, s)
    })
}

/// A body's colour faded toward the background with its depth: near bodies stand out.
pub fn faded(colour: [u8; 3], depth: f32, distance: f32) -> [u8; 3] {
    let (near, far) = (distance * (1.0 - 1.0 / 3.2), distance * (1.0 + 1.0 / 3.2));
    let fade = ((depth - near) / (far - near)).clamp(0.0, 1.0) * 0.55;
    colour.map(|c| (f32::from(c) + (247.0 - f32::from(c)) * fade) as u8)
}

/// The background of a 3-D picture.
pub const BACKGROUND: [u8; 3] = [250, 250, 247];
/// The colour of an edge.
pub const EDGE: [u8; 3] = [170, 170, 165];

/// The frame after `step` (`positions` in [`Scene3d::looks`]' order) seen from `turn`
/// radians about the scene.
pub fn draw(step: usize, positions: &[Vec3], turn: f32, scene: &Scene3d, size: u32) -> Result<Pixmap> {
    let mut pixmap = Pixmap::new(size, size).context("frame size")?;
    pixmap.fill(Color::from_rgba8(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 255));
    let mut line = Paint::default();
    line.set_color(Color::from_rgba8(EDGE[0], EDGE[1], EDGE[2], 255));
    line.anti_alias = true;
    for edge in &scene.edges {
        if edge.gone.is_some_and(|gone| step >= gone) {
            continue;
        }
        let ends = (project(edge.from.into(), scene, turn, size), project(edge.to.into(), scene, turn, size));
        if let (Some(pa), Some(pb)) = ends {
            let mut path = PathBuilder::new();
            path.move_to(pa.1, pa.2);
            path.line_to(pb.1, pb.2);
            if let Some(path) = path.finish() {
                pixmap.stroke_path(&path, &line, &Stroke::default(), Transform::identity(), None);
            }
        }
    }
    let mut projected: Vec<(f32, f32, f32, f32, &Body3d)> = positions
        .iter()
        .zip(scene.looks())
        .filter_map(|(&p, body)| project(p, scene, turn, size).map(|(d, x, y, s)| (d, x, y, body.radius * s, body)))
        .collect();
    projected.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    for (depth, x, y, r, body) in projected {
        let c = faded(body.colour, depth, scene.distance);
        let mut paint = Paint::default();
        paint.set_color(Color::from_rgba8(c[0], c[1], c[2], 255));
        paint.anti_alias = true;
        if let Some(circle) = PathBuilder::from_circle(x, y, r.max(0.75)) {
            pixmap.fill_path(&circle, &paint, FillRule::Winding, Transform::identity(), None);
        }
    }
    Ok(pixmap)
}

/// `movers.csv`: the movers' trajectory beside the agents' (`frame,id,x,y,z,vx,vy,vz`, `id`
/// the mover's place in [`Scene3d::movers`]), written only by runs that have movers.
pub struct MoverTrack {
    out: Option<BufWriter<std::fs::File>>,
}

impl MoverTrack {
    /// Creates `movers.csv` in `folder` when `any` (a run with movers), else writes nothing.
    pub fn create(folder: &Path, any: bool) -> Result<MoverTrack> {
        if !any {
            return Ok(MoverTrack { out: None });
        }
        let path = folder.join("movers.csv");
        let file = std::fs::File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
        let mut out = BufWriter::new(file);
        writeln!(out, "frame,id,x,y,z,vx,vy,vz").context("writing movers.csv")?;
        Ok(MoverTrack { out: Some(out) })
    }

    /// Writes the movers after `frame`.
    pub fn write(&mut self, frame: usize, movers: impl Iterator<Item = Mover>) -> Result<()> {
        if let Some(out) = &mut self.out {
            for (id, m) in movers.enumerate() {
                let (p, v) = (m.position, m.velocity);
                writeln!(out, "{frame},{id},{},{},{},{},{},{}", p.x, p.y, p.z, v.x, v.y, v.z)
                    .context("writing movers.csv")?;
            }
        }
        Ok(())
    }

    /// Flushes the file; `true` when there is one (for the list of files written).
    pub fn finish(&mut self) -> Result<bool> {
        match &mut self.out {
            Some(out) => out.flush().context("writing movers.csv").map(|()| true),
            None => Ok(false),
        }
    }
}

/// A colour for a body that started at `unit` (a point of the unit sphere, or of the cube
/// `[−1, 1]³`): hue by the angle about z, darker toward −z.
pub fn start_colour(unit: Vec3) -> [u8; 3] {
    let hue = (unit.y.atan2(unit.x) / std::f32::consts::TAU + 1.0).fract() * 6.0;
    let light = 0.45 + 0.25 * unit.z.clamp(-1.0, 1.0);
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    [r, g, b].map(|c| (255.0 * (c * 0.8 * light + 0.15)).clamp(0.0, 255.0) as u8)
}

/// The twelve edges of the box `[min, max]`.
pub fn box_edges(min: Vec3, max: Vec3) -> Vec<(Vec3, Vec3)> {
    let corner = |k: usize| {
        Vec3::new(
            if k & 1 == 0 { min.x } else { max.x },
            if k & 2 == 0 { min.y } else { max.y },
            if k & 4 == 0 { min.z } else { max.z },
        )
    };
    let mut edges = Vec::with_capacity(12);
    for k in 0..8 {
        for bit in [1, 2, 4] {
            if k & bit == 0 {
                edges.push((corner(k), corner(k | bit)));
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels that differ from the background.
    fn drawn(pixels: &[u8]) -> usize {
        pixels.chunks(4).filter(|p| p[..3] != BACKGROUND).count()
    }

    #[test]
    fn an_edge_is_drawn_only_before_its_step() {
        let mut scene = Scene3d::new("edges", 0.1, Vec3::ZERO, 6.0);
        scene.edges = vec![
            Edge3d { gone: Some(5), ..Edge3d::lasting((Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0))) },
            Edge3d::lasting((Vec3::ZERO, Vec3::Z)),
        ];
        let pixels = |step: usize, scene: &Scene3d| drawn(draw(step, &[], 0.0, scene, 64).unwrap().data());
        let (both, one) = (pixels(4, &scene), pixels(5, &scene));
        assert!(one > 0, "the edge that stays is drawn");
        assert!(both > one + 20, "the edge along x is drawn before step 5 ({both} pixels) and not from it ({one})");
        scene.edges[0].gone = None;
        assert_eq!(pixels(5, &scene), both, "without removals every edge stays");
    }
}
