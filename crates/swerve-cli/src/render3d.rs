//! `swerve render` on a 3-D run (`swerve sphere`, `towers`, `pit3d`, or `swerve run` on a 3-D
//! file; its `scene.json` says `"dimensions": 3`): the frames drawn again from
//! `trajectory.csv` and `movers.csv` as the run drew its GIF — the same camera circling once
//! over the run — as a GIF or PNG frames, or one SVG of every body's path seen from where the
//! camera starts.

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use swerve::orca3d::Vec3;

use crate::render::{chosen_frames, RenderArgs, RenderFormat};
use crate::view3d::{draw, faded, project, turn, write_gif, Scene3d, BACKGROUND, EDGE};

/// At most this many points along each body's path in the SVG (evenly spaced frames, always
/// the last): enough for a smooth line, and the file stays small.
const SVG_PATH_POINTS: usize = 400;

/// Renders the 3-D run in `dir` (its scene already read from `scene_text`) and prints what it
/// wrote.
pub fn render(args: &RenderArgs, dir: &Path, csv: &Path, scene_text: &str) -> Result<()> {
    let scene_path = dir.join("scene.json");
    let scene: Scene3d = serde_json::from_str(scene_text).with_context(|| format!("{}", scene_path.display()))?;
    scene.check().with_context(|| format!("{}", scene_path.display()))?;
    anyhow::ensure!((16..=4096).contains(&args.size), "--size: must be between 16 and 4096 for a 3-D run");
    let tracks = Tracks::read(&scene, dir, csv)?;
    match args.format {
        RenderFormat::Gif => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("render.gif"));
            let frames = tracks.frames(&chosen_frames(tracks.last + 1, args.max_frames))?;
            // Every frame chosen above is drawn: `write_gif` thins only beyond its `max`.
            write_gif(&out, &frames, tracks.last, &scene, frames.len(), args.size)?;
            println!("wrote {}", out.display());
        }
        RenderFormat::Png => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("frames"));
            std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
            let frames = tracks.frames(&chosen_frames(tracks.last + 1, args.max_frames))?;
            frames.par_iter().try_for_each(|(step, positions)| -> Result<()> {
                let pixmap = draw(*step, positions, turn(*step, tracks.last), &scene, args.size)?;
                let path = out.join(format!("frame_{step:05}.png"));
                pixmap.save_png(&path).with_context(|| format!("writing {}", path.display()))
            })?;
            let n = frames.len();
            println!("wrote {n} frame{} to {}", if n == 1 { "" } else { "s" }, out.display());
        }
        RenderFormat::Svg => {
            let out = args.out.clone().unwrap_or_else(|| dir.join("render.svg"));
            let frames = tracks.frames(&chosen_frames(tracks.last + 1, SVG_PATH_POINTS))?;
            std::fs::write(&out, svg(&scene, &frames, args.size))
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("wrote {}", out.display());
        }
    }
    Ok(())
}

/// A 3-D run's trajectory files, read and checked: the bodies' (`trajectory.csv`) and, when
/// the scene has movers, the movers' (`movers.csv`).
struct Tracks {
    /// Each file's path and text, with the place of its first id among a frame's positions.
    files: Vec<(PathBuf, String, usize)>,
    /// The last frame number in either file.
    last: usize,
    /// Bodies plus movers: the length of a frame's positions.
    slots: usize,
    /// How many ids each file may hold (the scene's bodies, its movers).
    ids: Vec<usize>,
}

