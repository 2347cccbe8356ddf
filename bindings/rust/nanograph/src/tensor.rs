//! Host tensors: reference-counted, strided, in memory the library or a Vec owns.
use crate::{binding_error, check, check_ptr, sys, DType, Result, Status};
use std::os::raw::c_void;

/// A Rust element type with a nanograph dtype.
pub trait Element: Copy + Default + 'static {
    const DTYPE: DType;
}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
}
impl Element for i32 {
    const DTYPE: DType = DType::Int32;
}
impl Element for i64 {
    const DTYPE: DType = DType::Int64;
}
impl Element for u8 {
    const DTYPE: DType = DType::Uint8;
}
impl Element for f32 {
    const DTYPE: DType = DType::Float32;
}
impl Element for f64 {
    const DTYPE: DType = DType::Float64;
}

/// A host tensor. Dropping it drops its reference; views and DLPack exports keep the memory.
///
/// Retaining and releasing are thread-safe in the library, and writes need `&mut self`, so a
/// tensor is `Send` and `Sync`. Views share memory with the tensor they were made from.
pub struct Tensor {
    pub(crate) h: *mut sys::ng_tensor_t,
}

unsafe impl Send for Tensor {}
unsafe impl Sync for Tensor {}

impl Drop for Tensor {
    fn drop(&mut self) {
        unsafe { sys::ng_tensor_release(self.h) }
    }
}

impl Clone for Tensor {
    /// A second handle to the same tensor: the memory is shared, not copied.
    fn clone(&self) -> Tensor {
        unsafe { sys::ng_tensor_retain(self.h) };
        Tensor { h: self.h }
    }
}

pub(crate) unsafe extern "C" fn drop_vec<T>(_data: *mut c_void, ctx: *mut c_void) {
    drop(Box::from_raw(ctx as *mut Vec<T>));
}

impl Tensor {
    pub(crate) fn adopt(h: *mut sys::ng_tensor_t) -> Result<Tensor> {
        Ok(Tensor { h: check_ptr(h)? })
    }

