//! ONNX models and TensorFlow TensorProto messages.
use crate::exec::Transformer;
use crate::graph::{Graph, Op};
use crate::{check, check_ptr, cstring, sys, Result, Tensor};
use std::os::raw::c_void;

/// Bytes the library allocated (an exported model, a serialized tensor), used in place and freed
/// with `ng_free` on drop. Dereferences to `[u8]`.
pub struct Bytes {
    p: *mut c_void,
    n: usize,
}

unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Drop for Bytes {
    fn drop(&mut self) {
        unsafe { sys::ng_free(self.p) }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        if self.n == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(self.p as *const u8, self.n) }
        }
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.n)
    }
}

/// Options of [`Graph::from_onnx`] and [`Graph::from_onnx_file`].
#[derive(Clone, Copy, Debug, Default)]
pub struct OnnxOptions<'a> {
    /// Lengths of the model's symbolic dimensions (dim_param), by name.
    pub dims: &'a [(&'a str, i64)],
    /// Float initializers become variables initialised to the model's values (instead of
    /// constants), so that the model can be trained further.
    pub trainable: bool,
}

struct Dims {
    _names: Vec<std::ffi::CString>,
    ptrs: Vec<*const std::os::raw::c_char>,
    lengths: Vec<i64>,
}

impl Dims {
    fn new(dims: &[(&str, i64)]) -> Result<Dims> {
        let names = dims
            .iter()
            .map(|(n, _)| cstring(n))
            .collect::<Result<Vec<_>>>()?;
        let ptrs = names.iter().map(|n| n.as_ptr()).collect();
        Ok(Dims {
            _names: names,
            ptrs,
            lengths: dims.iter().map(|d| d.1).collect(),
        })
    }
}

impl OnnxOptions<'_> {
    fn flags(&self) -> u32 {
        if self.trainable {
            sys::NG_ONNX_TRAINABLE
        } else {
            0
        }
    }
}

impl Graph {
    /// The computation of `results` from `params` (placeholders: the model's inputs) as a
    /// serialized ONNX model (opset 13); constants, variables and persistent tensors become
    /// initializers holding their initial values.
    pub fn to_onnx(&self, results: &[Op<'_>], params: &[Op<'_>]) -> Result<Bytes> {
        let (r, p) = (self.handles(results)?, self.handles(params)?);
        let (mut bytes, mut n) = (std::ptr::null_mut(), 0usize);
        check(unsafe {
            sys::ng_onnx_export_bytes(
                self.raw(),
                r.as_ptr(),
                r.len() as i32,
                p.as_ptr(),
                p.len() as i32,
                &mut bytes,
                &mut n,
            )
        })?;
        Ok(Bytes { p: bytes, n })
    }

    /// Writes what [`to_onnx`](Graph::to_onnx) gives to a file (replaced when it exists).
    pub fn to_onnx_file(&self, results: &[Op<'_>], params: &[Op<'_>], path: &str) -> Result<()> {
        let (r, p) = (self.handles(results)?, self.handles(params)?);
        let path = cstring(path)?;
        check(unsafe {
            sys::ng_onnx_export_file(
                self.raw(),
                r.as_ptr(),
                r.len() as i32,
                p.as_ptr(),
                p.len() as i32,
                path.as_ptr(),
            )
        })
    }

    /// Reads a serialized ONNX model into a new graph: the model's inputs become placeholders and
    /// its outputs ops, named as in the model ([`find`](Graph::find)), with positional axes "d0",
    /// "d1", ... The bytes are untrusted input.
    pub fn from_onnx(model: &[u8], options: &OnnxOptions<'_>) -> Result<Graph> {
        let d = Dims::new(options.dims)?;
        let h = unsafe {
            sys::ng_onnx_import_bytes(
                model.as_ptr() as *const c_void,
                model.len(),
                d.ptrs.as_ptr(),
                d.lengths.as_ptr(),
                d.ptrs.len() as i32,
                options.flags(),
            )
        };
        Ok(Graph::adopt(check_ptr(h)?))
    }

    /// [`from_onnx`](Graph::from_onnx) from a file.
    pub fn from_onnx_file(path: &str, options: &OnnxOptions<'_>) -> Result<Graph> {
        let d = Dims::new(options.dims)?;
        let path = cstring(path)?;
        let (names, lengths, n) = (d.ptrs.as_ptr(), d.lengths.as_ptr(), d.ptrs.len() as i32);
        let h = unsafe {
            if options.trainable {
                sys::ng_onnx_import_file_with(path.as_ptr(), names, lengths, n, options.flags())
            } else {
                sys::ng_onnx_import_file(path.as_ptr(), names, lengths, n)
            }
        };
        Ok(Graph::adopt(check_ptr(h)?))
    }
}

impl Transformer {
    /// Writes the ONNX model of `results` from `params` with the values this transformer holds
    /// for variables and persistent tensors (a trained network); their initial values where it
    /// has none yet.
    pub fn to_onnx_file(
        &self,
        graph: &Graph,
        results: &[Op<'_>],
        params: &[Op<'_>],
        path: &str,
    ) -> Result<()> {
        let (r, p) = (graph.handles(results)?, graph.handles(params)?);
        let path = cstring(path)?;
        check(unsafe {
            sys::ng_onnx_export_trained_file(
                self.h,
                graph.raw(),
                r.as_ptr(),
                r.len() as i32,
                p.as_ptr(),
                p.len() as i32,
                path.as_ptr(),
            )
        })
    }
}

impl Tensor {
    /// The tensor as a TensorFlow TensorProto message: dtype, shape and the elements (dense,
    /// row-major, little-endian), whatever the strides.
    pub fn serialize(&self) -> Result<Bytes> {
        let (mut bytes, mut n) = (std::ptr::null_mut(), 0usize);
        let _r = crate::tensor::read(&self.lock);
        check(unsafe { sys::ng_tensor_serialize(self.h, &mut bytes, &mut n) })?;
        Ok(Bytes { p: bytes, n })
    }

    /// Reads a tensor from a TensorFlow TensorProto message (untrusted bytes: a damaged message
    /// is `Status::Format`).
    pub fn deserialize(message: &[u8]) -> Result<Tensor> {
        Tensor::adopt(unsafe {
            sys::ng_tensor_deserialize(message.as_ptr() as *const c_void, message.len())
        })
    }
}