impl Tracks {
    fn read(scene: &Scene3d, dir: &Path, csv: &Path) -> Result<Tracks> {
        let read =
            |path: &Path| std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()));
        let mut files = vec![(csv.to_path_buf(), read(csv)?, 0)];
        let mut ids = vec![scene.bodies.len()];
        if !scene.movers.is_empty() {
            let movers = dir.join("movers.csv");
            if !movers.exists() {
                let listed = crate::crowd3d::plural(scene.movers.len(), "mover", "movers");
                bail!("{}: missing (scene.json lists {listed})", movers.display());
            }
            files.push((movers.clone(), read(&movers)?, scene.bodies.len()));
            ids.push(scene.movers.len());
        }
        let mut last = 0;
        for (path, text, _) in &files {
            last = last.max(last_frame(path, text)?);
        }
        Ok(Tracks { files, last, slots: scene.bodies.len() + scene.movers.len(), ids })
    }

    /// The positions of every body in each of `chosen` (increasing frame numbers), NaN for a
    /// body with no row in a frame (not yet spawned, or gone).
    fn frames(&self, chosen: &[usize]) -> Result<Vec<(usize, Vec<Vec3>)>> {
        let mut frames: Vec<(usize, Vec<Vec3>)> = chosen.iter().map(|&k| (k, vec![Vec3::NAN; self.slots])).collect();
        for ((path, text, offset), &ids) in self.files.iter().zip(&self.ids) {
            for (line, row) in rows(text) {
                let at = |what: &str| format!("{}:{line}: {what}", path.display());
                let mut fields = row.split(',');
                let frame: usize = parse(fields.next(), "frame").with_context(|| at("frame"))?;
                let Ok(k) = chosen.binary_search(&frame) else { continue };
                let id: usize = parse(fields.next(), "id").with_context(|| at("id"))?;
                if id >= ids {
                    bail!("{}: id {id} has no body in scene.json (it lists {ids})", at("id"));
                }
                let mut position = [0.0f32; 3];
                for (c, name) in position.iter_mut().zip(["x", "y", "z"]) {
                    *c = parse(fields.next(), name).with_context(|| at(name))?;
                    if !c.is_finite() {
                        bail!("{}: {c} is not a finite coordinate", at(name));
                    }
                }
                frames[k].1[offset + id] = Vec3::from(position);
            }
        }
        Ok(frames)
    }
}

/// A trajectory file's data rows with their line numbers (1-based; the header is line 1).
fn rows(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().skip(1).map(|(k, l)| (k + 1, l.trim_end())).filter(|(_, l)| !l.is_empty())
}

/// One field of a row, parsed, or why not (missing, or not a `what`).
fn parse<T: std::str::FromStr>(field: Option<&str>, what: &str) -> Result<T> {
    let field = field.map(str::trim).filter(|f| !f.is_empty()).with_context(|| format!("no {what} in the row"))?;
    field.parse().ok().with_context(|| format!("'{field}' is not a {what}"))
}