    /// A zero-filled dense tensor.
    pub fn zeros(dtype: DType, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_create(dtype as i32, shape.as_ptr(), shape.len() as i32) })
    }

    /// A dense tensor holding a copy of `data` (row-major, `shape`'s element count).
    pub fn from_slice<T: Element>(data: &[T], shape: &[i64]) -> Result<Tensor> {
        check_len(data.len(), shape)?;
        Tensor::adopt(unsafe {
            sys::ng_tensor_from_data(T::DTYPE as i32, shape.as_ptr(), shape.len() as i32, data.as_ptr() as *const c_void)
        })
    }

    /// A tensor over a Vec's memory, without copying: the tensor owns the Vec and frees it when
    /// the last reference to the memory goes.
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &[i64]) -> Result<Tensor> {
        check_len(data.len(), shape)?;
        let boxed = Box::new(data);
        let ptr = boxed.as_ptr() as *mut c_void;
        let ctx = Box::into_raw(boxed) as *mut c_void;
        let h = unsafe {
            sys::ng_tensor_wrap(T::DTYPE as i32, shape.as_ptr(), std::ptr::null(), shape.len() as i32, ptr, Some(drop_vec::<T>), ctx)
        };
        if h.is_null() {
            drop(unsafe { Box::from_raw(ctx as *mut Vec<T>) }); // not taken on failure
        }
        Tensor::adopt(h)
    }

    /// Wraps memory the caller keeps valid (and unmoved) for the tensor's and its views' life.
    ///
    /// # Safety
    /// `data` must be valid for every element the shape and strides reach, for as long as the
    /// tensor or any view or export of it lives.
    pub unsafe fn wrap_raw(dtype: DType, shape: &[i64], strides: Option<&[i64]>, data: *mut c_void) -> Result<Tensor> {
        let st = strides.map_or(std::ptr::null(), |s| s.as_ptr());
        Tensor::adopt(sys::ng_tensor_wrap(dtype as i32, shape.as_ptr(), st, shape.len() as i32, data, None, std::ptr::null_mut()))
    }

    /// Imports a DLPack 0.6 `DLManagedTensor` without copying; the tensor owns it on success.
    ///
    /// # Safety
    /// `managed` must point to a valid `DLManagedTensor` the caller owns.
    pub unsafe fn from_dlpack(managed: *mut c_void) -> Result<Tensor> {
        Tensor::adopt(sys::ng_tensor_from_dlpack(managed as *mut sys::DLManagedTensor))
    }

    /// Exports the tensor as a DLPack 0.6 `DLManagedTensor` without copying; the consumer calls
    /// its deleter once.
    pub fn to_dlpack(&self) -> Result<*mut c_void> {
        let mut out: *mut sys::DLManagedTensor = std::ptr::null_mut();
        check(unsafe { sys::ng_tensor_to_dlpack(self.h, &mut out) })?;
        Ok(out as *mut c_void)
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        DType::from_code(unsafe { sys::ng_tensor_dtype(self.h) }).expect("a live tensor has a dtype")
    }

    /// The dimensions.
    pub fn shape(&self) -> Vec<i64> {
        (0..unsafe { sys::ng_tensor_rank(self.h) }).map(|i| unsafe { sys::ng_tensor_dim(self.h, i) }).collect()
    }

    /// The strides, in elements.
    pub fn strides(&self) -> Vec<i64> {
        (0..unsafe { sys::ng_tensor_rank(self.h) }).map(|i| unsafe { sys::ng_tensor_stride(self.h, i) }).collect()
    }

    /// The number of elements.
    pub fn numel(&self) -> i64 {
        unsafe { sys::ng_tensor_numel(self.h) }
    }

    /// Whether the tensor is dense row-major.
    pub fn is_contiguous(&self) -> bool {
        unsafe { sys::ng_tensor_is_contiguous(self.h) == 1 }
    }

    /// The address of element (0, ..., 0).
    pub fn data_ptr(&self) -> *mut c_void {
        unsafe { sys::ng_tensor_data(self.h) }
    }

    fn dense<T: Element>(&self) -> Result<(*mut T, usize)> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(Status::DType, format!("nanograph: the tensor is {}, not {}", self.dtype().name(), T::DTYPE.name())));
        }
        if !self.is_contiguous() {
            return Err(binding_error(Status::Unsupported, "nanograph: the tensor is not dense: copy() it first"));
        }
        Ok((self.data_ptr() as *mut T, self.numel() as usize))
    }

    /// The elements of a dense tensor, without copying.
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        let (p, n) = self.dense::<T>()?;
        Ok(if n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } })
    }

    /// The elements of a dense tensor, writable, without copying.
    ///
    /// # Safety
    /// Views of a tensor (reshape, slice, ...) and computations' in-place outputs share its
    /// memory: nothing else may read or write these elements while the slice is borrowed.
    pub unsafe fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        let (p, n) = self.dense::<T>()?;
        Ok(if n == 0 { &mut [] } else { std::slice::from_raw_parts_mut(p, n) })
    }

    /// A dense row-major copy of the elements, whatever the strides.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(Status::DType, format!("nanograph: the tensor is {}, not {}", self.dtype().name(), T::DTYPE.name())));
        }
        let mut v = vec![T::default(); self.numel() as usize];
        check(unsafe { sys::ng_tensor_read(self.h, v.as_mut_ptr() as *mut c_void, v.len() * std::mem::size_of::<T>()) })?;
        Ok(v)
    }

    /// Copies dense row-major values in, whatever the strides.
    pub fn write<T: Element>(&mut self, values: &[T]) -> Result<()> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(Status::DType, format!("nanograph: the tensor is {}, not {}", self.dtype().name(), T::DTYPE.name())));
        }
        check(unsafe { sys::ng_tensor_write(self.h, values.as_ptr() as *const c_void, std::mem::size_of_val(values)) })
    }

    /// A dense copy.
    pub fn copy(&self) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_copy(self.h) })
    }

    /// A view with another shape (Unsupported when the strides do not allow it).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_reshape(self.h, shape.as_ptr(), shape.len() as i32) })
    }

    /// A view whose dimension i is dimension order[i].
    pub fn permute(&self, order: &[i32]) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_permute(self.h, order.as_ptr(), order.len() as i32) })
    }

    /// A view with every dimension reversed.
    pub fn transpose(&self) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_transpose(self.h) })
    }

    /// A view of one dimension with Python's slice semantics.
    pub fn slice(&self, dim: i32, start: i64, stop: i64, step: i64) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_slice(self.h, dim, start, stop, step) })
    }

    /// A view repeating the tensor over a larger shape, NumPy style.
    pub fn broadcast(&self, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_tensor_broadcast(self.h, shape.as_ptr(), shape.len() as i32) })
    }
}

fn check_len(n: usize, shape: &[i64]) -> Result<()> {
    let want: i64 = shape.iter().product();
    if want != n as i64 {
        return Err(binding_error(Status::InvalidArgument, format!("nanograph: {} values for shape {:?}", n, shape)));
    }
    Ok(())
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tensor({}, shape {:?}, strides {:?})", self.dtype().name(), self.shape(), self.strides())
    }
}
