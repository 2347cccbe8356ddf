//! Handles sharing memory (clones, views, jagged values) used from several threads at once: the
//! storage's lock makes every read see one whole written value, never a mix of two writes.
use nanograph::{DType, Error, Graph, Jagged, Shape, Tensor, Transformer};
use std::thread;

type R = Result<(), Error>;

const N: usize = 1 << 16; // large enough that an unlocked read would overlap a write
const WRITES: i32 = 100;

/// Every element equal, and to a value some write put there (0 before the first).
fn whole(v: &[f32]) {
    assert!(
        v.iter().all(|&e| e == v[0]),
        "a read saw two writes: {} and {}",
        v[0],
        v.iter().find(|&&e| e != v[0]).unwrap()
    );
    assert!(
        v[0] >= 0.0 && v[0] <= WRITES as f32 && v[0].fract() == 0.0,
        "read {}",
        v[0]
    );
}

/// One thread writes 1, 2, ... through `w`; this one reads through `read` until the last value.
fn hammer(mut w: Tensor, mut read: impl FnMut() -> Result<Vec<f32>, Error>) -> R {
    let writer = thread::spawn(move || -> R {
        for k in 1..=WRITES {
            w.write(&vec![k as f32; N])?;
        }
        Ok(())
    });
    loop {
        let v = read()?;
        whole(&v);
        if v[0] == WRITES as f32 {
            break;
        }
        thread::yield_now(); // a lock that prefers readers lets the writer in sooner
    }
    writer.join().unwrap()
}

#[test]
fn clones_on_two_threads() -> R {
    let t = Tensor::zeros(DType::Float32, &[N as i64])?;
    hammer(t.clone(), || t.to_vec::<f32>())?;
    hammer(t.clone(), || Ok(t.as_slice::<f32>()?.to_vec()))
}

#[test]
fn views_on_two_threads() -> R {
    let t = Tensor::zeros(DType::Float32, &[2, N as i64 / 2])?;
    hammer(t.reshape(&[N as i64])?, || t.to_vec::<f32>())?;
    // Strided views: the written one runs backwards over the reshaped memory.
    let back = t.reshape(&[N as i64])?.slice(0, -1, -(N as i64) - 1, -1)?;
    hammer(back, || t.transpose()?.to_vec::<f32>())
}

#[test]
fn jagged_values_on_two_threads() -> R {
    let shape = Shape::smooth(&[N as i64])?;
    let j = Jagged::zeros(DType::Float32, &shape)?;
    hammer(j.values()?, || j.to_vec::<f32>())?;
    let mut w = j.slice(0, N as i64)?;
    let writer = thread::spawn(move || -> R {
        for k in 1..=WRITES {
            w.write(&vec![k as f32; N])?;
        }
        Ok(())
    });
    loop {
        let v = j.clone().values()?.to_vec::<f32>()?;
        whole(&v);
        if v[0] == WRITES as f32 {
            break;
        }
        thread::yield_now();
    }
    writer.join().unwrap()
}

#[test]
fn runs_read_inputs_whole() -> R {
    let g = Graph::new()?;
    let x = g.placeholder(DType::Float32, &[g.axis("N", N as i64)?], None)?;
    let mut f = Transformer::new(None)?.computation(&[g.add(x, g.scalar(0.0)?)?], &[x])?;
    let t = Tensor::zeros(DType::Float32, &[N as i64])?;
    hammer(t.clone(), || f.run(&[&t])?[0].to_vec::<f32>())?;
    // The same storage as two inputs' and the output's (x = f(x) in place): locked once.
    let g2 = Graph::new()?;
    let n = g2.axis("N", N as i64)?;
    let (a, b) = (
        g2.placeholder(DType::Float32, &[n], None)?,
        g2.placeholder(DType::Float32, &[n], None)?,
    );
    let mut sum = Transformer::new(None)?.computation(&[g2.add(a, b)?], &[a, b])?;
    let mut out = t.slice(0, 0, N as i64, 1)?;
    sum.run_into(&[&t, &t.clone()], &mut [&mut out])?;
    assert_eq!(t.to_vec::<f32>()?, vec![2.0 * WRITES as f32; N]);
    Ok(())
}
