//! Drawing runs: animated GIF and PNG frames with tiny-skia, and a static SVG of the paths.
//! Agents are coloured by group, obstacles filled (boundaries outlined), goals marked with a
//! cross, balls coloured by speed, and a bar at the bottom shows elapsed time. An obstacle the
//! run removed (`scene.json`'s `obstacle_removals`) is drawn only in the frames before its
//! removal; the static SVG draws it dashed and unfilled.

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use swerve::geom::Winding;
use swerve::scenario::trajectory::{Sample, SceneInfo, Trajectory};
use swerve::Vec2;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// What to draw and how big.
pub struct RenderOptions {
    /// At most this many frames (evenly skipped; with 1, only the last frame). Check it with
    /// [`check_max_frames`] first: 0 would draw nothing.
    pub max_frames: usize,
    /// Pixels of the longer side.
    pub size: u32,
}

/// What `swerve render` writes.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum RenderFormat {
    /// Animated GIF.
    Gif,
    /// One static SVG with every agent's path.
    Svg,
    /// A folder of PNG frames.
    Png,
}

/// Arguments of `swerve render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// A run's output folder (`swerve run`, `sphere`, `towers`, `pit3d`) or its
    /// trajectory.csv; `scene.json` must be beside it.
    pub(crate) input: PathBuf,
    /// Output format (a 3-D run's SVG shows the paths as the camera sees them at the start).
    #[arg(long, value_enum, default_value_t = RenderFormat::Gif)]
    pub(crate) format: RenderFormat,
    /// Output file (GIF, SVG) or folder (PNG); default next to the input.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// At most this many frames, evenly spaced, always the last (at least 1; with 1, only the
    /// last frame).
    #[arg(long, default_value_t = 150)]
    pub(crate) max_frames: usize,
    /// Pixels of the longer side (a 3-D run's pictures are square, 16 to 4096).
    #[arg(long, default_value_t = 480)]
    pub(crate) size: u32,
}

const BACKGROUND: [u8; 3] = [250, 250, 250];
const OBSTACLE: [u8; 3] = [88, 88, 96];
const FAINT: [u8; 3] = [200, 200, 205];
const BAR: [u8; 3] = [60, 60, 60];
const BALL: [u8; 3] = [105, 120, 140];
/// Movers (a scenario's `[[movers]]`: discs the agents avoid, that avoid nothing).
const MOVER: [u8; 3] = [140, 140, 140];
/// Balls are coloured by speed, slow (blue-grey) to fast (red), relative to the fastest ball
/// at the start: elastic collisions visibly hand energy around.
const BALL_RAMP: [[u8; 3]; 6] =
    [[105, 120, 140], [90, 140, 190], [120, 170, 120], [220, 180, 60], [230, 120, 50], [200, 40, 40]];
/// Group colours (Tableau 10 and two more), cycled when there are more groups.
const GROUP_COLORS: [[u8; 3]; 12] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [188, 189, 34],
    [23, 190, 207],
    [127, 127, 127],
    [0, 0, 128],
    [128, 64, 0],
];

/// Group `group`'s colour, in these drawings and in a 3-D crowd's GIF (`crate::crowd3d`).
pub(crate) fn group_color(group: u32) -> [u8; 3] {
    GROUP_COLORS[group as usize % GROUP_COLORS.len()]
}

fn paint(rgb: [u8; 3]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(rgb[0], rgb[1], rgb[2], 255));
    paint.anti_alias = true;
    paint
}

/// World → pixel mapping (y up in the world, down in the image).
struct View {
    min: Vec2,
    max_y: f32,
    scale: f32,
    width: u32,
    height: u32,
}

