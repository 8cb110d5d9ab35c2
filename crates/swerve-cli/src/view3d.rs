//! Drawing 3-D runs (`swerve sphere`, `towers`, `pit3d`, and `swerve run` on a 3-D file): the
//! frames kept for the GIF, and a GIF seen from a camera that circles the scene once over the
//! run.

use anyhow::{Context, Result};
use rayon::prelude::*;
use std::io::BufWriter;
use std::path::Path;
use swerve::orca3d::Vec3;
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

/// What a GIF shows and from where: a camera circling `centre` about the z axis once over the
/// run, 25° above the horizontal, at `distance`.
pub struct Orbit<'a> {
    /// The point the camera looks at (m).
    pub centre: Vec3,
    /// The camera's distance from `centre` (m).
    pub distance: f32,
    /// Each body's radius (m), in the frames' order.
    pub radii: &'a [f32],
    /// Each body's colour, in the frames' order.
    pub colours: &'a [[u8; 3]],
    /// Line segments drawn behind the bodies (a box's edges), in scene coordinates.
    pub edges: &'a [(Vec3, Vec3)],
    /// For each of `edges`, the first step whose frame no longer shows it (an obstacle the
    /// run removes); `None`, or an edge past this list's end, is drawn in every frame.
    pub edges_gone: &'a [Option<usize>],
}

/// Writes the kept frames as a GIF of at most `max` frames, `size` pixels square. Bodies are
/// drawn far to near and dimmed with depth.
pub fn write_gif(
    path: &Path,
    frames: &[(usize, Vec<Vec3>)],
    steps: usize,
    orbit: &Orbit,
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
            let turn = std::f32::consts::TAU * *step as f32 / steps.max(1) as f32;
            draw(*step, positions, orbit, turn, size)
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

/// The camera's view of a point: (depth, screen x, screen y, pixels per metre), or `None`
/// behind the camera.
fn project(p: Vec3, orbit: &Orbit, turn: f32, size: u32) -> Option<(f32, f32, f32, f32)> {
    // A scene of radius `distance / 3.2` fills about four fifths of the frame.
    let focal = size as f32 * 1.25;
    let (sin_t, cos_t) = turn.sin_cos();
    let (sin_e, cos_e) = 25f32.to_radians().sin_cos();
    let p = p - orbit.centre;
    let x = cos_t * p.x + sin_t * p.y;
    let y = -sin_t * p.x + cos_t * p.y;
    // Depth along the view direction and height on screen after the tilt.
    let depth = orbit.distance + cos_e * y - sin_e * p.z;
    let up = sin_e * y + cos_e * p.z;
    (depth > 1e-3 * orbit.distance).then(|| {
        let s = focal / depth;
        (depth, size as f32 / 2.0 + x * s, size as f32 / 2.0 - up * s, s)
    })
}

/// The RGBA pixels of the frame after `step`.
fn draw(step: usize, positions: &[Vec3], orbit: &Orbit, turn: f32, size: u32) -> Result<Vec<u8>> {
    let mut pixmap = Pixmap::new(size, size).context("frame size")?;
    pixmap.fill(Color::from_rgba8(250, 250, 247, 255));
    let mut line = Paint::default();
    line.set_color(Color::from_rgba8(170, 170, 165, 255));
    line.anti_alias = true;
    for (k, &(a, b)) in orbit.edges.iter().enumerate() {
        if orbit.edges_gone.get(k).copied().flatten().is_some_and(|gone| step >= gone) {
            continue;
        }
        if let (Some(pa), Some(pb)) = (project(a, orbit, turn, size), project(b, orbit, turn, size)) {
            let mut path = PathBuilder::new();
            path.move_to(pa.1, pa.2);
            path.line_to(pb.1, pb.2);
            if let Some(path) = path.finish() {
                pixmap.stroke_path(&path, &line, &Stroke::default(), Transform::identity(), None);
            }
        }
    }
    let mut projected: Vec<(f32, f32, f32, f32, usize)> = positions
        .iter()
        .enumerate()
        .filter_map(|(i, &p)| project(p, orbit, turn, size).map(|(d, x, y, s)| (d, x, y, orbit.radii[i] * s, i)))
        .collect();
    projected.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let (near, far) = (orbit.distance * (1.0 - 1.0 / 3.2), orbit.distance * (1.0 + 1.0 / 3.2));
    for (depth, x, y, r, i) in projected {
        let fade = ((depth - near) / (far - near)).clamp(0.0, 1.0) * 0.55;
        let c = orbit.colours[i].map(|c| (f32::from(c) + (247.0 - f32::from(c)) * fade) as u8);
        let mut paint = Paint::default();
        paint.set_color(Color::from_rgba8(c[0], c[1], c[2], 255));
        paint.anti_alias = true;
        if let Some(circle) = PathBuilder::from_circle(x, y, r.max(0.75)) {
            pixmap.fill_path(&circle, &paint, FillRule::Winding, Transform::identity(), None);
        }
    }
    Ok(pixmap.data().to_vec())
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
        pixels.chunks(4).filter(|p| p[..3] != [250, 250, 247]).count()
    }

    #[test]
    fn an_edge_is_drawn_only_before_its_step() {
        let edges = [(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)), (Vec3::ZERO, Vec3::Z)];
        let gone = [Some(5)];
        let orbit =
            Orbit { centre: Vec3::ZERO, distance: 6.0, radii: &[], colours: &[], edges: &edges, edges_gone: &gone };
        let both = drawn(&draw(4, &[], &orbit, 0.0, 64).unwrap());
        let one = drawn(&draw(5, &[], &orbit, 0.0, 64).unwrap());
        assert!(one > 0, "the edge that stays is drawn");
        assert!(both > one + 20, "the edge along x is drawn before step 5 ({both} pixels) and not from it ({one})");
        let stays = Orbit { edges_gone: &[], ..orbit };
        assert_eq!(drawn(&draw(5, &[], &stays, 0.0, 64).unwrap()), both, "without removals every edge stays");
    }
}
