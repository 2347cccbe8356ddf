//! Shapes as values (smooth, jagged, nested) and index iteration.
use crate::{check, check_ptr, last_error, sys, Result};
use std::fmt;

/// The kind of a [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// A hyper-rectangle.
    Smooth,
    /// Some slices along a mode have different extents.
    Jagged,
    /// Elements that are shapes.
    Nested,
}

/// Which indices a [`ShapeIter`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexMode {
    /// Offsets from zero: one entry per mode.
    Relative,
    /// The origin added: one entry per mode of the root shape.
    Absolute,
}

/// One mode after the first of a jagged shape (see [`Shape::jagged`]).
#[derive(Clone, Copy, Debug)]
pub enum Mode<'a> {
    /// Every position of the mode before has this many children.
    Uniform(i64),
    /// Position p of the mode before has `splits[p + 1] - splits[p]` children.
    Splits(&'a [i64]),
}

/// A shape: which indices exist. Immutable and reference-counted by the library (thread-safe),
/// so it is `Send` and `Sync`, and `clone` shares it.
pub struct Shape {
    pub(crate) h: *mut sys::ng_shape_t,
}

unsafe impl Send for Shape {}
unsafe impl Sync for Shape {}

impl Drop for Shape {
    fn drop(&mut self) {
        unsafe { sys::ng_shape_release(self.h) }
    }
}

impl Clone for Shape {
    /// A second reference to the same shape.
    fn clone(&self) -> Shape {
        unsafe { sys::ng_shape_retain(self.h) };
        Shape { h: self.h }
    }
}

/// Ok for a non-negative value, the library's error otherwise.
fn non_negative<T: Copy + PartialOrd + Default>(v: T) -> Result<T> {
    if v >= T::default() {
        Ok(v)
    } else {
        Err(last_error())
    }
}

fn ptr_or_null(v: &[i64]) -> *const i64 {
    if v.is_empty() {
        std::ptr::null()
    } else {
        v.as_ptr()
    }
}

impl Shape {
    pub(crate) fn adopt(h: *mut sys::ng_shape_t) -> Result<Shape> {
        Ok(Shape { h: check_ptr(h)? })
    }

    /// The hyper-rectangle of these extents (none: rank 0, one element).
    pub fn smooth(extents: &[i64]) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_smooth(ptr_or_null(extents), extents.len() as i32) })
    }

    /// Mode 0 of extent `outer`, then `modes`: `Shape::jagged(3, &[Mode::Splits(&[0, 2, 2, 5])])`
    /// is three rows of lengths 2, 0 and 3. Normalised: rows of one length make a smooth shape.
    pub fn jagged(outer: i64, modes: &[Mode<'_>]) -> Result<Shape> {
        let splits: Vec<*const i64> = modes
            .iter()
            .map(|m| {
                if let Mode::Splits(s) = m {
                    s.as_ptr()
                } else {
                    std::ptr::null()
                }
            })
            .collect();
        let counts: Vec<i64> = modes
            .iter()
            .map(|m| {
                if let Mode::Splits(s) = m {
                    s.len() as i64
                } else {
                    0
                }
            })
            .collect();
        let extents: Vec<i64> = modes
            .iter()
            .map(|m| if let Mode::Uniform(e) = m { *e } else { 0 })
            .collect();
        let rank = modes.len() as i32 + 1;
        Shape::adopt(unsafe {
            if modes.is_empty() {
                sys::ng_shape_jagged(
                    outer,
                    rank,
                    std::ptr::null(),
                    std::ptr::null(),
                    std::ptr::null(),
                )
            } else {
                sys::ng_shape_jagged(
                    outer,
                    rank,
                    splits.as_ptr(),
                    counts.as_ptr(),
                    extents.as_ptr(),
                )
            }
        })
    }

    /// A shape whose elements are shapes: `outer.numel()` elements of one rank, in `outer`'s
    /// row-major order.
    pub fn nested(outer: &Shape, elements: &[&Shape]) -> Result<Shape> {
        let hs: Vec<*const sys::ng_shape_t> = elements.iter().map(|e| e.h as *const _).collect();
        let p = if hs.is_empty() {
            std::ptr::null()
        } else {
            hs.as_ptr()
        };
        Shape::adopt(unsafe { sys::ng_shape_nested(outer.h, p, hs.len() as i64) })
    }

    /// Smooth, jagged or nested.
    pub fn kind(&self) -> ShapeKind {
        match unsafe { sys::ng_shape_kind(self.h) } {
            k if k == sys::ng_shape_kind_code_NG_SHAPE_JAGGED => ShapeKind::Jagged,
            k if k == sys::ng_shape_kind_code_NG_SHAPE_NESTED => ShapeKind::Nested,
            _ => ShapeKind::Smooth,
        }
    }

    /// The number of modes (nested: the outer rank plus the elements' rank).
    pub fn rank(&self) -> i32 {
        unsafe { sys::ng_shape_rank(self.h) }
    }

    /// The number of elements (indices); 1 for rank 0.
    pub fn numel(&self) -> i64 {
        unsafe { sys::ng_shape_numel(self.h) }
    }

    /// The extent of mode `prefix.len()` in the slice at that index prefix.
    pub fn extent(&self, prefix: &[i64]) -> Result<i64> {
        non_negative(unsafe {
            sys::ng_shape_extent(self.h, ptr_or_null(prefix), prefix.len() as i32)
        })
    }

    /// Whether a mode's extent depends on the indices before it.
    pub fn is_jagged(&self, mode: i32) -> Result<bool> {
        non_negative(unsafe { sys::ng_shape_mode_is_jagged(self.h, mode) }).map(|v| v == 1)
    }

    /// The rank of the largest smooth slices (the rank itself for a smooth shape).
    pub fn smooth_rank(&self) -> i32 {
        unsafe { sys::ng_shape_smooth_rank(self.h) }
    }

    /// The row splits of a mode (1 <= mode < rank) over the positions of the mode before it
    /// (implicit ones, 0, e, 2e, ..., for a uniform mode).
    pub fn row_splits(&self, mode: i32) -> Result<Vec<i64>> {
        let n = non_negative(unsafe {
            sys::ng_shape_row_splits(self.h, mode, std::ptr::null_mut(), 0)
        })?;
        let mut out = vec![0i64; n as usize];
        non_negative(unsafe { sys::ng_shape_row_splits(self.h, mode, out.as_mut_ptr(), n) })?;
        Ok(out)
    }

    /// Flattens a nested shape into one smooth or jagged shape of the same rank and elements.
    pub fn flatten(&self) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_flatten(self.h) })
    }

    /// The outer shape of a nested shape.
    pub fn outer(&self) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_outer(self.h) })
    }

    /// Element `i` of a nested shape, in the outer shape's row-major order.
    pub fn element(&self, i: i64) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_element(self.h, i) })
    }

    /// Positions `start..stop` of mode 0, every mode kept; its origin is `start`.
    pub fn slice(&self, start: i64, stop: i64) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_slice(self.h, start, stop) })
    }

    /// The slice at an index prefix (the first `prefix.len()` indices fixed); its origin is the
    /// prefix.
    pub fn at(&self, prefix: &[i64]) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_at(self.h, ptr_or_null(prefix), prefix.len() as i32) })
    }

    /// Where this shape's element (0, ..., 0) is in its root shape (one entry per root mode).
    pub fn origin(&self) -> Vec<i64> {
        let n = unsafe { sys::ng_shape_origin(self.h, std::ptr::null_mut(), 0) }.max(0);
        let mut out = vec![0i64; n as usize];
        unsafe { sys::ng_shape_origin(self.h, out.as_mut_ptr(), n) };
        out
    }

    /// The shape of an elementwise op's result on operands of shapes `self` and `other`.
    pub fn broadcast(&self, other: &Shape) -> Result<Shape> {
        Shape::adopt(unsafe { sys::ng_shape_broadcast(self.h, other.h) })
    }

    /// An iterator over the indices in row-major order (it holds its own reference).
    pub fn iter(&self, mode: IndexMode) -> Result<ShapeIter> {
        let m = match mode {
            IndexMode::Relative => sys::ng_index_mode_code_NG_INDEX_RELATIVE,
            IndexMode::Absolute => sys::ng_index_mode_code_NG_INDEX_ABSOLUTE,
        };
        ShapeIter::create(self, m)
    }
}

