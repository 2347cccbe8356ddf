//! Host tensors: reference-counted, strided, in memory the library or a Vec owns.
use crate::{binding_error, check, check_ptr, sys, DType, Result, Status};
use std::os::raw::c_void;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The lock of one storage: every Rust handle (tensor, view, jagged tensor) that can reach the
/// same memory holds the same lock. Reading elements takes it shared, writing them exclusive, so
/// handles on different threads never race in the library.
pub(crate) type Storage = Arc<RwLock<()>>;

pub(crate) fn new_storage() -> Storage {
    Arc::new(RwLock::new(()))
}

// The locked sections only call the library, which does not panic; a panic elsewhere while a
// guard is held leaves consistent elements, so poisoning is ignored.
pub(crate) fn read(s: &Storage) -> RwLockReadGuard<'_, ()> {
    s.read().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn write(s: &Storage) -> RwLockWriteGuard<'_, ()> {
    s.write().unwrap_or_else(|e| e.into_inner())
}

/// Exclusive locks of several storages, each taken once (the same storage may come twice) and in
/// the order of their addresses, so that two threads locking overlapping sets never deadlock.
pub(crate) fn write_all<'a>(
    storages: impl IntoIterator<Item = &'a Storage>,
) -> Vec<RwLockWriteGuard<'a, ()>> {
    let mut v: Vec<&Storage> = storages.into_iter().collect();
    v.sort_by_key(|s| Arc::as_ptr(s) as usize);
    v.dedup_by(|a, b| Arc::ptr_eq(a, b));
    v.into_iter().map(write).collect()
}

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
/// A tensor is `Send` and `Sync`. Clones and views (reshape, slice, ...) share its memory, and
/// with it one read-write lock: reads (`to_vec`, `as_slice`, runs, ...) take it shared and writes
/// (`write`, runs) exclusive, so threads writing and reading through different handles of the
/// same memory see whole values, never a data race.
pub struct Tensor {
    pub(crate) h: *mut sys::ng_tensor_t,
    pub(crate) lock: Storage,
}

/// The elements of a dense tensor, borrowed without copying ([`Tensor::as_slice`]): derefs to
/// `&[T]` and keeps writers to the tensor's memory (through any handle) waiting until dropped.
pub struct ReadSlice<'a, T> {
    data: &'a [T],
    _guard: RwLockReadGuard<'a, ()>,
}

impl<T> std::ops::Deref for ReadSlice<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.data
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for ReadSlice<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.data.fmt(f)
    }
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
        Tensor {
            h: self.h,
            lock: self.lock.clone(),
        }
    }
}

pub(crate) unsafe extern "C" fn drop_vec<T>(_data: *mut c_void, ctx: *mut c_void) {
    drop(Box::from_raw(ctx as *mut Vec<T>));
}

impl Tensor {
    /// A tensor over memory no other handle reaches.
    pub(crate) fn adopt(h: *mut sys::ng_tensor_t) -> Result<Tensor> {
        Ok(Tensor {
            h: check_ptr(h)?,
            lock: new_storage(),
        })
    }

    /// A tensor over memory the handles holding `lock` reach (a view).
    pub(crate) fn adopt_view(h: *mut sys::ng_tensor_t, lock: &Storage) -> Result<Tensor> {
        Ok(Tensor {
            h: check_ptr(h)?,
            lock: lock.clone(),
        })
    }

    /// A zero-filled dense tensor.
    pub fn zeros(dtype: DType, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt(unsafe {
            sys::ng_tensor_create(dtype as i32, shape.as_ptr(), shape.len() as i32)
        })
    }

