//! Op builders written by hand (constant, sgd, adam) and what the generated ones
//! (ops_generated.rs) call: every builder returns the new op or the library's error (the graph
//! also records its first error: `Graph::status`).
use crate::graph::{Axis, Graph, Op, Slice};
use crate::{binding_error, sys, Result, Status};
use std::ptr::null_mut;

impl Graph {
    /// The handle of an op that may be absent (NULL for the library), checked to be the graph's.
    pub(crate) fn check_optional(&self, o: Option<Op<'_>>) -> Result<*mut sys::ng_op_t> {
        o.map(|o| self.check_own(&o))
            .transpose()
            .map(|h| h.unwrap_or(null_mut()))
    }

    /// The handle of an axis, checked to be the graph's.
    pub(crate) fn axis_handle(&self, a: Axis<'_>) -> Result<*const sys::ng_axis_t> {
        Ok(self.axes(&[a])?[0])
    }
    /// A constant holding `data` (dense row-major over `axes`).
    pub fn constant<'g, T: crate::Element>(
        &'g self,
        axes: &[Axis<'g>],
        data: &[T],
    ) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let n: i64 = axes.iter().map(|a| a.length()).product();
        if n != data.len() as i64 {
            return Err(binding_error(
                Status::InvalidArgument,
                format!(
                    "nanograph: constant: {} values for {} elements",
                    data.len(),
                    n
                ),
            ));
        }
        self.op(unsafe {
            sys::ng_constant(
                self.raw(),
                T::DTYPE as i32,
                ax.as_ptr(),
                ax.len() as i32,
                data.as_ptr() as *const _,
            )
        })
    }

    /// One step of SGD over the trainable variables of cost; the op's value is the cost.
    pub fn sgd<'g>(
        &'g self,
        cost: Op<'g>,
        learning_rate: Op<'g>,
        options: &SgdOptions,
    ) -> Result<Op<'g>> {
        let h = self.handles(&[cost, learning_rate])?;
        let mut o = sgd_defaults();
        o.momentum = options.momentum;
        o.nesterov = options.nesterov as i32;
        o.weight_decay = options.weight_decay;
        self.op(unsafe { sys::ng_sgd(self.raw(), h[0], h[1], &o) })
    }

    /// One step of Adam over the trainable variables of cost; the op's value is the cost.
    pub fn adam<'g>(
        &'g self,
        cost: Op<'g>,
        learning_rate: Op<'g>,
        options: &AdamOptions,
    ) -> Result<Op<'g>> {
        let h = self.handles(&[cost, learning_rate])?;
        let mut o = adam_defaults();
        o.beta1 = options.beta1;
        o.beta2 = options.beta2;
        o.epsilon = options.epsilon;
        o.weight_decay = options.weight_decay;
        self.op(unsafe { sys::ng_adam(self.raw(), h[0], h[1], &o) })
    }
}

// The library's defaults in the C structs; struct_size tells the library which version of the
// struct this crate was built with.
fn sgd_defaults() -> sys::ng_sgd_options_t {
    let mut o: sys::ng_sgd_options_t = unsafe { std::mem::zeroed() };
    unsafe { sys::ng_sgd_options_init(&mut o, std::mem::size_of::<sys::ng_sgd_options_t>()) };
    o
}

fn adam_defaults() -> sys::ng_adam_options_t {
    let mut o: sys::ng_adam_options_t = unsafe { std::mem::zeroed() };
    unsafe { sys::ng_adam_options_init(&mut o, std::mem::size_of::<sys::ng_adam_options_t>()) };
    o
}

/// Options of [`Graph::sgd`]; `Default` gives the library's defaults.
#[derive(Clone, Copy, Debug)]
pub struct SgdOptions {
    pub momentum: f64,
    pub nesterov: bool,
    pub weight_decay: f64,
}

impl Default for SgdOptions {
    fn default() -> Self {
        let o = sgd_defaults();
        SgdOptions {
            momentum: o.momentum,
            nesterov: o.nesterov != 0,
            weight_decay: o.weight_decay,
        }
    }
}

/// Options of [`Graph::adam`]; `Default` gives the library's defaults.
#[derive(Clone, Copy, Debug)]
pub struct AdamOptions {
    pub beta1: f64,
    pub beta2: f64,
    pub epsilon: f64,
    pub weight_decay: f64,
}

impl Default for AdamOptions {
    fn default() -> Self {
        let o = adam_defaults();
        AdamOptions {
            beta1: o.beta1,
            beta2: o.beta2,
            epsilon: o.epsilon,
            weight_decay: o.weight_decay,
        }
    }
}

pub(crate) fn slice_specs(specs: &[Slice]) -> Vec<sys::ng_slice_t> {
    specs
        .iter()
        .map(|s| match *s {
            Slice::Range { start, stop, step } => sys::ng_slice_t {
                start,
                stop,
                step,
                index_only: 0,
            },
            Slice::Index(i) => sys::ng_slice_t {
                start: i,
                stop: 0,
                step: 1,
                index_only: 1,
            },
        })
        .collect()
}

/// Fails unless the lists passed with one count have one length.
pub(crate) fn same_lengths(function: &str, lengths: &[usize]) -> Result<()> {
    if lengths.iter().any(|&n| n != lengths[0]) {
        return Err(binding_error(
            Status::InvalidArgument,
            format!(
                "nanograph: {}: lists of lengths {:?}, not one length",
                function, lengths
            ),
        ));
    }
    Ok(())
}
