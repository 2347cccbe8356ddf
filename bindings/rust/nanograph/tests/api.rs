use nanograph::{
    AdamOptions, DType, Error, Graph, SgdOptions, Slice, Status, Tensor, Transformer, FLAG_INPUT,
    FLAG_PERSISTENT,
};

type R = Result<(), Error>;

#[test]
fn first_program() -> R {
    let g = Graph::new()?;
    let n = g.axis("N", 4)?;
    let x = g.placeholder(DType::Float32, &[n], None)?;
    let y = g.placeholder(DType::Float32, &[n], None)?;
    let cost = g.sum(g.square(g.subtract(x, y)?)?, &[])?;
    let dx = g.deriv(cost, x)?;
    let t = Transformer::new(None)?;
    let mut f = t.computation(&[cost, dx], &[x, y])?;
    let xv = Tensor::from_slice(&[1f32, 2., 3., 4.], &[4])?;
    let out = f.run(&[&xv, &Tensor::zeros(DType::Float32, &[4])?])?;
    assert_eq!(out[0].to_vec::<f32>()?, vec![30.0]);
    assert_eq!(&out[1].as_slice::<f32>()?[..], &[2.0, 4.0, 6.0, 8.0]);
    assert_eq!((f.num_params(), f.num_results()), (2, 2));
    Ok(())
}

#[test]
fn ops_against_hand_computed_values() -> R {
    let g = Graph::new()?;
    let (a, b) = (g.axis("A", 2)?, g.axis("B", 3)?);
    let x = g.placeholder(DType::Float64, &[a, b], None)?;
    let w = g.constant(&[b], &[1.0f64, 0.5, -1.0])?;
    let results = [
        g.dot(x, w)?,
        g.max(x, &[b])?,
        g.axes_with_order(x, &[b, a])?,
        g.slice(
            x,
            &[
                Slice::Index(1),
                Slice::Range {
                    start: 2,
                    stop: -1,
                    step: -1,
                },
            ],
        )?,
        g.argmax(x, b)?,
        g.select(
            g.greater(x, g.scalar_of(DType::Float64, 1.5)?)?,
            x,
            g.negative(x)?,
        )?,
        g.reshape(x, &[g.axis("S", 6)?])?,
    ];
    let t = Transformer::new(None)?;
    let mut f = t.computation(&results, &[x])?;
    let xs = [1.0, 2.0, 3.0, -1.0, 5.0, 0.0];
    let out = f.run(&[&Tensor::from_vec(xs.to_vec(), &[2, 3])?])?;
    assert_eq!(out[0].to_vec::<f64>()?, vec![1.0 + 1.0 - 3.0, -1.0 + 2.5]);
    assert_eq!(out[1].to_vec::<f64>()?, vec![3.0, 5.0]);
    assert_eq!(out[2].to_vec::<f64>()?, vec![1.0, -1.0, 2.0, 5.0, 3.0, 0.0]);
    assert_eq!(out[3].to_vec::<f64>()?, vec![0.0, 5.0, -1.0]);
    assert_eq!(out[4].to_vec::<i64>()?, vec![2, 1]);
    assert_eq!(
        out[5].to_vec::<f64>()?,
        vec![-1.0, 2.0, 3.0, 1.0, 5.0, -0.0]
    );
    assert_eq!(out[6].to_vec::<f64>()?, xs.to_vec());
    Ok(())
}