    /// A dense tensor holding a copy of `data` (row-major, `shape`'s element count).
    pub fn from_slice<T: Element>(data: &[T], shape: &[i64]) -> Result<Tensor> {
        check_len(data.len(), shape)?;
        Tensor::adopt(unsafe {
            sys::ng_tensor_from_data(
                T::DTYPE as i32,
                shape.as_ptr(),
                shape.len() as i32,
                data.as_ptr() as *const c_void,
            )
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
            sys::ng_tensor_wrap(
                T::DTYPE as i32,
                shape.as_ptr(),
                std::ptr::null(),
                shape.len() as i32,
                ptr,
                Some(drop_vec::<T>),
                ctx,
            )
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
    /// tensor or any view or export of it lives, and nothing but this tensor, its clones and views
    /// may read or write those elements meanwhile (the tensor's lock covers only its own handles:
    /// wrapping the same memory twice makes two unrelated locks).
    pub unsafe fn wrap_raw(
        dtype: DType,
        shape: &[i64],
        strides: Option<&[i64]>,
        data: *mut c_void,
    ) -> Result<Tensor> {
        let st = strides.map_or(std::ptr::null(), |s| s.as_ptr());
        Tensor::adopt(sys::ng_tensor_wrap(
            dtype as i32,
            shape.as_ptr(),
            st,
            shape.len() as i32,
            data,
            None,
            std::ptr::null_mut(),
        ))
    }

    /// Imports a DLPack 0.6 `DLManagedTensor` without copying; the tensor owns it on success.
    ///
    /// # Safety
    /// `managed` must point to a valid `DLManagedTensor` the caller owns, and while the tensor or
    /// any clone or view of it lives, nothing else (the exporting library, another import of the
    /// same memory) may write its elements, nor read them while a handle of this tensor writes.
    pub unsafe fn from_dlpack(managed: *mut c_void) -> Result<Tensor> {
        Tensor::adopt(sys::ng_tensor_from_dlpack(
            managed as *mut sys::DLManagedTensor,
        ))
    }

    /// Exports the tensor as a DLPack 0.6 `DLManagedTensor` without copying; the consumer calls
    /// its deleter once.
    ///
    /// The export is a raw pointer outside the tensor's lock: whoever dereferences it (unsafe
    /// code, another library) must not access the elements while a handle of the tensor writes
    /// them, nor write them while one reads them.
    pub fn to_dlpack(&self) -> Result<*mut c_void> {
        let mut out: *mut sys::DLManagedTensor = std::ptr::null_mut();
        check(unsafe { sys::ng_tensor_to_dlpack(self.h, &mut out) })?;
        Ok(out as *mut c_void)
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        DType::from_code(unsafe { sys::ng_tensor_dtype(self.h) })
            .expect("a live tensor has a dtype")
    }

    /// The dimensions.
    pub fn shape(&self) -> Vec<i64> {
        (0..unsafe { sys::ng_tensor_rank(self.h) })
            .map(|i| unsafe { sys::ng_tensor_dim(self.h, i) })
            .collect()
    }

    /// The strides, in elements.
    pub fn strides(&self) -> Vec<i64> {
        (0..unsafe { sys::ng_tensor_rank(self.h) })
            .map(|i| unsafe { sys::ng_tensor_stride(self.h, i) })
            .collect()
    }

    /// The number of elements.
    pub fn numel(&self) -> i64 {
        unsafe { sys::ng_tensor_numel(self.h) }
    }

    /// Whether the tensor is dense row-major.
    pub fn is_contiguous(&self) -> bool {
        unsafe { sys::ng_tensor_is_contiguous(self.h) == 1 }
    }

    /// The address of element (0, ..., 0). Accessing memory through it is unsafe and outside the
    /// tensor's lock: the same rules as for [`to_dlpack`](Tensor::to_dlpack) apply.
    pub fn data_ptr(&self) -> *mut c_void {
        unsafe { sys::ng_tensor_data(self.h) }
    }

    fn dense<T: Element>(&self) -> Result<(*mut T, usize)> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(
                Status::DType,
                format!(
                    "nanograph: the tensor is {}, not {}",
                    self.dtype().name(),
                    T::DTYPE.name()
                ),
            ));
        }
        if !self.is_contiguous() {
            return Err(binding_error(
                Status::Unsupported,
                "nanograph: the tensor is not dense: copy() it first",
            ));
        }
        Ok((self.data_ptr() as *mut T, self.numel() as usize))
    }

