//! Transformers and computations.
use crate::graph::{GraphHandle, Op};
use crate::{
    binding_error, check, check_ptr, cstr, cstring, last_error, sys, DType, Result, Status, Tensor,
};
use std::sync::Arc;

/// Holds persistent values and compiles computations. Computations keep working after it is
/// dropped. `Send`; not `Sync` (setting values while a computation runs is not synchronised).
pub struct Transformer {
    pub(crate) h: *mut sys::ng_transformer_t,
}

unsafe impl Send for Transformer {}

impl Drop for Transformer {
    fn drop(&mut self) {
        unsafe { sys::ng_transformer_destroy(self.h) }
    }
}

/// A compiled computation: `Send`, and `run` takes `&mut self` (one run at a time, as the library
/// requires). It holds the C graph it was compiled from until it is dropped.
pub struct Computation {
    h: *mut sys::ng_computation_t,
    _graphs: Vec<Arc<GraphHandle>>,
}

unsafe impl Send for Computation {}

impl Drop for Computation {
    fn drop(&mut self) {
        unsafe { sys::ng_computation_destroy(self.h) } // before the graphs it holds
    }
}

/// Figures of a compiled plan.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub arena_bytes: usize,
    pub buffer_bytes: usize,
    pub num_buffers: i32,
    pub num_kernels: i32,
    pub num_nodes: i32,
    pub num_source_ops: i32,
}

impl Transformer {
    /// A transformer for a backend (None or "cpu").
    pub fn new(backend: Option<&str>) -> Result<Transformer> {
        let b = backend.map(cstring).transpose()?;
        let h = check_ptr(unsafe {
            sys::ng_transformer_create(b.as_ref().map_or(std::ptr::null(), |b| b.as_ptr()))
        })?;
        Ok(Transformer { h })
    }

    /// Sets the threads the kernels use (0: one per core).
    pub fn set_num_threads(&mut self, n: i32) -> Result<()> {
        check(unsafe { sys::ng_transformer_set_num_threads(self.h, n) })
    }

    /// The threads the kernels use, the caller's included.
    pub fn num_threads(&self) -> i32 {
        unsafe { sys::ng_transformer_num_threads(self.h) }
    }

    /// Compiles a computation of `results` taking `params` as its inputs.
    pub fn computation(&self, results: &[Op<'_>], params: &[Op<'_>]) -> Result<Computation> {
        let r: Vec<_> = results.iter().map(|o| o.h).collect();
        let p: Vec<_> = params.iter().map(|o| o.h).collect();
        let h = check_ptr(unsafe {
            sys::ng_computation_create(
                self.h,
                r.as_ptr(),
                r.len() as i32,
                p.as_ptr(),
                p.len() as i32,
            )
        })?;
        let mut graphs: Vec<Arc<GraphHandle>> = Vec::new();
        for o in results.iter().chain(params) {
            if !graphs.iter().any(|g| Arc::ptr_eq(g, &o.g.h)) {
                graphs.push(o.g.h.clone());
            }
        }
        Ok(Computation { h, _graphs: graphs })
    }

    /// Seeds the generator [`Graph::random_uniform`](crate::Graph::random_uniform) and
    /// [`Graph::random_normal`](crate::Graph::random_normal) draw from, and restarts its count of
    /// draws: the runs that follow draw the same values as after any other call with this seed.
    /// A new transformer has seed 0.
    pub fn set_seed(&mut self, seed: u64) -> Result<()> {
        check(unsafe { sys::ng_transformer_set_seed(self.h, seed) })
    }

    /// Gives this transformer its own allocator, used instead of the process-wide one for the
    /// large blocks it makes from now on: its persistent values, the arenas and plan constants of
    /// computations created after the call, and the outputs of every run of its computations.
    /// Blocks made before stay with the allocator that made them; a `&'static` reference outlives
    /// them all.
    pub fn set_allocator<A: crate::Allocator>(&mut self, allocator: &'static A) -> Result<()> {
        check(unsafe {
            sys::ng_transformer_set_allocator(self.h, &crate::allocator::c_allocator(allocator))
        })
    }

    /// Goes back to the process-wide allocator (whichever is installed when each block is made).
    pub fn reset_allocator(&mut self) -> Result<()> {
        check(unsafe { sys::ng_transformer_set_allocator(self.h, std::ptr::null()) })
    }

    /// A copy of a persistent tensor's value.
    pub fn get_value(&self, op: Op<'_>) -> Result<Tensor> {
        let mut out = std::ptr::null_mut();
        check(unsafe { sys::ng_transformer_get_value(self.h, op.h, &mut out) })?;
        Tensor::adopt(out)
    }

    /// Sets a persistent tensor's value (copied).
    pub fn set_value(&mut self, op: Op<'_>, value: &Tensor) -> Result<()> {
        let _r = crate::tensor::read(&value.lock);
        check(unsafe { sys::ng_transformer_set_value(self.h, op.h, value.h) })
    }
}

impl Computation {
    /// The number of inputs a run takes.
    pub fn num_params(&self) -> usize {
        unsafe { sys::ng_computation_num_params(self.h) as usize }
    }

    /// The number of results a run returns.
    pub fn num_results(&self) -> usize {
        unsafe { sys::ng_computation_num_results(self.h) as usize }
    }

