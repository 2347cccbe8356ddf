//! A multilayer perceptron (64-128-10, ReLU, softmax cross-entropy, Adam) on the 8x8 digits of
//! examples/data/digits.csv.gz: 64 pixel values (0-16) and the label per line; every fifth example
//! is held out. The file is gzip-compressed and the standard library has no inflater, so the
//! example reads it through `gzip -dc`.
//!
//!     cargo run --example mlp_digits [-- EPOCHS [PATH]]
use nanograph::{AdamOptions, DType, Graph, Tensor, Transformer};
use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let epochs: usize = args.get(1).map_or(Ok(10), |s| s.parse())?;
    let path = args.get(2).cloned().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../examples/data/digits.csv.gz"
        )
        .to_string()
    });
    let text = String::from_utf8(Command::new("gzip").arg("-dc").arg(&path).output()?.stdout)?;
    let (mut train_x, mut train_y, mut test_x, mut test_y) = (vec![], vec![], vec![], vec![]);
    for (i, line) in text.lines().enumerate() {
        let v: Vec<f32> = line
            .split(',')
            .map(|s| s.trim().parse())
            .collect::<Result<_, _>>()?;
        let (x, y) = if i % 5 == 0 {
            (&mut test_x, &mut test_y)
        } else {
            (&mut train_x, &mut train_y)
        };
        x.extend(v[..64].iter().map(|p| p / 16.0));
        y.push(v[64] as i32);
    }
    const BATCH: usize = 32;
    let g = Graph::new()?;
    let (n, p, h, c) = (
        g.axis("N", BATCH as i64)?,
        g.axis("P", 64)?,
        g.axis("H", 128)?,
        g.axis("C", 10)?,
    );
    let t_ax = g.axis("T", test_y.len() as i64)?;
    let w1 = g.variable(
        DType::Float32,
        &[p, h],
        Some(g.he_normal(DType::Float32, &[p, h], &[p], 1)?),
    )?;
    let b1 = g.variable(DType::Float32, &[h], None)?;
    let w2 = g.variable(
        DType::Float32,
        &[h, c],
        Some(g.glorot_uniform(DType::Float32, &[h, c], &[h], 2)?),
    )?;
    let b2 = g.variable(DType::Float32, &[c], None)?;
    let logits = |input| -> Result<_, nanograph::Error> {
        let hidden = g.relu(g.add(g.dot(input, w1)?, b1)?)?;
        g.add(g.dot(hidden, w2)?, b2)
    };
    let x = g.placeholder(DType::Float32, &[n, p], None)?;
    let label = g.placeholder(DType::Int32, &[n], None)?;
    let probs = g.softmax(logits(x)?, &[c])?;
    let cost = g.mean(
        g.cross_entropy_multi(probs, g.one_hot(label, c, DType::Float32)?, &[c])?,
        &[],
    )?;
    let lr = g.persistent_tensor(DType::Float32, &[], Some(g.scalar(0.005)?))?;
    let step = g.adam(cost, lr, &AdamOptions::default())?;
    let xt = g.placeholder(DType::Float32, &[t_ax, p], None)?;
    let predict = g.argmax(logits(xt)?, c)?;

    let mut t = Transformer::new(None)?;
    let mut train = t.computation(&[step], &[x, label])?;
    let mut evaluate = t.computation(&[predict], &[xt])?;
    let test_tensor = Tensor::from_vec(test_x, &[test_y.len() as i64, 64])?;
    let (mut xb, mut yb) = (
        Tensor::zeros(DType::Float32, &[BATCH as i64, 64])?,
        Tensor::zeros(DType::Int32, &[BATCH as i64])?,
    );
    let mut order: Vec<usize> = (0..train_y.len()).collect();
    let mut seed = 7u64;
    let mut rate = 0.005f32;
    for epoch in 1..=epochs {
        for i in (1..order.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            order.swap(i, (seed >> 33) as usize % (i + 1));
        }
        let (mut total, mut steps) = (0.0, 0);
        for chunk in order.chunks_exact(BATCH) {
            // The batch tensors are written in place: no tensor is allocated per step.
            let xs: Vec<f32> = chunk
                .iter()
                .flat_map(|&e| train_x[64 * e..64 * e + 64].iter().copied())
                .collect();
            let ys: Vec<i32> = chunk.iter().map(|&e| train_y[e]).collect();
            xb.write(&xs)?;
            yb.write(&ys)?;
            total += train.run(&[&xb, &yb])?[0].as_slice::<f32>()?[0];
            steps += 1;
        }
        let pred = evaluate.run(&[&test_tensor])?;
        let right = pred[0]
            .as_slice::<i64>()?
            .iter()
            .zip(&test_y)
            .filter(|(p, y)| **p == **y as i64)
            .count();
        println!(
            "epoch {:2}  cost {:.4}  test accuracy {:.3}",
            epoch,
            total / steps as f32,
            right as f64 / test_y.len() as f64
        );
        rate *= 0.85;
        t.set_value(lr, &Tensor::from_slice(&[rate], &[])?)?;
    }
    Ok(())
}
