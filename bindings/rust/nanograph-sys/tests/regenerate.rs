//! Regenerating the declarations from the headers gives the committed file.
use std::path::Path;
use std::process::Command;

#[test]
fn regeneration_gives_the_committed_file() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if Command::new("bindgen").arg("--version").output().is_err() {
        eprintln!("SKIPPED: bindgen is not installed (apt-get install bindgen): the committed src/bindings.rs is not checked against the headers");
        return;
    }
    let out = std::env::temp_dir().join(format!("nanograph-bindings-{}.rs", std::process::id()));
    let status = Command::new("sh")
        .arg(here.join("generate.sh"))
        .arg(&out)
        .status()
        .expect("running generate.sh");
    assert!(status.success(), "generate.sh failed");
    let fresh = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let committed = std::fs::read_to_string(here.join("src/bindings.rs")).unwrap();
    assert!(
        fresh == committed,
        "src/bindings.rs is out of date with the headers: run bindings/rust/nanograph-sys/generate.sh"
    );
}