    /// The elements of a dense tensor, without copying. The returned guard holds the tensor's
    /// lock shared: writes through any handle of the same memory wait until it is dropped (so do
    /// not write through another handle on the same thread while holding it: that deadlocks).
    pub fn as_slice<T: Element>(&self) -> Result<ReadSlice<'_, T>> {
        let (p, n) = self.dense::<T>()?;
        let guard = read(&self.lock);
        let data = if n == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(p as *const T, n) }
        };
        Ok(ReadSlice {
            data,
            _guard: guard,
        })
    }

    /// The elements of a dense tensor, writable, without copying.
    ///
    /// # Safety
    /// Clones and views of a tensor (reshape, slice, ...), jagged tensors over its values and
    /// computations' in-place outputs share its memory, and the slice does not hold the tensor's
    /// lock: nothing else (on any thread) may read or write these elements while it is borrowed.
    pub unsafe fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        let (p, n) = self.dense::<T>()?;
        Ok(if n == 0 {
            &mut []
        } else {
            std::slice::from_raw_parts_mut(p, n)
        })
    }

    /// A dense row-major copy of the elements, whatever the strides.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(
                Status::DType,
                format!(
                    "nanograph: the tensor is {}, not {}",
                    self.dtype().name(),
                    T::DTYPE.name()
                ),
            ));
        }
        let mut v = vec![T::default(); self.numel() as usize];
        let _r = read(&self.lock);
        check(unsafe {
            sys::ng_tensor_read(
                self.h,
                v.as_mut_ptr() as *mut c_void,
                v.len() * std::mem::size_of::<T>(),
            )
        })?;
        Ok(v)
    }

    /// Copies dense row-major values in, whatever the strides (seen by every clone and view; the
    /// tensor's lock is held exclusive meanwhile).
    pub fn write<T: Element>(&mut self, values: &[T]) -> Result<()> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(
                Status::DType,
                format!(
                    "nanograph: the tensor is {}, not {}",
                    self.dtype().name(),
                    T::DTYPE.name()
                ),
            ));
        }
        let _w = write(&self.lock);
        check(unsafe {
            sys::ng_tensor_write(
                self.h,
                values.as_ptr() as *const c_void,
                std::mem::size_of_val(values),
            )
        })
    }

    /// A dense copy.
    pub fn copy(&self) -> Result<Tensor> {
        let _r = read(&self.lock);
        Tensor::adopt(unsafe { sys::ng_tensor_copy(self.h) })
    }

    /// A view with another shape (Unsupported when the strides do not allow it).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt_view(
            unsafe { sys::ng_tensor_reshape(self.h, shape.as_ptr(), shape.len() as i32) },
            &self.lock,
        )
    }

    /// A view whose dimension i is dimension order[i].
    pub fn permute(&self, order: &[i32]) -> Result<Tensor> {
        Tensor::adopt_view(
            unsafe { sys::ng_tensor_permute(self.h, order.as_ptr(), order.len() as i32) },
            &self.lock,
        )
    }

    /// A view with every dimension reversed.
    pub fn transpose(&self) -> Result<Tensor> {
        Tensor::adopt_view(unsafe { sys::ng_tensor_transpose(self.h) }, &self.lock)
    }

    /// A view of one dimension with Python's slice semantics.
    pub fn slice(&self, dim: i32, start: i64, stop: i64, step: i64) -> Result<Tensor> {
        Tensor::adopt_view(
            unsafe { sys::ng_tensor_slice(self.h, dim, start, stop, step) },
            &self.lock,
        )
    }

    /// A view repeating the tensor over a larger shape, NumPy style.
    pub fn broadcast(&self, shape: &[i64]) -> Result<Tensor> {
        Tensor::adopt_view(
            unsafe { sys::ng_tensor_broadcast(self.h, shape.as_ptr(), shape.len() as i32) },
            &self.lock,
        )
    }
}

fn check_len(n: usize, shape: &[i64]) -> Result<()> {
    let want: i64 = shape.iter().product();
    if want != n as i64 {
        return Err(binding_error(
            Status::InvalidArgument,
            format!("nanograph: {} values for shape {:?}", n, shape),
        ));
    }
    Ok(())
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tensor({}, shape {:?}, strides {:?})",
            self.dtype().name(),
            self.shape(),
            self.strides()
        )
    }
}
