//! Checkpoints: saved values and generator state come back in a new transformer; bad files.
use nanograph::{Computation, DType, Error, Graph, SgdOptions, Status, Transformer};

type R = Result<(), Error>;

/// w <- w - 0.25 * d(sum((w - 4)^2))/dw, and a random draw, built the same way each time.
fn build(g: &Graph, t: &Transformer) -> Result<(Computation, Computation), Error> {
    let n = g.axis("N", 3)?;
    let w = g.variable(
        DType::Float32,
        &[n],
        Some(g.constant(&[n], &[1f32, 2., 3.])?),
    )?;
    w.set_name("w")?;
    let cost = g.sum(
        g.square(g.subtract(w, g.constant(&[n], &[4f32, 4., 4.])?)?)?,
        &[],
    )?;
    let step = t.computation(
        &[g.sgd(cost, g.scalar(0.25)?, &SgdOptions::default())?],
        &[],
    )?;
    let draw = t.computation(&[g.random_uniform(DType::Float64, &[n], 0.0, 1.0)?], &[])?;
    Ok((step, draw))
}

fn path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!(
            "nanograph-rust-ckpt-{}-{}",
            std::process::id(),
            name
        ))
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn save_and_load() -> R {
    let file = path("model");
    let g = Graph::new()?;
    let t = Transformer::new(None)?;
    let (mut step, mut draw) = build(&g, &t)?;
    step.run(&[])?;
    let want: Vec<f32> = [1f32, 2., 3.]
        .iter()
        .map(|w| w - 0.25 * 2.0 * (w - 4.0))
        .collect();
    assert_eq!(t.get_value(g.find("w")?)?.to_vec::<f32>()?, want);
    draw.run(&[])?;
    t.save(&file)?;
    let next = draw.run(&[])?[0].to_vec::<f64>()?;
    // Another transformer with the same graph takes the values and the generator's state.
    let g2 = Graph::new()?;
    let mut t2 = Transformer::new(None)?;
    let (_step2, mut draw2) = build(&g2, &t2)?; // kept: the transformer knows w while it exists
    t2.load(&file)?;
    assert_eq!(t2.get_value(g2.find("w")?)?.to_vec::<f32>()?, want);
    assert_eq!(draw2.run(&[])?[0].to_vec::<f64>()?, next);
    std::fs::remove_file(&file).unwrap();
    Ok(())
}

#[test]
fn bad_checkpoints() -> R {
    let fails = |r: Result<(), Error>, status: Status, function: &str| {
        let e = r.unwrap_err();
        assert_eq!(e.status, status, "{}", e);
        assert!(e.message.contains(function), "{}", e);
    };
    let g = Graph::new()?;
    let mut t = Transformer::new(None)?;
    let _c = build(&g, &t)?;
    fails(
        t.load("/nonexistent-dir/x.ckpt"),
        Status::Io,
        "ng_transformer_load",
    );
    fails(
        t.save("/nonexistent-dir/x.ckpt"),
        Status::Io,
        "ng_transformer_save",
    );
    let garbage = path("garbage");
    std::fs::write(&garbage, b"not a checkpoint").unwrap();
    fails(t.load(&garbage), Status::Format, "ng_transformer_load");
    let saved = path("saved");
    t.save(&saved)?;
    fails(
        Transformer::new(None)?.load(&saved),
        Status::NotFound,
        "ng_transformer_load",
    );
    fails(t.load("a\0b"), Status::InvalidArgument, "NUL");
    std::fs::remove_file(&garbage).unwrap();
    std::fs::remove_file(&saved).unwrap();
    Ok(())
}