    /// Runs once: one tensor per parameter; one new tensor per result.
    ///
    /// A run reads its inputs' memory directly, and an assign into a parameter writes it, so the
    /// run holds the lock of every input's memory exclusive (each once, however often it comes).
    pub fn run(&mut self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let ins: Vec<_> = inputs.iter().map(|t| t.h).collect();
        let _w = crate::tensor::write_all(inputs.iter().map(|t| &t.lock));
        let mut outs = vec![std::ptr::null_mut(); self.num_results()];
        check(unsafe {
            sys::ng_computation_run(
                self.h,
                ins.as_ptr(),
                ins.len() as i32,
                outs.as_mut_ptr(),
                outs.len() as i32,
            )
        })?;
        outs.into_iter().map(Tensor::adopt).collect()
    }

    /// Runs once, writing each result into the given output (matching dtype and shape). An output
    /// may share memory with an input (`x = f(x)`); the locks of inputs and outputs are held
    /// exclusive during the run, each once.
    pub fn run_into(&mut self, inputs: &[&Tensor], outputs: &mut [&mut Tensor]) -> Result<()> {
        let ins: Vec<_> = inputs.iter().map(|t| t.h).collect();
        let mut outs: Vec<_> = outputs.iter().map(|t| t.h).collect();
        if outs.len() != self.num_results() {
            return Err(binding_error(
                Status::InvalidArgument,
                format!(
                    "nanograph: {} outputs for {} results",
                    outs.len(),
                    self.num_results()
                ),
            ));
        }
        let _w = crate::tensor::write_all(
            inputs
                .iter()
                .map(|t| &t.lock)
                .chain(outputs.iter().map(|t| &t.lock)),
        );
        check(unsafe {
            sys::ng_computation_run(
                self.h,
                ins.as_ptr(),
                ins.len() as i32,
                outs.as_mut_ptr(),
                outs.len() as i32,
            )
        })
    }

    /// Figures of the compiled plan.
    pub fn stats(&self) -> Result<Stats> {
        let mut s: sys::ng_computation_stats_t = unsafe { std::mem::zeroed() };
        s.struct_size = std::mem::size_of::<sys::ng_computation_stats_t>();
        check(unsafe { sys::ng_computation_stats(self.h, &mut s) })?;
        Ok(Stats {
            arena_bytes: s.arena_bytes,
            buffer_bytes: s.buffer_bytes,
            num_buffers: s.num_buffers,
            num_kernels: s.num_kernels,
            num_nodes: s.num_nodes,
            num_source_ops: s.num_source_ops,
        })
    }
}

/// One parameter (what a run takes) or result (what it gives) of a computation: the op's name,
/// the dtype, and the axes (name, length) in the order of the tensor's dims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueInfo {
    pub name: String,
    pub dtype: DType,
    pub axes: Vec<(String, i64)>,
}

impl ValueInfo {
    /// The lengths of the axes.
    pub fn shape(&self) -> Vec<i64> {
        self.axes.iter().map(|a| a.1).collect()
    }
}

type NameFn =
    unsafe extern "C" fn(*const sys::ng_computation_t, i32) -> *const std::os::raw::c_char;
type DTypeFn = unsafe extern "C" fn(*const sys::ng_computation_t, i32) -> sys::ng_dtype_t;
type RankFn = unsafe extern "C" fn(*const sys::ng_computation_t, i32) -> i32;
type AxisNameFn =
    unsafe extern "C" fn(*const sys::ng_computation_t, i32, i32) -> *const std::os::raw::c_char;
type AxisLengthFn = unsafe extern "C" fn(*const sys::ng_computation_t, i32, i32) -> i64;

struct Describe(NameFn, DTypeFn, RankFn, AxisNameFn, AxisLengthFn);

const PARAMS: Describe = Describe(
    sys::ng_computation_param_name,
    sys::ng_computation_param_dtype,
    sys::ng_computation_param_rank,
    sys::ng_computation_param_axis_name,
    sys::ng_computation_param_axis_length,
);
const RESULTS: Describe = Describe(
    sys::ng_computation_result_name,
    sys::ng_computation_result_dtype,
    sys::ng_computation_result_rank,
    sys::ng_computation_result_axis_name,
    sys::ng_computation_result_axis_length,
);

impl Computation {
    fn describe(&self, f: &Describe, i: usize) -> Result<ValueInfo> {
        let i = i32::try_from(i).map_err(|_| {
            binding_error(
                Status::InvalidArgument,
                format!("nanograph: index {} out of range", i),
            )
        })?;
        unsafe {
            let name = f.0(self.h, i);
            if name.is_null() {
                return Err(last_error());
            }
            let dtype = DType::from_code(f.1(self.h, i))?;
            let rank = f.2(self.h, i);
            if rank < 0 {
                return Err(last_error());
            }
            let mut axes = Vec::with_capacity(rank as usize);
            for a in 0..rank {
                let (an, al) = (f.3(self.h, i, a), f.4(self.h, i, a));
                if an.is_null() || al < 0 {
                    return Err(last_error());
                }
                axes.push((cstr(an), al));
            }
            Ok(ValueInfo {
                name: cstr(name),
                dtype,
                axes,
            })
        }
    }

    /// Describes parameter `i`: what the i-th input tensor of a run must be.
    pub fn param(&self, i: usize) -> Result<ValueInfo> {
        self.describe(&PARAMS, i)
    }

    /// Describes result `i`: what the i-th output tensor of a run is.
    pub fn result(&self, i: usize) -> Result<ValueInfo> {
        self.describe(&RESULTS, i)
    }

    /// Describes every parameter, in order.
    pub fn params(&self) -> Result<Vec<ValueInfo>> {
        (0..self.num_params()).map(|i| self.param(i)).collect()
    }

    /// Describes every result, in order.
    pub fn results(&self) -> Result<Vec<ValueInfo>> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }
}