impl View {
    fn new(scene: &SceneInfo, tracks: &Tracks, size: u32) -> View {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        let mut grow = |p: Vec2, r: f32| {
            lo = lo.min(p - Vec2::splat(r));
            hi = hi.max(p + Vec2::splat(r));
        };
        let radius: HashMap<u32, f32> = scene.agents.iter().map(|a| (a.id, a.radius)).collect();
        for s in &tracks.agents.samples {
            grow(s.position, radius.get(&s.id).copied().unwrap_or(0.0));
        }
        for s in &tracks.balls.samples {
            grow(s.position, scene.balls.get(s.id as usize).map_or(0.0, |b| b.radius));
        }
        for s in &tracks.movers.samples {
            grow(s.position, scene.movers.get(s.id as usize).map_or(0.0, |m| m.radius));
        }
        for a in &scene.agents {
            grow(Vec2::from(a.goal), 0.0);
        }
        for p in scene.obstacles.iter().flatten() {
            grow(Vec2::from(*p), 0.0);
        }
        if let Some([min, max]) = scene.bounds {
            grow(Vec2::from(min), 0.0);
            grow(Vec2::from(max), 0.0);
        }
        if !lo.is_finite() || !hi.is_finite() {
            lo = Vec2::splat(-1.0);
            hi = Vec2::splat(1.0);
        }
        let pad = ((hi - lo).max_element() * 0.03).max(0.5);
        lo -= Vec2::splat(pad);
        hi += Vec2::splat(pad);
        let extent = hi - lo;
        let scale = size as f32 / extent.max_element();
        View {
            min: lo,
            max_y: hi.y,
            scale,
            width: ((extent.x * scale).ceil() as u32).max(16),
            height: ((extent.y * scale).ceil() as u32).max(16),
        }
    }

    fn px(&self, p: Vec2) -> (f32, f32) {
        ((p.x - self.min.x) * self.scale, (self.max_y - p.y) * self.scale)
    }
}

/// A trajectory's frames by frame number (a frame with no discs is empty). Kept as the list
/// of frames present rather than a table indexed by number: the numbers come from a file,
/// and a stray frame 4,000,000,000 sized a 64 GB table.
struct FrameIndex<'t> {
    /// The frames present, in increasing frame number (the loader refuses decreasing ones).
    frames: Vec<&'t [Sample]>,
}

impl<'t> FrameIndex<'t> {
    fn new(t: &'t Trajectory) -> FrameIndex<'t> {
        FrameIndex { frames: t.frames().collect() }
    }

    /// The discs of frame `k` (none if the file has no row for it).
    fn get(&self, k: usize) -> &'t [Sample] {
        self.frames.binary_search_by_key(&k, |f| f[0].frame as usize).map_or(&[], |i| self.frames[i])
    }

    /// One past the last frame number.
    fn len(&self) -> usize {
        self.frames.last().map_or(0, |f| f[0].frame as usize + 1)
    }
}

/// Rejects a frame limit that would draw nothing; `flag` names the option in the message.
pub fn check_max_frames(flag: &str, max_frames: usize) -> Result<()> {
    anyhow::ensure!(max_frames >= 1, "{flag}: must be at least 1 (with 1, only the last frame is drawn)");
    Ok(())
}

/// The frame numbers to draw: at most `max_frames`, evenly spaced, always the last. With one
/// frame allowed that is the last, which shows where the run ended (and a full time bar).
pub(crate) fn chosen_frames(total: usize, max_frames: usize) -> Vec<usize> {
    if total == 0 || max_frames == 0 {
        return Vec::new();
    }
    if max_frames == 1 {
        return vec![total - 1];
    }
    // Every stride-th frame from 0 gives at most max_frames - 1; the last makes max_frames.
    let stride = total.div_ceil(max_frames - 1).max(1);
    let mut frames: Vec<usize> = (0..total).step_by(stride).collect();
    if frames.last() != Some(&(total - 1)) {
        frames.push(total - 1);
    }
    frames
}

struct Drawer<'a> {
    scene: &'a SceneInfo,
    view: View,
    radius: HashMap<u32, (f32, u32)>,
    background: Pixmap,
}

