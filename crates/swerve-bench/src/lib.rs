//! Benchmark scenes and runners for swerve.
//!
//! * [`orca`] — the crowd scenes of the ORCA performance work (`jgrid`, `circle`, `blocks`),
//!   a timing runner, and the scene file the pyrvo peer script reads.
#![warn(missing_docs)]

pub mod orca;