/// Checks a 3-D trajectory file's header and its frames' order; the last frame number.
fn last_frame(path: &Path, text: &str) -> Result<usize> {
    let header = text.lines().next().unwrap_or("");
    if !header.starts_with("frame,id,x,y,z") {
        bail!("{}:1: not a 3-D trajectory (its header is not frame,id,x,y,z,...)", path.display());
    }
    let mut last = 0;
    for (line, row) in rows(text) {
        let frame: usize = parse(row.split(',').next(), "frame number")
            .with_context(|| format!("{}:{line}: frame", path.display()))?;
        if frame < last {
            bail!("{}:{line}: frame {frame} comes after frame {last} (frames must not decrease)", path.display());
        }
        last = frame;
    }
    Ok(last)
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A static SVG seen from where the camera starts: the edges (an obstacle removed during the
/// run dashed), every body's path, and each body where it was last seen, drawn far to near.
fn svg(scene: &Scene3d, frames: &[(usize, Vec<Vec3>)], size: u32) -> String {
    let at = |p: Vec3| project(p, scene, 0.0, size);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, hex(BACKGROUND));
    for edge in &scene.edges {
        if let (Some(a), Some(b)) = (at(edge.from.into()), at(edge.to.into())) {
            let _ = writeln!(
                out,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}"{}/>"#,
                a.1,
                a.2,
                b.1,
                b.2,
                hex(EDGE),
                if edge.gone.is_some() { r#" stroke-dasharray="4 3""# } else { "" }
            );
        }
    }
    let mut ends = Vec::new();
    for (slot, body) in scene.looks().enumerate() {
        let seen: Vec<(f32, f32, f32, f32)> = frames.iter().filter_map(|(_, p)| at(p[slot])).collect();
        let Some(&(depth, x, y, scale)) = seen.last() else { continue };
        let colour = hex(body.colour);
        if seen.len() > 1 {
            let points: Vec<String> = seen.iter().map(|&(_, x, y, _)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(
                out,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-opacity="0.5" stroke-width="1"/>"#,
                points.join(" ")
            );
        }
        ends.push((depth, x, y, (body.radius * scale).max(1.2), faded(body.colour, depth, scene.distance)));
    }
    ends.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    for (_, x, y, r, colour) in ends {
        let _ = writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.2}" fill="{}"/>"#, hex(colour));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view3d::{Body3d, Edge3d};

    fn scene() -> Scene3d {
        let mut scene = Scene3d::new("test", 0.1, Vec3::ZERO, 10.0);
        scene.bodies = vec![Body3d { radius: 0.5, colour: [200, 0, 0] }; 2];
        scene.movers = vec![Body3d { radius: 1.0, colour: [150, 150, 150] }];
        scene.edges = vec![Edge3d { gone: Some(3), ..Edge3d::lasting((Vec3::ZERO, Vec3::X)) }];
        scene
    }

    fn tracks(bodies: &str, movers: &str) -> Tracks {
        let scene = scene();
        let files = vec![
            (PathBuf::from("trajectory.csv"), bodies.to_string(), 0),
            (PathBuf::from("movers.csv"), movers.to_string(), scene.bodies.len()),
        ];
        let last = files.iter().map(|(p, t, _)| last_frame(p, t).unwrap()).max().unwrap();
        Tracks { files, last, slots: 3, ids: vec![2, 1] }
    }

    const HEADER: &str = "frame,id,x,y,z,vx,vy,vz\n";

    #[test]
    fn frames_hold_each_body_at_its_id_and_nan_where_it_has_no_row() {
        let bodies = format!("{HEADER}0,0,1,2,3,0,0,0\n0,1,4,5,6,0,0,0\n1,1,7,8,9,0,0,0\n2,0,1.5,2,3,0,0,0\n");
        let movers = format!("{HEADER}0,0,-1,0,0,1,0,0\n1,0,-0.5,0,0,1,0,0\n2,0,0,0,0,1,0,0\n");
        let t = tracks(&bodies, &movers);
        assert_eq!(t.last, 2);
        let frames = t.frames(&[0, 2]).unwrap();
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[0].1[..2], [Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0)]);
        assert_eq!(frames[0].1[2], Vec3::new(-1.0, 0.0, 0.0), "the mover after the bodies");
        assert_eq!(frames[1].1[0], Vec3::new(1.5, 2.0, 3.0));
        assert!(frames[1].1[1].is_nan(), "body 1 has no row in frame 2");
        assert_eq!(frames[1].1[2], Vec3::ZERO);
    }

    #[test]
    fn bad_rows_name_file_line_and_field() {
        let error = |bodies: &str| {
            let t = tracks(&format!("{HEADER}{bodies}"), HEADER);
            format!("{:#}", t.frames(&[0]).unwrap_err())
        };
        assert_eq!(error("0,2,0,0,0\n"), "trajectory.csv:2: id: id 2 has no body in scene.json (it lists 2)");
        assert_eq!(error("0,0,0,x,0\n"), "trajectory.csv:2: y: 'x' is not a y");
        assert_eq!(error("0,0,0,0\n"), "trajectory.csv:2: z: no z in the row");
        assert_eq!(error("0,0,0,inf,0\n"), "trajectory.csv:2: y: inf is not a finite coordinate");
        let order = last_frame(Path::new("t.csv"), &format!("{HEADER}1,0,0,0,0\n0,0,0,0,0\n")).unwrap_err();
        assert_eq!(format!("{order:#}"), "t.csv:3: frame 0 comes after frame 1 (frames must not decrease)");
        let planar = last_frame(Path::new("t.csv"), "frame,id,x,y,vx,vy\n0,0,0,0,0,0\n").unwrap_err();
        assert!(format!("{planar:#}").starts_with("t.csv:1: not a 3-D trajectory"), "{planar:#}");
    }

    #[test]
    fn the_svg_has_a_path_and_an_end_for_each_body_that_moved_and_dashes_removed_edges() {
        let s = scene();
        let (a, b) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
        let frames =
            vec![(0, vec![a, Vec3::NAN, b]), (1, vec![a * 2.0, Vec3::NAN, b * 2.0]), (2, vec![a * 3.0, b, b * 3.0])];
        let text = svg(&s, &frames, 100);
        assert_eq!(text.matches("<polyline").count(), 2, "body 1 was seen once only: no path\n{text}");
        assert_eq!(text.matches("<circle").count(), 3, "{text}");
        assert_eq!(text.matches("stroke-dasharray").count(), 1, "{text}");
        assert!(text.starts_with("<svg") && text.ends_with("</svg>\n"));
    }

    #[test]
    fn a_scene_that_cannot_be_drawn_is_refused_by_its_key() {
        let mut s = scene();
        assert!(s.check().is_ok());
        s.distance = f32::NAN;
        assert!(format!("{:#}", s.check().unwrap_err()).starts_with("distance:"));
        let mut s = scene();
        s.movers[0].radius = -1.0;
        assert!(format!("{:#}", s.check().unwrap_err()).starts_with("movers[0].radius: -1"));
        let mut s = scene();
        s.dimensions = 2;
        assert!(format!("{:#}", s.check().unwrap_err()).starts_with("dimensions: 2"));
    }
}