impl<'a> Drawer<'a> {
    fn new(scene: &'a SceneInfo, view: View) -> Result<Drawer<'a>> {
        let mut background = Pixmap::new(view.width, view.height).context("image size")?;
        background.fill(Color::from_rgba8(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 255));
        let radius = scene.agents.iter().map(|a| (a.id, (a.radius, colour_index(scene, a.id, a.group)))).collect();
        let mut drawer = Drawer { scene, view, radius, background };
        drawer.draw_static();
        Ok(drawer)
    }

    fn polygon_path(&self, vertices: &[[f32; 2]], close: bool) -> Option<tiny_skia::Path> {
        let mut pb = PathBuilder::new();
        for (i, v) in vertices.iter().enumerate() {
            let (x, y) = self.view.px(Vec2::from(*v));
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if close {
            pb.close();
        }
        pb.finish()
    }

    /// Obstacles, bounds, roadmap and goals: drawn once, copied under every frame.
    fn draw_static(&mut self) {
        let mut pixmap = self.background.clone();
        let stroke = Stroke { width: 1.0, ..Stroke::default() };
        // With one goal per agent, edges to goals would hide the scene: draw them only for a
        // few shared goals (RVO2's Roadmap has four).
        let goals = self.scene.roadmap_goal_count as usize;
        let edges: Vec<(usize, usize)> = self
            .scene
            .roadmap_edges
            .iter()
            .map(|e| (e[0] as usize, e[1] as usize))
            .filter(|&(a, b)| goals <= 8 || (a >= goals && b >= goals))
            .collect();
        for (a, b) in &edges {
            if let (Some(p), Some(q)) = (self.scene.roadmap_vertices.get(*a), self.scene.roadmap_vertices.get(*b)) {
                if let Some(path) = self.polygon_path(&[*p, *q], false) {
                    pixmap.stroke_path(&path, &paint(FAINT), &stroke, Transform::identity(), None);
                }
            }
        }
        if let Some([min, max]) = self.scene.bounds {
            let corners = [min, [max[0], min[1]], max, [min[0], max[1]]];
            if let Some(path) = self.polygon_path(&corners, true) {
                let wall = Stroke { width: 2.0, ..Stroke::default() };
                pixmap.stroke_path(&path, &paint(OBSTACLE), &wall, Transform::identity(), None);
            }
        }
        for (i, polygon) in self.scene.obstacles.iter().enumerate() {
            // Obstacles the run removed are drawn per frame, while they exist.
            if self.scene.obstacle_exists(i, usize::MAX) {
                self.obstacle(&mut pixmap, polygon);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for a in &self.scene.agents {
            if !seen.insert((a.goal[0].to_bits(), a.goal[1].to_bits())) {
                continue;
            }
            let (x, y) = self.view.px(Vec2::from(a.goal));
            let arm = 2.5;
            let mut pb = PathBuilder::new();
            pb.move_to(x - arm, y - arm);
            pb.line_to(x + arm, y + arm);
            pb.move_to(x - arm, y + arm);
            pb.line_to(x + arm, y - arm);
            if let Some(path) = pb.finish() {
                let color = lighten(group_color(colour_index(self.scene, a.id, a.group)), 0.45);
                pixmap.stroke_path(&path, &paint(color), &stroke, Transform::identity(), None);
            }
        }
        self.background = pixmap;
    }

    fn obstacle(&self, pixmap: &mut Pixmap, polygon: &[[f32; 2]]) {
        let points: Vec<Vec2> = polygon.iter().map(|p| Vec2::from(*p)).collect();
        let Some(path) = self.polygon_path(polygon, polygon.len() > 2) else { return };
        if polygon.len() > 2 && Winding::of(&points) == Winding::CounterClockwise {
            pixmap.fill_path(&path, &paint(OBSTACLE), FillRule::Winding, Transform::identity(), None);
        } else {
            // A wall or a clockwise boundary: filling would cover the agents' space.
            let wall = Stroke { width: 2.0, ..Stroke::default() };
            pixmap.stroke_path(&path, &paint(OBSTACLE), &wall, Transform::identity(), None);
        }
    }

    fn disc(&self, pixmap: &mut Pixmap, p: Vec2, r: f32, color: [u8; 3]) {
        let (x, y) = self.view.px(p);
        if let Some(path) = PathBuilder::from_circle(x, y, (r * self.view.scale).max(1.2)) {
            pixmap.fill_path(&path, &paint(color), FillRule::Winding, Transform::identity(), None);
        }
    }

    /// Frame number `k` (after `k` steps) of the run.
    fn frame(&self, k: usize, frame: &FrameSamples, progress: f32, ball_speed: f32) -> Pixmap {
        let FrameSamples { agents, balls, movers } = *frame;
        let mut pixmap = self.background.clone();
        for removal in &self.scene.obstacle_removals {
            if k < removal.frame {
                if let Some(polygon) = self.scene.obstacles.get(removal.obstacle) {
                    self.obstacle(&mut pixmap, polygon);
                }
            }
        }
        for s in balls {
            let r = self.scene.balls.get(s.id as usize).map_or(0.5, |b| b.radius);
            let level = if ball_speed > 0.0 { (s.velocity.length() / ball_speed * 5.0).round() as usize } else { 0 };
            self.disc(&mut pixmap, s.position, r, BALL_RAMP[level.min(BALL_RAMP.len() - 1)]);
        }
        for s in movers {
            let r = self.scene.movers.get(s.id as usize).map_or(0.5, |m| m.radius);
            self.disc(&mut pixmap, s.position, r, MOVER);
        }
        for s in agents {
            let (r, group) = self.radius.get(&s.id).copied().unwrap_or((0.5, 0));
            self.disc(&mut pixmap, s.position, r, group_color(group));
        }
        let bar_width = (progress.clamp(0.0, 1.0) * self.view.width as f32).max(1.0);
        if let Some(rect) = tiny_skia::Rect::from_xywh(0.0, self.view.height as f32 - 3.0, bar_width, 3.0) {
            pixmap.fill_rect(rect, &paint(BAR), Transform::identity(), None);
        }
        pixmap
    }
}

/// The colour of an agent: its group's, or — when the whole crowd is one group, as in RVO2's
/// Circle — one of the palette's colours for each consecutive block of ids, so that the
/// crowd's parts can be told apart.
fn colour_index(scene: &SceneInfo, id: u32, group: u32) -> u32 {
    let agent_groups = scene.groups.iter().filter(|g| g.as_str() != "balls").count();
    if agent_groups == 1 && scene.agents.len() > 1 {
        (id as usize * GROUP_COLORS.len() / scene.agents.len()) as u32
    } else {
        group
    }
}

fn lighten(c: [u8; 3], amount: f32) -> [u8; 3] {
    c.map(|v| (v as f32 + (255.0 - v as f32) * amount).round() as u8)
}

/// The GIF palette: every colour drawn, each also blended 25/50/75 % with the background for
/// anti-aliased edges.
fn palette() -> Vec<[u8; 3]> {
    let mut base = vec![BACKGROUND, OBSTACLE, FAINT, BAR, BALL, MOVER];
    base.extend(BALL_RAMP);
    base.extend(GROUP_COLORS);
    base.extend(GROUP_COLORS.map(|c| lighten(c, 0.45)));
    let mut colors = Vec::new();
    for c in base {
        for t in [0.0f32, 0.25, 0.5, 0.75] {
            colors.push(std::array::from_fn(|k| (c[k] as f32 * (1.0 - t) + BACKGROUND[k] as f32 * t).round() as u8));
        }
    }
    colors.truncate(256);
    colors
}

/// Maps RGBA pixels to palette indices (nearest colour; cached, as few colours occur).
struct Quantizer {
    palette: Vec<[u8; 3]>,
    cache: HashMap<[u8; 3], u8>,
}

impl Quantizer {
    fn index(&mut self, rgb: [u8; 3]) -> u8 {
        if let Some(&i) = self.cache.get(&rgb) {
            return i;
        }
        let distance = |c: &[u8; 3]| (0..3).map(|k| (c[k] as i32 - rgb[k] as i32).pow(2)).sum::<i32>();
        // The palette has at most 256 entries, so the position fits in a u8.
        let i = self.palette.iter().enumerate().min_by_key(|(_, c)| distance(c)).map_or(0, |(i, _)| i as u8);
        self.cache.insert(rgb, i);
        i
    }

    fn indices(&mut self, pixmap: &Pixmap) -> Vec<u8> {
        // Every pixel is opaque (drawn over an opaque background), so premultiplied RGB is RGB.
        pixmap.data().chunks_exact(4).map(|p| self.index([p[0], p[1], p[2]])).collect()
    }
}

/// A run's trajectories: the agents', the balls' and the movers' (each empty when the run
/// has none).
pub struct Tracks {
    /// `trajectory.csv`.
    pub agents: Trajectory,
    /// `balls.csv`.
    pub balls: Trajectory,
    /// `movers.csv`.
    pub movers: Trajectory,
}

/// What one frame shows.
#[derive(Clone, Copy)]
struct FrameSamples<'t> {
    agents: &'t [Sample],
    balls: &'t [Sample],
    movers: &'t [Sample],
}

/// Each trajectory's frames by number, and one past the last frame number of any.
struct FrameLists<'t> {
    agents: FrameIndex<'t>,
    balls: FrameIndex<'t>,
    movers: FrameIndex<'t>,
    total: usize,
}

impl<'t> FrameLists<'t> {
    fn new(tracks: &'t Tracks) -> FrameLists<'t> {
        let (agents, balls, movers) =
            (FrameIndex::new(&tracks.agents), FrameIndex::new(&tracks.balls), FrameIndex::new(&tracks.movers));
        let total = agents.len().max(balls.len()).max(movers.len());
        FrameLists { agents, balls, movers, total }
    }

    fn get(&self, k: usize) -> FrameSamples<'t> {
        FrameSamples { agents: self.agents.get(k), balls: self.balls.get(k), movers: self.movers.get(k) }
    }
}

/// The fastest ball's speed in the first frame (the top of the colour ramp).
fn reference_ball_speed(balls: &Trajectory) -> f32 {
    balls.frames().next().map_or(0.0, |f| f.iter().map(|s| s.velocity.length()).fold(0.0, f32::max))
}

/// Writes an animated GIF of the run.
pub fn write_gif(path: &Path, scene: &SceneInfo, tracks: &Tracks, options: &RenderOptions) -> Result<()> {
    let view = View::new(scene, tracks, options.size);
    let (width, height) = (view.width, view.height);
    anyhow::ensure!(width <= u16::MAX as u32 && height <= u16::MAX as u32, "image too large for GIF");
    let drawer = Drawer::new(scene, view)?;
    let quantizer = Quantizer { palette: palette(), cache: HashMap::new() };
    let flat: Vec<u8> = quantizer.palette.iter().flatten().copied().collect();
    let file = BufWriter::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?);
    let mut encoder = gif::Encoder::new(file, width as u16, height as u16, &flat).context("GIF header")?;
    encoder.set_repeat(gif::Repeat::Infinite).context("GIF header")?;
    let lists = FrameLists::new(tracks);
    let total = lists.total;
    let frames = chosen_frames(total, options.max_frames);
    // About ten seconds per loop, between 2 and 10 hundredths of a second per frame.
    let delay = (1000 / frames.len().max(1)).clamp(2, 10) as u16;
    let last = total.saturating_sub(1).max(1) as f32;
    let ball_speed = reference_ball_speed(&tracks.balls);
    // Frames are independent: draw and quantise them in parallel (one colour cache per
    // worker), then encode in order.
    let palette_colors = quantizer.palette.clone();
    let indexed: Vec<Vec<u8>> = frames
        .par_iter()
        .map_init(
            || Quantizer { palette: palette_colors.clone(), cache: HashMap::new() },
            |q, &k| {
                let pixmap = drawer.frame(k, &lists.get(k), k as f32 / last, ball_speed);
                q.indices(&pixmap)
            },
        )
        .collect();
    for indices in indexed {
        let frame = gif::Frame {
            width: width as u16,
            height: height as u16,
            delay,
            buffer: std::borrow::Cow::Owned(indices),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn write_png_frames(dir: &Path, scene: &SceneInfo, tracks: &Tracks, options: &RenderOptions) -> Result<usize> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let drawer = Drawer::new(scene, View::new(scene, tracks, options.size))?;
    let lists = FrameLists::new(tracks);
    let total = lists.total;
    let frames = chosen_frames(total, options.max_frames);
    let last = total.saturating_sub(1).max(1) as f32;
    let ball_speed = reference_ball_speed(&tracks.balls);
    for &k in &frames {
        let pixmap = drawer.frame(k, &lists.get(k), k as f32 / last, ball_speed);
        let path = dir.join(format!("frame_{k:05}.png"));
        pixmap.save_png(&path).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(frames.len())
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A static SVG: obstacles, goals, every agent's path and its final position.
fn svg(scene: &SceneInfo, tracks: &Tracks, size: u32) -> String {
    let (agents, balls) = (&tracks.agents, &tracks.balls);
    let view = View::new(scene, tracks, size);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        view.width, view.height, view.width, view.height
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, hex(BACKGROUND));
    let points = |ps: &mut dyn Iterator<Item = Vec2>| {
        ps.map(|p| {
            let (x, y) = view.px(p);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
    };
    for (i, polygon) in scene.obstacles.iter().enumerate() {
        let vs: Vec<Vec2> = polygon.iter().map(|p| Vec2::from(*p)).collect();
        // The SVG shows the whole run: an obstacle removed during it is outlined, dashed.
        let removed = !scene.obstacle_exists(i, usize::MAX);
        let solid = vs.len() > 2 && Winding::of(&vs) == Winding::CounterClockwise && !removed;
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{}" stroke="{}" stroke-width="2"{}/>"#,
            points(&mut vs.iter().copied()),
            if solid { hex(OBSTACLE) } else { "none".into() },
            hex(OBSTACLE),
            if removed { r#" stroke-dasharray="4 3""# } else { "" }
        );
    }
    let mut paths: HashMap<u32, Vec<Vec2>> = HashMap::new();
    for s in &agents.samples {
        paths.entry(s.id).or_default().push(s.position);
    }
    let mut ids: Vec<u32> = paths.keys().copied().collect();
    ids.sort_unstable();
    let info: HashMap<u32, (f32, u32)> =
        scene.agents.iter().map(|a| (a.id, (a.radius, colour_index(scene, a.id, a.group)))).collect();
    for id in ids {
        let path = &paths[&id];
        let (radius, group) = info.get(&id).copied().unwrap_or((0.5, 0));
        let color = hex(group_color(group));
        // At most ~400 points per path keeps the file small; the last point is always kept.
        let stride = path.len().div_ceil(400).max(1);
        let mut kept: Vec<Vec2> = path.iter().step_by(stride).copied().collect();
        if let Some(last) = path.last() {
            kept.push(*last);
        }
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-opacity="0.5" stroke-width="1"/>"#,
            points(&mut kept.iter().copied())
        );
        if let Some(last) = path.last() {
            let (x, y) = view.px(*last);
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.2}" fill="{color}"/>"#,
                (radius * view.scale).max(1.2)
            );
        }
    }
    if let Some(frame) = balls.frames().last() {
        for s in frame {
            let r = scene.balls.get(s.id as usize).map_or(0.5, |b| b.radius);
            let (x, y) = view.px(s.position);
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.2}" fill="{}"/>"#,
                (r * view.scale).max(1.2),
                hex(BALL)
            );
        }
    }
    // Each mover's path, dashed (it avoids nothing: the agents made way), and where it ended.
    let mut mover_paths: Vec<Vec<Vec2>> = vec![Vec::new(); scene.movers.len()];
    for s in &tracks.movers.samples {
        if let Some(path) = mover_paths.get_mut(s.id as usize) {
            path.push(s.position);
        }
    }
    for (path, mover) in mover_paths.iter().zip(&scene.movers) {
        let Some(&last) = path.last() else { continue };
        let stride = path.len().div_ceil(400).max(1);
        let kept: Vec<Vec2> = path.iter().step_by(stride).copied().chain([last]).collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="1" stroke-dasharray="3 2"/>"#,
            points(&mut kept.iter().copied()),
            hex(MOVER)
        );
        let (x, y) = view.px(last);
        let r = (mover.radius * view.scale).max(1.2);
        let _ = writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.2}" fill="{}"/>"#, hex(MOVER));
    }
    out.push_str("</svg>\n");
    out
}