#[test]
fn errors_carry_status_and_message() -> R {
    let g = Graph::new()?;
    let a = g.placeholder(DType::Float32, &[g.axis("N", 3)?], None)?;
    let b = g.placeholder(DType::Float32, &[g.axis("N", 4)?], None)?;
    let e = g.add(a, b).unwrap_err();
    assert_eq!(e.status, Status::Axes);
    assert!(
        e.message.contains("ng_add") && e.message.contains("N(3)"),
        "{}",
        e
    );
    assert_eq!(e.status.name(), "NG_ERR_AXES");
    assert_eq!(g.status().unwrap_err().status, Status::Axes);
    assert_eq!(g.axis("", 1).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(g.find("nothing").unwrap_err().status, Status::NotFound);
    assert_eq!(
        Transformer::new(Some("gpu")).err().unwrap().status,
        Status::Unsupported
    );
    let t = Transformer::new(None)?;
    assert_eq!(
        t.computation(&[a], &[]).err().unwrap().status,
        Status::State
    );
    let mut f = t.computation(&[a], &[a])?;
    assert_eq!(
        f.run(&[&Tensor::zeros(DType::Float32, &[5])?])
            .unwrap_err()
            .status,
        Status::Axes
    );
    assert_eq!(f.run(&[]).unwrap_err().status, Status::InvalidArgument);
    let other = Graph::new()?;
    assert_eq!(other.exp(a).unwrap_err().status, Status::InvalidArgument); // an op of another graph
    Ok(())
}

#[test]
fn computations_outlive_graph_and_transformer() -> R {
    let mut f = {
        let g = Graph::new()?;
        let x = g.placeholder(DType::Float32, &[g.axis("N", 2)?], None)?;
        let t = Transformer::new(None)?;
        let f = t.computation(&[g.multiply(x, g.scalar(2.0)?)?], &[x])?;
        f
    };
    let out = f.run(&[&Tensor::from_slice(&[1f32, 2.0], &[2])?])?;
    assert_eq!(out[0].to_vec::<f32>()?, vec![2.0, 4.0]);
    let moved = std::thread::spawn(move || {
        f.run(&[&Tensor::from_slice(&[3f32, 4.0], &[2]).unwrap()])
            .unwrap()[0]
            .to_vec::<f32>()
            .unwrap()
    });
    assert_eq!(moved.join().unwrap(), vec![6.0, 8.0]);
    Ok(())
}

#[test]
fn errors_belong_to_their_thread() {
    let handles: Vec<_> = (0..4)
        .map(|k| {
            std::thread::spawn(move || {
                let g = Graph::new().unwrap();
                for i in 0..2000i64 {
                    let len = -(k * 100000 + i + 1);
                    let e = g.axis("A", len).unwrap_err();
                    assert!(e.message.contains(&format!("({})", len)), "{}", e);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn training_with_sgd_and_adam() -> R {
    for adam in [false, true] {
        let g = Graph::new()?;
        let (b, f) = (g.axis("B", 8)?, g.axis("F", 2)?);
        let x = g.placeholder(DType::Float64, &[b, f], None)?;
        let y = g.placeholder(DType::Float64, &[b], None)?;
        let w = g.variable(
            DType::Float64,
            &[f],
            Some(g.normal(DType::Float64, &[f], 0.0, 0.1, 1)?),
        )?;
        let bias = g.variable(DType::Float64, &[], None)?;
        let cost = g.mean(g.square(g.subtract(g.add(g.dot(x, w)?, bias)?, y)?)?, &[])?;
        let lr = g.persistent_tensor(
            DType::Float64,
            &[],
            Some(g.scalar_of(DType::Float64, if adam { 0.05 } else { 0.2 })?),
        )?;
        let step = if adam {
            g.adam(cost, lr, &AdamOptions::default())?
        } else {
            g.sgd(
                cost,
                lr,
                &SgdOptions {
                    momentum: 0.5,
                    ..Default::default()
                },
            )?
        };
        let mut t = Transformer::new(None)?;
        t.set_num_threads(1)?;
        assert_eq!(t.num_threads(), 1);
        let mut train = t.computation(&[step], &[x, y])?;
        let mut xs = vec![0.0; 16];
        let mut ys = vec![0.0; 8];
        for i in 0..8 {
            xs[2 * i] = i as f64 / 4.0;
            xs[2 * i + 1] = (i as f64).sin();
            ys[i] = 2.0 * xs[2 * i] - 3.0 * xs[2 * i + 1] + 1.0;
        }
        let (xt, yt) = (Tensor::from_vec(xs, &[8, 2])?, Tensor::from_vec(ys, &[8])?);
        for _ in 0..1500 {
            train.run(&[&xt, &yt])?;
        }
        let wv = t.get_value(w)?.to_vec::<f64>()?;
        assert!(
            (wv[0] - 2.0).abs() < 2e-2 && (wv[1] + 3.0).abs() < 2e-2,
            "adam {}: {:?}",
            adam,
            wv
        );
        assert!(train.stats()?.num_kernels > 0);
        t.set_value(lr, &Tensor::from_slice(&[0.0f64], &[])?)?;
    }
    Ok(())
}

#[test]
fn graph_queries_and_tensor_views() -> R {
    let g = Graph::new()?;
    let n = g.axis("N", 2)?;
    let x = g.assignable_tensor(DType::Float32, &[n], FLAG_PERSISTENT | FLAG_INPUT, None)?;
    let y = g.tanh(x)?;
    y.set_name("out")?;
    y.set_metadata("role", "output")?;
    assert!(g.find("out")?.same(&y) && y.op_type() == "Tanh" && y.shape() == vec![2]);
    assert_eq!(y.metadata("role").as_deref(), Some("output"));
    assert_eq!(g.ops_with_metadata("role", None)?.len(), 1);
    assert_eq!(y.placeholders()?.len(), 1);
    assert!(g.dot_text(&[y])?.starts_with("digraph"));
    let mut t = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3])?;
    assert_eq!(t.transpose()?.to_vec::<i32>()?, vec![0, 3, 1, 4, 2, 5]);
    assert_eq!(
        t.slice(1, i64::MAX, i64::MIN, -1)?.to_vec::<i32>()?,
        vec![2, 1, 0, 5, 4, 3]
    );
    assert_eq!(
        t.transpose()?.reshape(&[6]).err().unwrap().status,
        Status::Unsupported
    );
    unsafe { t.as_mut_slice::<i32>()?[0] = 9 };
    assert_eq!(t.reshape(&[6])?.to_vec::<i32>()?[0], 9);
    let m = t.to_dlpack()?;
    let back = unsafe { Tensor::from_dlpack(m)? };
    assert_eq!(back.data_ptr(), t.data_ptr());
    Ok(())
}

#[test]
fn segment_sum_and_gather() -> R {
    let g = Graph::new()?;
    let (f, s, k) = (g.axis("F", 5)?, g.axis("S", 2)?, g.axis("K", 3)?);
    let x = g.placeholder(DType::Float32, &[f], None)?;
    let splits = g.constant(&[k], &[0i64, 2, 5])?;
    let sum = g.segment_sum(x, f, splits, s)?;
    let t = Transformer::new(None)?;
    let mut c = t.computation(&[sum, g.segment_gather(sum, s, splits, f)?], &[x])?;
    let out = c.run(&[&Tensor::from_slice(&[1f32, 2., 3., 4., 5.], &[5])?])?;
    assert_eq!(out[0].to_vec::<f32>()?, vec![3.0, 12.0]);
    assert_eq!(out[1].to_vec::<f32>()?, vec![3.0, 3.0, 12.0, 12.0, 12.0]);
    Ok(())
}
