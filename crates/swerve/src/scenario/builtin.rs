//! The built-in scenarios: the files of `scenarios/` compiled into the library, so that
//! `swerve run circle` (and Python, and the viewer) work from any directory.

/// A built-in scenario file.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// The name `swerve run` takes (the file's `name` key).
    pub name: &'static str,
    /// The TOML text.
    pub text: &'static str,
}

/// Every built-in scenario, in the order `swerve list` prints them.
pub const BUILTINS: &[Builtin] = &[
    Builtin { name: "circle", text: include_str!("../../../../scenarios/circle.toml") },
    Builtin { name: "blocks", text: include_str!("../../../../scenarios/blocks.toml") },
    Builtin { name: "roadmap", text: include_str!("../../../../scenarios/roadmap.toml") },
    Builtin { name: "bottleneck", text: include_str!("../../../../scenarios/bottleneck.toml") },
    Builtin { name: "crossing", text: include_str!("../../../../scenarios/crossing.toml") },
    Builtin { name: "door", text: include_str!("../../../../scenarios/door.toml") },
    Builtin { name: "patrol", text: include_str!("../../../../scenarios/patrol.toml") },
    Builtin { name: "head-on", text: include_str!("../../../../scenarios/head-on.toml") },
    Builtin { name: "convoy", text: include_str!("../../../../scenarios/convoy.toml") },
    Builtin { name: "ball-pit", text: include_str!("../../../../scenarios/ball-pit.toml") },
    Builtin { name: "seed-003", text: include_str!("../../../../scenarios/seed-003.toml") },
    Builtin { name: "galton", text: include_str!("../../../../scenarios/galton.toml") },
    Builtin { name: "sandpile", text: include_str!("../../../../scenarios/sandpile.toml") },
    Builtin { name: "hourglass3d", text: include_str!("../../../../scenarios/hourglass3d.toml") },
    Builtin { name: "window3d", text: include_str!("../../../../scenarios/window3d.toml") },
    Builtin { name: "slalom3d", text: include_str!("../../../../scenarios/slalom3d.toml") },
];

/// The TOML text of the built-in called `name`.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTINS.iter().find(|b| b.name == name).map(|b| b.text)
}
