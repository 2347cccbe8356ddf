//! Jagged host tensors: values over a smooth or jagged shape, packed, never padded.
use crate::shape::Shape;
use crate::tensor::{drop_vec, new_storage, read, write, Element, Storage, Tensor};
use crate::{binding_error, check, check_ptr, last_error, sys, DType, Result, Status};
use std::os::raw::c_void;

/// A jagged tensor: a dtype, a smooth or jagged shape and one value per index, packed in
/// row-major order. Reference-counted like [`Tensor`] (`Send`, `Sync`, `clone` shares it);
/// slices are views sharing the values. Like a tensor's, the values have one read-write lock
/// shared by every handle reaching them (clones, slices, [`values`](Jagged::values) and the
/// tensor of [`from_values`](Jagged::from_values)): reads take it shared, writes exclusive.
///
/// DLPack has no jagged form: a jagged tensor crosses as its [`values`](Jagged::values) (rank 1)
/// and the [`row_splits`](Jagged::row_splits) of each jagged mode, both ordinary tensors.
pub struct Jagged {
    h: *mut sys::ng_jagged_t,
    lock: Storage,
}

unsafe impl Send for Jagged {}
unsafe impl Sync for Jagged {}

impl Drop for Jagged {
    fn drop(&mut self) {
        unsafe { sys::ng_jagged_release(self.h) }
    }
}

impl Clone for Jagged {
    /// A second handle to the same jagged tensor: the values are shared, not copied.
    fn clone(&self) -> Jagged {
        unsafe { sys::ng_jagged_retain(self.h) };
        Jagged {
            h: self.h,
            lock: self.lock.clone(),
        }
    }
}

fn count(shape: &Shape, n: usize) -> Result<()> {
    if shape.numel() != n as i64 {
        return Err(binding_error(
            Status::InvalidArgument,
            format!(
                "nanograph: {} values for the {} elements of {}",
                n,
                shape.numel(),
                shape
            ),
        ));
    }
    Ok(())
}

impl Jagged {
    /// A jagged tensor over values no other handle reaches.
    fn adopt(h: *mut sys::ng_jagged_t) -> Result<Jagged> {
        Ok(Jagged {
            h: check_ptr(h)?,
            lock: new_storage(),
        })
    }

    /// A jagged tensor over values the handles holding `lock` reach.
    fn adopt_view(h: *mut sys::ng_jagged_t, lock: &Storage) -> Result<Jagged> {
        Ok(Jagged {
            h: check_ptr(h)?,
            lock: lock.clone(),
        })
    }

    /// A zero-filled jagged tensor of a smooth or jagged shape (not nested).
    pub fn zeros(dtype: DType, shape: &Shape) -> Result<Jagged> {
        Jagged::adopt(unsafe { sys::ng_jagged_create(dtype as i32, shape.h) })
    }

    /// A jagged tensor holding a copy of `values` (the shape's element count, row-major).
    pub fn from_slice<T: Element>(shape: &Shape, values: &[T]) -> Result<Jagged> {
        count(shape, values.len())?;
        Jagged::adopt(unsafe {
            sys::ng_jagged_from_data(T::DTYPE as i32, shape.h, values.as_ptr() as *const c_void)
        })
    }

    /// A jagged tensor over a Vec's memory, without copying: it owns the Vec and frees it when the
    /// last reference to the values goes.
    pub fn from_vec<T: Element>(shape: &Shape, values: Vec<T>) -> Result<Jagged> {
        count(shape, values.len())?;
        let boxed = Box::new(values);
        let ptr = boxed.as_ptr() as *mut c_void;
        let ctx = Box::into_raw(boxed) as *mut c_void;
        let h =
            unsafe { sys::ng_jagged_wrap(T::DTYPE as i32, shape.h, ptr, Some(drop_vec::<T>), ctx) };
        if h.is_null() {
            drop(unsafe { Box::from_raw(ctx as *mut Vec<T>) }); // not taken on failure
        }
        Jagged::adopt(h)
    }

    /// A jagged tensor over the values of a rank-1 tensor, without copying.
    pub fn from_values(shape: &Shape, values: &Tensor) -> Result<Jagged> {
        Jagged::adopt_view(
            unsafe { sys::ng_jagged_from_values(shape.h, values.h) },
            &values.lock,
        )
    }

