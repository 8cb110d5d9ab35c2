//! Benchmarks of swerve.
//!
//! [`balls`] measures the rigid-ball broad phases on seed 003's scene and on a scaled ball pit
//! and renders the table for `BENCHMARKS.md`; `swerve bench balls` calls it. The criterion
//! suite (`benches/balls.rs`) and the report example (`examples/balls_report.rs`, which also
//! measures rapier2d on the same pit in the same run) are built on it.
#![warn(missing_docs)]

pub mod balls;
pub mod plot;