impl PartialEq for Shape {
    /// Same kind, modes, extents and elements (origins are not compared).
    fn eq(&self, other: &Shape) -> bool {
        unsafe { sys::ng_shape_equal(self.h, other.h) == 1 }
    }
}

impl fmt::Display for Shape {
    /// A short description such as "(3, [2 0 3])" (a jagged mode as its row lengths).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = unsafe { sys::ng_shape_text(self.h, std::ptr::null_mut(), 0) }.max(0) as usize;
        let mut buf = vec![0u8; n + 1];
        unsafe { sys::ng_shape_text(self.h, buf.as_mut_ptr() as *mut _, buf.len()) };
        buf.truncate(n);
        f.write_str(&String::from_utf8_lossy(&buf))
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape{}", self)
    }
}

/// The indices of a shape in row-major order (the order of a jagged tensor's values). `Send`;
/// stepping takes `&mut self`.
pub struct ShapeIter {
    h: *mut sys::ng_shape_iter_t,
    len: usize,
}

unsafe impl Send for ShapeIter {}

impl Drop for ShapeIter {
    fn drop(&mut self) {
        unsafe { sys::ng_shape_iter_destroy(self.h) }
    }
}

impl ShapeIter {
    fn create(s: &Shape, mode: i32) -> Result<ShapeIter> {
        let h = check_ptr(unsafe { sys::ng_shape_iter_create(s.h, mode) })?;
        let len = unsafe { sys::ng_shape_iter_index_length(h) }.max(0) as usize;
        Ok(ShapeIter { h, len })
    }

    /// The number of entries of each index.
    pub fn index_length(&self) -> usize {
        self.len
    }

    /// Writes the next index into `index` and says whether there was one (no allocation).
    pub fn next_into(&mut self, index: &mut [i64]) -> Result<bool> {
        let p = if index.is_empty() {
            std::ptr::null_mut()
        } else {
            index.as_mut_ptr()
        };
        match unsafe { sys::ng_shape_iter_next(self.h, p, index.len() as i32) } {
            1 => Ok(true),
            0 => Ok(false),
            _ => Err(last_error()),
        }
    }

    /// Starts again from the first index.
    pub fn reset(&mut self) -> Result<()> {
        check(unsafe { sys::ng_shape_iter_reset(self.h) })
    }
}

impl Iterator for ShapeIter {
    type Item = Vec<i64>;
    fn next(&mut self) -> Option<Vec<i64>> {
        let mut index = vec![0i64; self.len];
        match self.next_into(&mut index) {
            Ok(true) => Some(index),
            _ => None,
        }
    }
}
