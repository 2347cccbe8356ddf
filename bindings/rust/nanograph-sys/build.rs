// Links libnanograph: from NANOGRAPH_LIB_DIR when set (a build tree such as build/release),
// otherwise wherever the linker finds it (an installed library).
fn main() {
    println!("cargo:rerun-if-env-changed=NANOGRAPH_LIB_DIR");
    if let Ok(dir) = std::env::var("NANOGRAPH_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
    }
    println!("cargo:rustc-link-lib=dylib=nanograph");
}
