//! Serves a built-in scene in the browser viewer (until the CLI's `swerve serve SCENARIO`):
//!
//! ```text
//! cargo run --release -p swerve-viewer --example serve -- --scene crossing --count 10000
//! ```
//!
//! Prints `swerve viewer listening on http://127.0.0.1:PORT/` once the port is open.

use clap::Parser;
use std::io::IsTerminal;
use std::net::IpAddr;
use swerve_viewer::{scenes, serve, ViewerConfig};

/// Live browser view of a built-in swerve scene.
#[derive(Parser)]
struct Args {
    /// circle, crossing, obstacles, balls or ball-pit.
    #[arg(long, default_value = "circle")]
    scene: String,
    /// Number of agents (circle, crossing) or balls (balls, ball-pit).
    #[arg(long, visible_alias = "agents")]
    count: Option<usize>,
    /// Address to listen on (loopback unless you mean otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port; 0 picks a free one.
    #[arg(long, default_value_t = ViewerConfig::DEFAULT_PORT)]
    port: u16,
    /// Target steps per second (0: as fast as possible).
    #[arg(long, default_value_t = 30.0)]
    steps_per_second: f32,
    /// Start paused.
    #[arg(long)]
    paused: bool,
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "swerve_viewer=info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let args = Args::parse();
    let config = ViewerConfig {
        host: args.host,
        port: args.port,
        steps_per_second: args.steps_per_second,
        playing: !args.paused,
    };
    let result = match scenes::by_name(&args.scene, args.count) {
        Ok(scene) => serve(scene, config).await,
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
