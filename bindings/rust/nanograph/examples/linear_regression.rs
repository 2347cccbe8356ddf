//! Linear regression trained with deriv: gradient descent written as ops (w <- w - lr * dcost/dw),
//! so one run of the computation is one step.
use nanograph::{DType, Graph, Tensor, Transformer};

fn main() -> Result<(), nanograph::Error> {
    const N: usize = 128;
    // A small deterministic generator, so the example needs no crate.
    let mut state = 12345u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as f64 / (1u64 << 31) as f64) * 2.0 - 1.0
    };
    let mut xs = vec![0f32; N * 3];
    let mut ys = vec![0f32; N];
    for i in 0..N {
        for j in 0..3 {
            xs[3 * i + j] = next() as f32;
        }
        ys[i] = 2.0 * xs[3 * i] - 3.0 * xs[3 * i + 1] + 0.5 * xs[3 * i + 2] + 1.0;
    }

    let g = Graph::new()?;
    let (b, f) = (g.axis("B", N as i64)?, g.axis("F", 3)?);
    let x = g.placeholder(DType::Float32, &[b, f], None)?;
    let y = g.placeholder(DType::Float32, &[b], None)?;
    let w = g.variable(DType::Float32, &[f], None)?;
    let bias = g.variable(DType::Float32, &[], None)?;
    let cost = g.mean(g.square(g.subtract(g.add(g.dot(x, w)?, bias)?, y)?)?, &[])?;
    let lr = g.scalar(0.3)?;
    let update = |v| -> Result<_, nanograph::Error> {
        let step = g.multiply(lr, g.deriv(cost, v)?)?;
        g.assign(v, g.subtract(v, step)?)
    };
    let train = g.sequential(&[update(w)?, update(bias)?, cost])?;

    let t = Transformer::new(None)?;
    let mut f = t.computation(&[train], &[x, y])?;
    let (xt, yt) = (
        Tensor::from_vec(xs, &[N as i64, 3])?,
        Tensor::from_vec(ys, &[N as i64])?,
    );
    for i in 0..300 {
        let out = f.run(&[&xt, &yt])?;
        if i % 50 == 0 {
            println!("step {:3}  cost {:.6}", i, out[0].as_slice::<f32>()?[0]);
        }
    }
    println!(
        "w = {:?}  b = {:.4}  (true: [2, -3, 0.5], 1)",
        t.get_value(w)?.to_vec::<f32>()?,
        t.get_value(bias)?.to_vec::<f32>()?[0]
    );
    Ok(())
}
