//! The C interface of swerve: the RVO2-exact ORCA simulator (`swerve_simulator_*`), the
//! RVO2-3D-exact one in three dimensions (`swerve_simulator3d_*`), the rigid-ball world
//! (`swerve_world_*`) and its 3-D twin with spheres and static triangles (`swerve_world3d_*`)
//! behind a plain C header (`include/swerve.h`, generated from this crate
//! by cbindgen), for game engines and robot stacks that are not written in Rust — and, on top
//! of it, `include/rvo2/RVO.h`, a header-only stand-in for RVO2's own C++ API.
//!
//! # Conventions
//! - Every function that can fail returns a [`SwerveStatus`]; its results go through out
//!   pointers, which are written only on success. A failed call changes nothing.
//! - [`swerve_last_error_message`] gives the text of the last failure on the calling thread.
//! - Functions that fill a caller's buffer take its capacity and always report the count
//!   they need; a buffer too small gives [`SwerveStatus::BufferTooSmall`] and is left alone,
//!   so a first call with a null buffer and capacity 0 asks for the size.
//! - A simulator or world handle may be used from any thread, but from one thread at a time.
//! - Nothing unwinds into C: a Rust panic (a bug) becomes [`SwerveStatus::Panic`]; the
//!   handle should then only be freed.

#![warn(missing_docs)]

mod balls;
mod balls3d;
mod orca;
mod orca3d;
mod status;

pub use balls::*;
pub use balls3d::*;
pub use orca::*;
pub use orca3d::*;
pub use status::{swerve_last_error_message, swerve_version, SwerveStatus};
