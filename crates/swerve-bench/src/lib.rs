//! Benchmark scenes and runners for swerve.
//!
//! * [`orca`] — the crowd scenes of the ORCA performance work (`jgrid`, `circle`, `blocks`,
//!   `city`), a timing runner, and the scene file the pyrvo peer script reads.
//! * [`balls`] — the rigid-ball broad phases on seed 003's scene and a scaled ball pit, and the
//!   Markdown table for `BENCHMARKS.md` (`swerve bench balls` calls it); [`plot`] draws the
//!   log-log SVG. The criterion suite is `benches/balls.rs`; `examples/balls_report.rs` runs
//!   the whole table with rapier2d on the same pit in the same run.
//! * [`orca3d`] — the 3-D crowd scenes (`sphere`, `cube`) of `swerve::orca3d`, the step timer,
//!   the RVO2-3D peer (jt-pyrvo23d through Python) with its bit-for-bit check, and the table
//!   (`swerve bench orca3d` and `examples/orca3d_report.rs` call it).
//! * [`balls3d`] — every broad phase of `swerve::physics3d` on the sphere pit and the mixed
//!   pit, and its tables (`swerve bench balls3d`); `examples/balls3d_report.rs` adds rapier3d
//!   on the same scenes, `benches/balls3d.rs` is the criterion suite. [`pour3d`] holds what the
//!   3-D gravity reports (`gravity3d_report`, `hourglass3d_report`) measure alike.
#![warn(missing_docs)]

pub mod balls;
pub mod balls3d;
pub mod orca;
pub mod orca3d;
pub mod plot;
pub mod pour3d;
