//! Building the C and C++ test programs: warnings as errors, linked against the library
//! cargo built for this test run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where cargo put `libswerve_c.a` and `libswerve_c.so` for this test run: beside the test
/// executable (cargo builds every crate type of the library before its tests).
pub fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable");
    let dir = exe.parent().expect("its folder").to_path_buf();
    assert!(dir.join("libswerve_c.a").exists(), "no libswerve_c.a in {}", dir.display());
    dir
}

/// How a program gets swerve.
#[allow(dead_code)] // each test file uses some
pub enum Link {
    /// `libswerve_c.a`.
    Static,
    /// `libswerve_c.so`, found at run time through the program's rpath.
    Shared,
    /// Not at all (a program built against RVO2 itself).
    None,
}

/// A compiled test program; its folder is removed when it is dropped.
pub struct Program {
    dir: PathBuf,
    pub path: PathBuf,
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Compiles `sources` with `compiler` (`cc` or `c++`) for language standard `std`, warnings
/// as errors, with `include` on the include path, into a fresh folder named by `label`.
pub fn build(compiler: &str, std: &str, sources: &[PathBuf], include: &Path, link: Link, label: &str) -> Program {
    // Numbered too: tests running at once may build the same program, and each removes its
    // folder when done.
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let number = BUILDS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("swerve-c-{}-{number}-{label}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a build folder");
    let path = dir.join("program");
    let mut command = Command::new(compiler);
    command
        .arg(format!("-std={std}"))
        .args(["-O2", "-ffp-contract=off"])
        .arg("-I")
        .arg(include)
        .args(sources)
        .arg("-o")
        .arg(&path);
    if !matches!(link, Link::None) {
        // RVO2's own sources are not ours to hold to -Werror.
        command.args(["-Wall", "-Wextra", "-Werror", "-pedantic"]);
    }
    match link {
        Link::Static => {
            // What `--print native-static-libs` lists for this crate on Linux.
            command.arg(library_dir().join("libswerve_c.a")).args([
                "-lgcc_s",
                "-lutil",
                "-lrt",
                "-lpthread",
                "-lm",
                "-ldl",
            ]);
        }
        Link::Shared => {
            let libs = library_dir();
            // DT_RPATH (not RUNPATH) is searched before LD_LIBRARY_PATH, where cargo may have
            // put a folder with another build's libswerve_c.so (target/release, say).
            command
                .arg("-L")
                .arg(&libs)
                .arg("-lswerve_c")
                .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", libs.display()))
                .arg("-lm");
        }
        Link::None => {}
    }
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(output.status.success(), "{compiler} {label} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    Program { dir, path }
}

/// Builds `tests/c/SOURCE` against `include/swerve.h`; `cplusplus` compiles it as C++11
/// instead (`c++` reads a .c file as C++: the header must serve both).
#[allow(dead_code)] // not every test file builds C programs
pub fn build_c(source: &str, link: Link, cplusplus: bool) -> Program {
    let (compiler, std) = if cplusplus { ("c++", "c++11") } else { ("cc", "c99") };
    let kind = match link {
        Link::Static => "static",
        Link::Shared => "shared",
        Link::None => "none",
    };
    let path = crate_dir().join("tests/c").join(source);
    build(compiler, std, &[path], &crate_dir().join("include"), link, &format!("{compiler}-{kind}-{source}"))
}

/// Runs a checking program (tests/c/*errors*.c and the like): it must exit 0 and end with
/// "all checks passed"; otherwise the test fails with what it printed.
#[allow(dead_code)]
pub fn expect_all_checks_pass(program: &Program) {
    let output = Command::new(&program.path).output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "failed checks:\n{}{stdout}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout.lines().last(), Some("all checks passed"), "{stdout}");
}

/// Builds and runs the ```c example of README.md that contains `containing`; returns what
/// it printed and the numbers in it, in order.
#[allow(dead_code)]
pub fn run_readme_example(containing: &str, link: Link) -> (String, Vec<f32>) {
    let example = readme_block("c", containing);
    let dir = std::env::temp_dir().join(format!("swerve-c-{}-readme-{containing}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let source = dir.join("example.c");
    std::fs::write(&source, example).expect("write the example");
    let program = build("cc", "c99", &[source], &crate_dir().join("include"), link, &format!("readme-{containing}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(&program.path).output().expect("the example runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let numbers = numbers_in(&text);
    (text, numbers)
}

/// The ```LANGUAGE block of README.md that contains `containing`.
fn readme_block(language: &str, containing: &str) -> String {
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).expect("README.md");
    readme
        .split(&format!("```{language}\n"))
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .find(|block| block.contains(containing))
        .unwrap_or_else(|| panic!("a ```{language} block in README.md with {containing}"))
        .to_string()
}

/// The numbers in `text`, in order.
fn numbers_in(text: &str) -> Vec<f32> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|s| s.chars().any(|c| c.is_ascii_digit()))
        .map(|s| s.parse().unwrap_or_else(|_| panic!("a number: {s:?} in {text:?}")))
        .collect()
}

/// Builds (on swerve's C# sources) and runs the ```csharp example of README.md that
/// contains `containing`; returns what it printed and the numbers in it, in order.
#[allow(dead_code)]
pub fn run_readme_csharp_example(containing: &str) -> (String, Vec<f32>) {
    let example = readme_block("csharp", containing);
    let source = std::env::temp_dir().join(format!("swerve-cs-{}-readme-{containing}.cs", std::process::id()));
    std::fs::write(&source, example).expect("write the example");
    let program = build_csharp(&[source.to_str().expect("a UTF-8 path")], &format!("readme-{containing}"));
    let _ = std::fs::remove_file(&source);
    let text = run_program(&program.path, &[], "");
    let numbers = numbers_in(&text);
    (text, numbers)
}

/// Runs `program` with `args` and `input` on its standard input, as from a user's shell
/// (without the LD_LIBRARY_PATH cargo sets for tests, which names the build tree); it must
/// succeed. Its standard output.
#[allow(dead_code)]
pub fn run_program(program: &Path, args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .env_remove("LD_LIBRARY_PATH")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write the input");
    let output = child.wait_with_output().expect("the program ends");
    assert!(output.status.success(), "{} failed:\n{}", program.display(), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// `actual` (a C program's output) is `expected`, line for line.
#[allow(dead_code)]
pub fn assert_same_lines<S: AsRef<str>>(label: &str, actual: &str, expected: &[S]) {
    for (n, (a, e)) in actual.lines().zip(expected).enumerate() {
        assert_eq!(a, e.as_ref(), "{label}: line {} differs (C, then Rust)", n + 1);
    }
    assert_eq!(actual.lines().count(), expected.len(), "{label}: the C program printed a different number of lines");
}

/// Compiles swerve's C# sources (`csharp/Swerve`, `csharp/RVO`) with the test programs
/// `tests/cs/SOURCES` into a Mono executable, as C# 5 with warnings as errors, beside a copy of the
/// `libswerve_c.so` cargo built (where Mono's DllImport looks first, as a game would ship it).
/// The returned program is a shell script that runs it, so the helpers above run it as they
/// run a C program. Needs Mono's C# compiler and runtime (Debian's `mono-mcs`, `mono-runtime`
/// and `libmono-system-numerics-vectors4.0-cil`, which scripts/test installs).
#[allow(dead_code)]
pub fn build_csharp(sources: &[&str], label: &str) -> Program {
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let number = BUILDS.fetch_add(1, Ordering::Relaxed);
    let label: String = label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let dir = std::env::temp_dir().join(format!("swerve-cs-{}-{number}-{label}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a build folder");
    let mut files = Vec::new();
    for folder in ["csharp/Swerve", "csharp/RVO"] {
        let mut cs: Vec<PathBuf> = std::fs::read_dir(crate_dir().join(folder))
            .expect("the C# sources")
            .map(|entry| entry.expect("a file").path())
            .filter(|path| path.extension().is_some_and(|e| e == "cs"))
            .collect();
        cs.sort();
        files.extend(cs);
    }
    files.extend(sources.iter().map(|s| crate_dir().join("tests/cs").join(s)));
    let exe = dir.join("program.exe");
    let output = Command::new("mcs")
        // C# 5: what the sources promise (README), so that older Unity versions take them.
        .args(["-langversion:5", "-unsafe", "-warnaserror", "-r:System.Numerics", "-r:System.Numerics.Vectors"])
        .arg(format!("-out:{}", exe.display()))
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run mcs ({e}): install mono-mcs, mono-runtime and libmono-system-numerics-vectors4.0-cil (scripts/test does)"));
    assert!(
        output.status.success(),
        "mcs {label} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::copy(library_dir().join("libswerve_c.so"), dir.join("libswerve_c.so")).expect("copy libswerve_c.so");
    let path = dir.join("program");
    std::fs::write(&path, format!("#!/bin/sh\nexec mono --debug '{}' \"$@\"\n", exe.display())).expect("the launcher");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("make it executable");
    Program { dir, path }
}
