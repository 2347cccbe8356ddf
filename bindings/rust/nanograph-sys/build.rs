// Links libnanograph, found in this order:
// 1. NANOGRAPH_LIB_DIR, a folder holding libnanograph.so (a build tree such as build/release);
// 2. pkg-config's nanograph.pc: an installed library (a prefix of your own through
//    PKG_CONFIG_PATH=<prefix>/lib/pkgconfig); the `pkg-config` program is run directly, so the
//    crate needs nothing from a registry;
// 3. otherwise the library is built with CMake from the sources this crate sits in
//    (bindings/rust/nanograph-sys in a clone of the repository), under Cargo's OUT_DIR.
// A program linked with a library outside the loader's paths runs with LD_LIBRARY_PATH set to
// the library's folder (or an rpath); build.rs prints that folder as a warning in case 3.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=NANOGRAPH_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if let Ok(dir) = env::var("NANOGRAPH_LIB_DIR") {
        link(&[format!("-L{}", dir), "-lnanograph".to_string()]);
    } else if let Some(flags) = pkg_config_libs() {
        link(&flags);
    } else {
        let dir = build_with_cmake();
        println!(
            "cargo:warning=libnanograph built in {}: run with LD_LIBRARY_PATH={0}",
            dir.display()
        );
        link(&[format!("-L{}", dir.display()), "-lnanograph".to_string()]);
    }
}

/// Passes `-L` and `-l` flags on to rustc; the library must be among them.
fn link(flags: &[String]) {
    let mut linked = false;
    for flag in flags {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={}", lib);
            linked |= lib == "nanograph";
        }
    }
    if !linked {
        println!("cargo:rustc-link-lib=dylib=nanograph");
    }
}

/// `pkg-config --libs nanograph` split into flags, or None where pkg-config or the .pc is missing.
fn pkg_config_libs() -> Option<Vec<String>> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let output = Command::new(program)
        .args(["--libs", "nanograph"])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    Some(text.split_whitespace().map(str::to_string).collect())
}

/// Builds the library alone (no tests, examples, benchmarks or docs) and returns its folder.
fn build_with_cmake() -> PathBuf {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let source = manifest.join("../../..");
    if !source.join("CMakeLists.txt").is_file() || !source.join("include/nanograph").is_dir() {
        panic!(
            "libnanograph not found: no NANOGRAPH_LIB_DIR, no nanograph.pc for pkg-config \
             (set PKG_CONFIG_PATH=<prefix>/lib/pkgconfig), and no sources at {} to build it from",
            source.display()
        );
    }
    for watched in ["src", "capi", "include", "CMakeLists.txt", "cmake"] {
        println!("cargo:rerun-if-changed={}", source.join(watched).display());
    }
    let build = PathBuf::from(env::var("OUT_DIR").unwrap()).join("libnanograph");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&source)
        .arg("-B")
        .arg(&build)
        .args([
            "-DCMAKE_BUILD_TYPE=Release",
            "-DNG_BUILD_TESTS=OFF",
            "-DNG_BUILD_EXAMPLES=OFF",
            "-DNG_BUILD_BENCH=OFF",
            "-DNG_BUILD_DOCS=OFF",
        ]));
    run(Command::new("cmake")
        .arg("--build")
        .arg(&build)
        .args(["--target", "nanograph"]));
    build
}

fn run(command: &mut Command) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {}", command, e));
    assert!(status.success(), "{:?} failed ({})", command, status);
}
