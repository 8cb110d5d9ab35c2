//! # swerve-viewer
//!
//! A live view of a swerve scene in the browser, with an ORCA inspector: click an agent to see
//! its velocity space — the ORCA half-planes (agent and obstacle ones), the max-speed disc,
//! the preferred and the chosen velocity, and which linear program decided (LP2 feasible or
//! LP3 fallback). Every drawn value comes from the library ([`swerve::Simulator`]'s per-agent
//! accessors); the page only draws. Ball scenes ([`swerve::physics::World`]) show the balls,
//! the per-step candidate-pair and contact counts and, on request, the broad phase's boxes;
//! the broad phase can be switched live.
//!
//! 3-D scenes are shown too: a crowd of [`swerve::orca3d::Simulator`] ([`Orca3dScene`], with
//! its static triangle obstacles drawn, and the inspector drawing the agent's ORCA planes in
//! velocity space, the obstacles' hard planes apart from the agents') and spheres of
//! [`swerve::physics3d::World`] with their static triangles and box ([`SphereScene`],
//! [`SphereScenarioScene`]); a 3-D crowd scenario file plays in [`Crowd3dScenarioScene`].
//! Their frames carry three coordinates per body.
//!
//! The server is axum on tokio. One simulation thread owns the [`LiveScene`]; every browser
//! connection receives the latest state as binary WebSocket frames ([`frame`] documents the
//! layout) and sends small JSON commands ([`protocol`]). Only the page embedded in this crate
//! is served: no path from a request reaches the file system.
//!
//! ```no_run
//! use swerve_viewer::{scenes, serve, ViewerConfig};
//! # async fn run() -> Result<(), swerve_viewer::ViewerError> {
//! let scene = scenes::circle(250)?;
//! serve(Box::new(scene), ViewerConfig::default()).await
//! # }
//! ```
#![warn(missing_docs)]

mod assets;
mod error;
pub mod frame;
pub mod inspect;
pub mod metrics;
pub mod protocol;
mod runner;
pub mod scenario_scene;
pub mod scene;
pub mod scenes;
mod server;

pub use error::ViewerError;
pub use scenario_scene::{Crowd3dScenarioScene, ScenarioScene, SphereScenarioScene};
pub use scene::{BallScene, LiveScene, Orca3dScene, OrcaScene, SphereScene};
pub use server::{serve, serve_blocking, Viewer, ViewerConfig};