    /// Reads a jagged tensor off a padded dense tensor and its bool mask (copied).
    pub fn from_padded(padded: &Tensor, mask: &Tensor) -> Result<Jagged> {
        // Only read, but locked once each even when both are one storage (a rare call: exclusive).
        let _r = crate::tensor::write_all([&padded.lock, &mask.lock]);
        Jagged::adopt(unsafe { sys::ng_jagged_from_padded(padded.h, mask.h) })
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        DType::from_code(unsafe { sys::ng_jagged_dtype(self.h) })
            .expect("a live jagged tensor has a dtype")
    }

    /// The shape (a slice's shape carries its origin).
    pub fn shape(&self) -> Shape {
        Shape::adopt(unsafe { sys::ng_jagged_shape(self.h) })
            .expect("a live jagged tensor has a shape")
    }

    /// The values as a rank-1 tensor view, in row-major order (no copy).
    pub fn values(&self) -> Result<Tensor> {
        Tensor::adopt_view(unsafe { sys::ng_jagged_values(self.h) }, &self.lock)
    }

    /// The row splits of a mode (1 <= mode < rank) as a new int64 tensor.
    pub fn row_splits(&self, mode: i32) -> Result<Tensor> {
        Tensor::adopt(unsafe { sys::ng_jagged_row_splits(self.h, mode) })
    }

    /// Where an index (one entry per mode) is among the values.
    pub fn position(&self, index: &[i64]) -> Result<i64> {
        let p = unsafe { sys::ng_jagged_position(self.h, index.as_ptr(), index.len() as i32) };
        if p < 0 {
            return Err(last_error());
        }
        Ok(p)
    }

    fn check_dtype<T: Element>(&self) -> Result<()> {
        if self.dtype() != T::DTYPE {
            return Err(binding_error(
                Status::DType,
                format!(
                    "nanograph: the jagged tensor is {}, not {}",
                    self.dtype().name(),
                    T::DTYPE.name()
                ),
            ));
        }
        Ok(())
    }

    /// A packed copy of the values.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.check_dtype::<T>()?;
        let mut v = vec![T::default(); self.shape().numel() as usize];
        let _r = read(&self.lock);
        check(unsafe {
            sys::ng_jagged_read(
                self.h,
                v.as_mut_ptr() as *mut c_void,
                std::mem::size_of_val(&v[..]),
            )
        })?;
        Ok(v)
    }

    /// Copies packed values in (seen by every view of them; the lock is held exclusive meanwhile).
    pub fn write<T: Element>(&mut self, values: &[T]) -> Result<()> {
        self.check_dtype::<T>()?;
        let _w = write(&self.lock);
        check(unsafe {
            sys::ng_jagged_write(
                self.h,
                values.as_ptr() as *const c_void,
                std::mem::size_of_val(values),
            )
        })
    }

    /// A dense tensor padded with zeros to each mode's largest extent, and the bool mask saying
    /// which entries are values.
    pub fn to_padded(&self) -> Result<(Tensor, Tensor)> {
        let (mut p, mut m) = (std::ptr::null_mut(), std::ptr::null_mut());
        let _r = read(&self.lock);
        check(unsafe { sys::ng_jagged_to_padded(self.h, &mut p, &mut m) })?;
        Ok((Tensor::adopt(p)?, Tensor::adopt(m)?))
    }

    /// A view of positions `start..stop` of mode 0.
    pub fn slice(&self, start: i64, stop: i64) -> Result<Jagged> {
        Jagged::adopt_view(
            unsafe { sys::ng_jagged_slice(self.h, start, stop) },
            &self.lock,
        )
    }

    /// A view of the slice at an index prefix.
    pub fn at(&self, prefix: &[i64]) -> Result<Jagged> {
        Jagged::adopt_view(
            unsafe { sys::ng_jagged_at(self.h, prefix.as_ptr(), prefix.len() as i32) },
            &self.lock,
        )
    }
}

impl std::fmt::Debug for Jagged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Jagged({}, {})", self.dtype().name(), self.shape())
    }
}
