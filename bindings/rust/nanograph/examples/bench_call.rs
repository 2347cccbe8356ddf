//! The fixed cost of one run of a + b (four floats) from Rust, in microseconds per run: prepared
//! input tensors, a new result tensor per run (bench/bindings.sh reports it next to C's).
//!
//!     cargo run --release --example bench_call [-- RUNS]
use nanograph::{DType, Graph, Tensor, Transformer};
use std::time::Instant;

fn main() -> Result<(), nanograph::Error> {
    let runs: u32 = std::env::args()
        .nth(1)
        .map_or(200_000, |s| s.parse().expect("RUNS"));
    let g = Graph::new()?;
    let n = g.axis("N", 4)?;
    let (a, b) = (
        g.placeholder(DType::Float32, &[n], None)?,
        g.placeholder(DType::Float32, &[n], None)?,
    );
    let t = Transformer::new(None)?;
    let mut f = t.computation(&[g.add(a, b)?], &[a, b])?;
    let (av, bv) = (
        Tensor::from_slice(&[1f32, 2., 3., 4.], &[4])?,
        Tensor::from_slice(&[10f32, 20., 30., 40.], &[4])?,
    );
    for _ in 0..1000 {
        f.run(&[&av, &bv])?;
    }
    let start = Instant::now();
    for _ in 0..runs {
        f.run(&[&av, &bv])?;
    }
    println!(
        "Rust    {:8.2} us/run  ({} runs)",
        start.elapsed().as_secs_f64() * 1e6 / runs as f64,
        runs
    );
    Ok(())
}
