//! The one error type of the viewer.

use std::net::SocketAddr;

/// What can go wrong when starting the viewer. Once it runs, a misbehaving browser connection
/// only closes that connection; it is never an error of the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewerError {
    /// The listening socket could not be opened (port taken, address not local, ...).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The server failed while running.
    #[error("viewer server failed: {0}")]
    Serve(std::io::Error),
    /// The scene could not be built.
    #[error("invalid scene: {0}")]
    Scene(#[from] swerve::Error),
    /// The scene's parts do not fit together (e.g. one goal per agent is required).
    #[error("invalid scene: {0}")]
    InvalidScene(String),
    /// A setting of [`crate::ViewerConfig`] is out of range.
    #[error("invalid viewer setting: {0}")]
    InvalidConfig(String),
    /// The simulation thread could not be started.
    #[error("cannot start the simulation thread: {0}")]
    Thread(std::io::Error),
}
