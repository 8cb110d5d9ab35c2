//! `include/swerve.h` is what cbindgen makes of the crate's source today.

use std::path::Path;

#[test]
fn the_checked_in_header_is_generated_from_the_source() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    // lib.rs leads cbindgen to the modules it declares.
    let builder = cbindgen::Builder::new().with_config(config).with_src(crate_dir.join("src/lib.rs"));
    let mut generated = Vec::new();
    builder.generate().expect("cbindgen parses the crate").write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8");

    let header = crate_dir.join("include/swerve.h");
    if std::env::var_os("SWERVE_BLESS").is_some() {
        std::fs::write(&header, &generated).expect("write include/swerve.h");
    }
    let checked_in = std::fs::read_to_string(&header).unwrap_or_default();
    assert!(
        checked_in == generated,
        "include/swerve.h is stale: run `SWERVE_BLESS=1 cargo test -p swerve-c --test header` and commit it"
    );
    // Every exported function made it into the header, once (cbindgen skips what it cannot
    // see, such as functions made by macros).
    let mut exported = 0;
    for entry in std::fs::read_dir(crate_dir.join("src")).expect("src/") {
        let source = std::fs::read_to_string(entry.expect("a source file").path()).expect("source");
        for line in source.lines() {
            let Some(rest) = line.split("extern \"C\" fn ").nth(1) else { continue };
            let name = rest.split('(').next().expect("a name");
            exported += 1;
            let declared =
                generated.matches(&format!(" {name}(")).count() + generated.matches(&format!("*{name}(")).count();
            assert_eq!(declared, 1, "{name} is declared {declared} times in the header");
        }
    }
    assert!(exported > 40, "only {exported} exported functions found");
}

#[test]
fn the_checked_in_csharp_bindings_are_generated_from_the_source() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // csbindgen writes to a file: a fresh one per run, compared with the checked-in copy.
    let out = std::env::temp_dir().join(format!("swerve-c-{}-NativeMethods.g.cs", std::process::id()));
    csbindgen::Builder::default()
        .input_extern_file(crate_dir.join("src/status.rs"))
        .input_extern_file(crate_dir.join("src/orca.rs"))
        .input_extern_file(crate_dir.join("src/orca3d.rs"))
        .input_extern_file(crate_dir.join("src/balls.rs"))
        .input_extern_file(crate_dir.join("src/balls3d.rs"))
        .csharp_dll_name("swerve_c")
        .csharp_namespace("Swerve.Native")
        .csharp_class_name("NativeMethods")
        // UIntPtr for size_t rather than C# 9's nuint: Unity's and Mono's compilers take it.
        .csharp_use_nint_types(false)
        .generate_csharp_file(&out)
        .expect("csbindgen parses the crate");
    let generated = std::fs::read_to_string(&out).expect("the generated file");
    let _ = std::fs::remove_file(&out);

    let bindings = crate_dir.join("csharp/Swerve/NativeMethods.g.cs");
    if std::env::var_os("SWERVE_BLESS").is_some() {
        std::fs::write(&bindings, &generated).expect("write csharp/Swerve/NativeMethods.g.cs");
    }
    let checked_in = std::fs::read_to_string(&bindings).unwrap_or_default();
    assert!(
        checked_in == generated,
        "csharp/Swerve/NativeMethods.g.cs is stale: run `SWERVE_BLESS=1 cargo test -p swerve-c --test header` and commit it"
    );
    // Every function of the crowd simulators and the ball worlds made it in, once.
    for file in ["src/orca.rs", "src/orca3d.rs", "src/balls.rs", "src/balls3d.rs", "src/status.rs"] {
        let source = std::fs::read_to_string(crate_dir.join(file)).expect("source");
        for rest in source.lines().filter_map(|line| line.split("extern \"C\" fn ").nth(1)) {
            let name = rest.split('(').next().expect("a name");
            let declared = generated.matches(&format!("EntryPoint = \"{name}\"")).count();
            assert_eq!(declared, 1, "{name} is declared {declared} times in the C# bindings");
        }
    }
}
