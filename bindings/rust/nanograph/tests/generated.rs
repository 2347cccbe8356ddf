//! One generated builder (src/ops_generated.rs) of each argument pattern, run and compared with
//! values computed by hand; bad input comes back as an `Err` with the library's status.
use nanograph::{DType, Error, Graph, Slice, Status, Tensor, Transformer, FLAG_PERSISTENT};

type R = Result<(), Error>;

#[test]
fn generated_builders_of_each_pattern() -> R {
    let g = Graph::new()?;
    let (a, b, c, s) = (
        g.axis("A", 2)?,
        g.axis("B", 3)?,
        g.axis("C", 4)?,
        g.axis("S", 2)?,
    );
    let x = g.placeholder(DType::Float32, &[a, b], None)?; // dtype, axes, optional op
    let splits = g.constant(&[g.axis("S1", 3)?], &[0i64, 1, 3])?;
    let results = [
        g.absolute(x)?,                                 // op
        g.subtract(x, g.scalar(10.0)?)?,                // op, op; double
        g.sum(x, &[b])?,                                // op, axes
        g.argmax(x, b)?,                                // op, axis
        g.expand_dims(x, c, 0)?,                        // op, axis, i32
        g.cast(x, DType::Int32)?,                       // op, dtype
        g.pad(x, &[1, 0], &[0, 1])?,                    // two lists, one count
        g.flatten(x, &[a, b], "AB")?,                   // op, axes, string
        g.concat(&[x, x], "B")?,                        // ops, string
        g.stack(&[x, x], s, 0)?,                        // ops, axis, i32
        g.segment_sum(x, b, splits, s)?,                // op, axis, op, axis
        g.uniform(DType::Float32, &[a], 0.25, 0.5, 3)?, // dtype, axes, f64, u64
        g.slice(
            x,
            &[
                Slice::Index(1),
                Slice::Range {
                    start: 0,
                    stop: 3,
                    step: 2,
                },
            ],
        )?, // slices
        g.assignable_tensor(
            DType::Float64,
            &[],
            FLAG_PERSISTENT,
            Some(g.scalar_of(DType::Float64, 2.5)?),
        )?, // dtype, axes, u32, optional op
    ];
    let t = Transformer::new(None)?;
    let mut f = t.computation(&results, &[x])?;
    let xs = [1f32, -2., 3., 4., 5., -6.];
    let out = f.run(&[&Tensor::from_slice(&xs, &[2, 3])?])?;
    assert_eq!(out[0].to_vec::<f32>()?, vec![1., 2., 3., 4., 5., 6.]);
    assert_eq!(
        out[1].to_vec::<f32>()?,
        vec![-9., -12., -7., -6., -5., -16.]
    );
    assert_eq!(out[2].to_vec::<f32>()?, vec![2., 3.]);
    assert_eq!(out[3].to_vec::<i64>()?, vec![2, 1]);
    assert_eq!(out[4].to_vec::<f32>()?, xs.repeat(4));
    assert_eq!(out[5].to_vec::<i32>()?, vec![1, -2, 3, 4, 5, -6]);
    let padded = [0., 0., 0., 0., 1., -2., 3., 0., 4., 5., -6., 0.];
    assert_eq!(out[6].to_vec::<f32>()?, padded.to_vec());
    assert_eq!(out[7].to_vec::<f32>()?, xs.to_vec());
    let concat = [1., -2., 3., 1., -2., 3., 4., 5., -6., 4., 5., -6.];
    assert_eq!(out[8].to_vec::<f32>()?, concat.to_vec());
    assert_eq!(out[9].to_vec::<f32>()?, xs.repeat(2));
    // B's segments {0} and {1, 2}, per row of A: axes (S, A).
    assert_eq!(out[10].to_vec::<f32>()?, vec![1., 4., 1., -1.]);
    assert!(out[11]
        .to_vec::<f32>()?
        .iter()
        .all(|&v| (0.25..0.5).contains(&v)));
    assert_eq!(out[12].to_vec::<f32>()?, vec![4., -6.]);
    assert_eq!(out[13].to_vec::<f64>()?, vec![2.5]);
    Ok(())
}

#[test]
fn generated_builders_report_errors() -> R {
    let g = Graph::new()?;
    let a = g.axis("A", 2)?;
    let x = g.placeholder(DType::Float32, &[a], None)?;
    let e = g.reshape(x, &[g.axis("P", 3)?]).unwrap_err();
    assert_eq!(e.status, Status::Axes);
    assert!(e.message.contains("reshape"), "{}", e.message);
    let e = g.pad(x, &[1], &[1, 2]).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    assert!(e.message.contains("pad"), "{}", e.message);
    let other = Graph::new()?;
    let e = other.exp(x).unwrap_err(); // an op of another graph
    assert_eq!(e.status, Status::InvalidArgument);
    Ok(())
}
