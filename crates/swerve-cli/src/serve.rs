//! `swerve serve SCENARIO`: the live browser viewer on any scenario (crate `swerve-viewer`),
//! or on one of the viewer's demo scenes (`--scene circle|crossing|obstacles|balls|ball-pit`,
//! sized by `--count`), which the browser tests use.

use anyhow::{Context, Result};
use std::net::IpAddr;
use swerve_viewer::{ScenarioScene, ViewerConfig};

/// Arguments of `swerve serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// A scenario file or a built-in name (`swerve list`).
    #[arg(required_unless_present = "scene", conflicts_with = "scene")]
    scenario: Option<String>,
    /// Serve one of the viewer's demo scenes instead: circle, crossing, obstacles, balls,
    /// ball-pit.
    #[arg(long)]
    scene: Option<String>,
    /// Size of the demo scene (agents or balls).
    #[arg(long, requires = "scene")]
    count: Option<usize>,
    /// Address to listen on. Loopback by default: the viewer has no authentication.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// TCP port (0 picks a free one and prints it).
    #[arg(long, default_value_t = ViewerConfig::DEFAULT_PORT)]
    port: u16,
    /// Simulation steps per wall-clock second (0: as fast as possible).
    #[arg(long, default_value_t = 30.0)]
    steps_per_second: f32,
    /// Start paused.
    #[arg(long)]
    paused: bool,
}

/// Serves the scenario until interrupted.
pub fn serve(args: &ServeArgs) -> Result<()> {
    // The viewer logs why it closes a connection (malformed messages) through `tracing`.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "swerve_viewer=info".into()),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let scene: Box<dyn swerve_viewer::LiveScene> = match (&args.scenario, &args.scene) {
        (Some(name), _) => {
            let scenario = crate::load_scenario(name)?;
            Box::new(ScenarioScene::new(scenario).with_context(|| name.clone())?)
        }
        (None, Some(demo)) => swerve_viewer::scenes::by_name(demo, args.count).with_context(|| demo.clone())?,
        (None, None) => anyhow::bail!("give a scenario or --scene"),
    };
    let config = ViewerConfig {
        host: args.host,
        port: args.port,
        steps_per_second: args.steps_per_second,
        playing: !args.paused,
    };
    swerve_viewer::serve_blocking(scene, config).context("viewer")?;
    Ok(())
}