/// `swerve render`: draws a run folder's trajectory and prints what it wrote (a 3-D run's by
/// [`crate::render3d`]).
pub fn render_command(args: &RenderArgs) -> Result<()> {
    check_max_frames("--max-frames", args.max_frames)?;
    let input = args.input.display();
    if !args.input.exists() {
        bail!("{input}: no such run folder or trajectory file");
    }
    let (dir, csv) = if args.input.is_dir() {
        (args.input.clone(), args.input.join("trajectory.csv"))
    } else {
        (args.input.parent().map(Path::to_path_buf).unwrap_or_default(), args.input.clone())
    };
    let scene_path = dir.join("scene.json");
    if !scene_path.exists() {
        // Name what the user gave, not a path they never typed.
        if args.input.is_dir() {
            bail!("{input}: not a run folder (no scene.json; `swerve run` writes one)");
        }
        bail!("{input}: no scene.json beside it (render needs the one `swerve run` writes beside the trajectory)");
    }
    let scene_text =
        std::fs::read_to_string(&scene_path).with_context(|| format!("cannot read {}", scene_path.display()))?;
    // A 3-D run's scene says how many dimensions it has; a planar one's does not.
    #[derive(serde::Deserialize)]
    struct Dimensions {
        dimensions: Option<serde_json::Value>,
    }
    if let Ok(Dimensions { dimensions: Some(_) }) = serde_json::from_str(&scene_text) {
        return crate::render3d::render(args, &dir, &csv, &scene_text);
    }
    let scene: SceneInfo = serde_json::from_str(&scene_text).with_context(|| format!("{}", scene_path.display()))?;
    let read = |path: &Path| -> Result<Trajectory> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Trajectory::read_csv(&text, path)?)
    };
    let beside = |name: &str| -> Result<Trajectory> {
        let path = dir.join(name);
        if path.exists() {
            read(&path)
        } else {
            Ok(Trajectory::default())
        }
    };
    let tracks = Tracks { agents: read(&csv)?, balls: beside("balls.csv")?, movers: beside("movers.csv")? };
    if !scene.movers.is_empty() && tracks.movers.samples.is_empty() {
        let listed = crate::crowd3d::plural(scene.movers.len(), "mover", "movers");
        bail!("{}: missing or empty (scene.json lists {listed})", dir.join("movers.csv").display());
    }
    let options = RenderOptions { max_frames: args.max_frames, size: args.size };
    match args.format {
        RenderFormat::Gif => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("render.gif"));
            write_gif(&out, &scene, &tracks, &options)?;
            println!("wrote {}", out.display());
        }
        RenderFormat::Svg => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("render.svg"));
            std::fs::write(&out, svg(&scene, &tracks, args.size))
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("wrote {}", out.display());
        }
        RenderFormat::Png => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("frames"));
            let n = write_png_frames(&out, &scene, &tracks, &options)?;
            println!("wrote {n} frame{} to {}", if n == 1 { "" } else { "s" }, out.display());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_frames_are_bounded_even_and_end_at_the_last() {
        for total in [1usize, 2, 7, 150, 151, 1000, 1893] {
            for max in [2usize, 3, 10, 150] {
                let f = chosen_frames(total, max);
                assert!(f.len() <= max, "{total} {max} {}", f.len());
                assert!(f.len() >= max.min(total).min(2), "{total} {max} {}", f.len());
                assert_eq!(f[0], 0);
                assert_eq!(*f.last().unwrap(), total - 1);
                assert!(f.windows(2).all(|w| w[0] < w[1]));
            }
            assert_eq!(chosen_frames(total, 1), [total - 1], "one frame is the last");
            assert!(chosen_frames(total, 0).is_empty());
        }
    }

    #[test]
    fn quantizer_maps_palette_colours_to_themselves() {
        let mut q = Quantizer { palette: palette(), cache: HashMap::new() };
        let palette = q.palette.clone();
        for (i, c) in palette.iter().enumerate() {
            assert_eq!(palette[q.index(*c) as usize], *c, "colour {i}");
        }
    }

    #[test]
    fn a_removed_obstacle_is_drawn_only_before_its_frame() {
        use swerve::scenario::ObstacleRemoval;
        let square = |x: f32| vec![[x, 0.0], [x + 4.0, 0.0], [x + 4.0, 4.0], [x, 4.0]];
        let scene = SceneInfo {
            obstacles: vec![square(0.0), square(10.0)],
            obstacle_removals: vec![ObstacleRemoval { obstacle: 1, frame: 3, time: 0.3 }],
            ..SceneInfo::default()
        };
        let none =
            Tracks { agents: Trajectory::default(), balls: Trajectory::default(), movers: Trajectory::default() };
        let drawer = Drawer::new(&scene, View::new(&scene, &none, 200)).unwrap();
        let colour_at = |pixmap: &Pixmap, p: Vec2| {
            let (x, y) = drawer.view.px(p);
            let c = pixmap.pixel(x as u32, y as u32).unwrap();
            [c.red(), c.green(), c.blue()]
        };
        for k in 0..6 {
            let pixmap = drawer.frame(k, &FrameSamples { agents: &[], balls: &[], movers: &[] }, 0.0, 0.0);
            assert_eq!(colour_at(&pixmap, Vec2::new(2.0, 2.0)), OBSTACLE, "the kept square, frame {k}");
            let removed = colour_at(&pixmap, Vec2::new(12.0, 2.0));
            assert_eq!(removed, if k < 3 { OBSTACLE } else { BACKGROUND }, "the removed square, frame {k}");
        }
        let text = svg(&scene, &none, 200);
        assert_eq!(text.matches("stroke-dasharray").count(), 1, "{text}");
    }
}
