//! Writes an ORCA benchmark scene as JSON for the peer scripts.
//!
//! `cargo run --release -p swerve-bench --example orca_scene_json -- jgrid 100000 > scene.json`

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let parsed = (args.len() == 3).then(|| args[2].parse::<usize>().ok()).flatten();
    let Some(scene) = parsed.and_then(|n| swerve_bench::orca::Scene::by_name(&args[1], n)) else {
        eprintln!("usage: orca_scene_json FAMILY N   (FAMILY: jgrid, circle, blocks)");
        std::process::exit(2)
    };
    println!("{}", scene.to_peer_json());
}
