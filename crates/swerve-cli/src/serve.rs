//! `swerve serve SCENARIO`: the live browser viewer on any scenario, planar or 3-D (crate
//! `swerve-viewer`), or on one of the viewer's demo scenes (`--scene circle|crossing|obstacles|
//! balls|ball-pit|pit3d|hourglass3d|towers3d|sphere3d`, sized by `--count`), which the browser
//! tests use.

use anyhow::{Context, Result};
use std::net::IpAddr;
use swerve_viewer::{LiveScene, Orca3dScene, ViewerConfig};

/// Arguments of `swerve serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// A scenario file or a built-in name (`swerve list`); 3-D files (a `[spheres]` or
    /// `[crowd3d]` table) too.
    #[arg(required_unless_present = "scene", conflicts_with = "scene")]
    scenario: Option<String>,
    /// Serve one of the viewer's demo scenes instead: circle, crossing, obstacles, balls,
    /// ball-pit, and in 3-D pit3d (a pour of spheres), hourglass3d (the 3-D scenario),
    /// towers3d (drones through a field of towers, as `swerve towers` runs it) and sphere3d
    /// (RVO2-3D's Sphere example, as `swerve sphere` runs it).
    #[arg(long)]
    scene: Option<String>,
    /// Size of the demo scene (agents or balls or spheres).
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

/// The demo scene the CLI builds itself: RVO2-3D's Sphere example lives in `swerve sphere`.
const SPHERE3D: &str = "sphere3d";

/// RVO2-3D's Sphere example with `agents` agents (`swerve sphere`'s crowd and rule).
fn sphere3d(agents: usize) -> Result<Box<dyn LiveScene>> {
    crate::sphere::check_agents(agents, "--count")?;
    let crowd = crate::sphere::crowd(agents, swerve::orca3d::Extensions::default())?;
    let name = format!("sphere3d (RVO2-3D's Sphere example, {agents} agents)");
    Ok(Box::new(Orca3dScene::new(name, crowd.sim, crowd.goals, swerve::reference::preferred_velocity_toward3d)?))
}

/// A demo scene by name: the viewer's ([`swerve_viewer::scenes::NAMES`]) or [`SPHERE3D`].
fn demo_scene(name: &str, count: Option<usize>) -> Result<Box<dyn LiveScene>> {
    if name == SPHERE3D {
        return sphere3d(count.unwrap_or(400));
    }
    if !swerve_viewer::scenes::NAMES.contains(&name) {
        anyhow::bail!("unknown scene {name:?}; known: {}, {SPHERE3D}", swerve_viewer::scenes::NAMES.join(", "));
    }
    Ok(swerve_viewer::scenes::by_name(name, count)?)
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
    let scene: Box<dyn LiveScene> = match (&args.scenario, &args.scene) {
        (Some(name), _) => {
            let scenario = crate::load_any_scenario(name)?;
            swerve_viewer::scenario_scene::scene_of(scenario).with_context(|| name.clone())?
        }
        (None, Some(demo)) => demo_scene(demo, args.count).with_context(|| demo.clone())?,
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
