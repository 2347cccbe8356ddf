//! Op builders: every one returns the new op or the library's error (the graph also records
//! its first error: `Graph::status`).
use crate::graph::{Axis, Graph, Op, Slice};
use crate::{binding_error, cstring, sys, DType, Result, Status};
use std::ptr::null_mut;

impl Graph {
    /// `ng_segment_sum(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_sum<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_sum(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_mean(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_mean<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_mean(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_max(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_max<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_max(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_min(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_min<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_min(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_softmax(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_softmax<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_softmax(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_log_softmax(x, along, splits, segments)` (splits: int64 row splits of the flat axis).
    pub fn segment_log_softmax<'g>(&'g self, x: Op<'g>, along: Axis<'g>, splits: Op<'g>, segments: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[along, segments])?;
        self.op(unsafe { sys::ng_segment_log_softmax(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }

    /// `ng_segment_gather(x, segments, splits, along)` (splits: int64 row splits of the flat axis).
    pub fn segment_gather<'g>(&'g self, x: Op<'g>, segments: Axis<'g>, splits: Op<'g>, along: Axis<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[x, splits])?;
        let ax = self.axes(&[segments, along])?;
        self.op(unsafe { sys::ng_segment_gather(self.raw(), h[0], ax[0], h[1], ax[1]) })
    }


    /// `ng_negative(x)`.
    pub fn negative<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_negative(self.raw(), x) })
    }

    /// `ng_absolute(x)`.
    pub fn absolute<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_absolute(self.raw(), x) })
    }

    /// `ng_sign(x)`.
    pub fn sign<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_sign(self.raw(), x) })
    }

    /// `ng_exp(x)`.
    pub fn exp<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_exp(self.raw(), x) })
    }

    /// `ng_log(x)`.
    pub fn log<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_log(self.raw(), x) })
    }

    /// `ng_sqrt(x)`.
    pub fn sqrt<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_sqrt(self.raw(), x) })
    }

    /// `ng_square(x)`.
    pub fn square<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_square(self.raw(), x) })
    }

    /// `ng_reciprocal(x)`.
    pub fn reciprocal<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_reciprocal(self.raw(), x) })
    }

    /// `ng_sigmoid(x)`.
    pub fn sigmoid<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_sigmoid(self.raw(), x) })
    }

    /// `ng_relu(x)`.
    pub fn relu<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_relu(self.raw(), x) })
    }

    /// `ng_sin(x)`.
    pub fn sin<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_sin(self.raw(), x) })
    }

    /// `ng_cos(x)`.
    pub fn cos<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_cos(self.raw(), x) })
    }

    /// `ng_tanh(x)`.
    pub fn tanh<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_tanh(self.raw(), x) })
    }

    /// `ng_stop_gradient(x)`.
    pub fn stop_gradient<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_stop_gradient(self.raw(), x) })
    }

    /// `ng_unflatten(x)`.
    pub fn unflatten<'g>(&'g self, x: Op<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_unflatten(self.raw(), x) })
    }

    /// `ng_add(a, b)`, the operands aligned by axis name.
    pub fn add<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_add(self.raw(), a, b) })
    }

    /// `ng_subtract(a, b)`, the operands aligned by axis name.
    pub fn subtract<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_subtract(self.raw(), a, b) })
    }

    /// `ng_multiply(a, b)`, the operands aligned by axis name.
    pub fn multiply<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_multiply(self.raw(), a, b) })
    }

    /// `ng_divide(a, b)`, the operands aligned by axis name.
    pub fn divide<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_divide(self.raw(), a, b) })
    }

    /// `ng_power(a, b)`, the operands aligned by axis name.
    pub fn power<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_power(self.raw(), a, b) })
    }

    /// `ng_maximum(a, b)`, the operands aligned by axis name.
    pub fn maximum<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_maximum(self.raw(), a, b) })
    }

    /// `ng_minimum(a, b)`, the operands aligned by axis name.
    pub fn minimum<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_minimum(self.raw(), a, b) })
    }

    /// `ng_equal(a, b)`, the operands aligned by axis name.
    pub fn equal<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_equal(self.raw(), a, b) })
    }

    /// `ng_not_equal(a, b)`, the operands aligned by axis name.
    pub fn not_equal<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_not_equal(self.raw(), a, b) })
    }

    /// `ng_less(a, b)`, the operands aligned by axis name.
    pub fn less<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_less(self.raw(), a, b) })
    }

    /// `ng_less_equal(a, b)`, the operands aligned by axis name.
    pub fn less_equal<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_less_equal(self.raw(), a, b) })
    }

    /// `ng_greater(a, b)`, the operands aligned by axis name.
    pub fn greater<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_greater(self.raw(), a, b) })
    }

    /// `ng_greater_equal(a, b)`, the operands aligned by axis name.
    pub fn greater_equal<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_greater_equal(self.raw(), a, b) })
    }

    /// `ng_dot(a, b)`, the operands aligned by axis name.
    pub fn dot<'g>(&'g self, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let (a, b) = (self.check_own(&a)?, self.check_own(&b)?);
        self.op(unsafe { sys::ng_dot(self.raw(), a, b) })
    }

    /// `ng_sum(x, axes)` (no axes: every axis).
    pub fn sum<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_sum(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_max(x, axes)` (no axes: every axis).
    pub fn max<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_max(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_min(x, axes)` (no axes: every axis).
    pub fn min<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_min(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_mean(x, axes)` (no axes: every axis).
    pub fn mean<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_mean(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_prod(x, axes)` (no axes: every axis).
    pub fn prod<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_prod(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_variance(x, axes)` (no axes: every axis).
    pub fn variance<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_variance(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_squared_l2(x, axes)` (no axes: every axis).
    pub fn squared_l2<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_squared_l2(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_l2_norm(x, axes)` (no axes: every axis).
    pub fn l2_norm<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_l2_norm(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_l1_norm(x, axes)` (no axes: every axis).
    pub fn l1_norm<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_l1_norm(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_softmax(x, axes)` (no axes: every axis).
    pub fn softmax<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_softmax(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_log_softmax(x, axes)` (no axes: every axis).
    pub fn log_softmax<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_log_softmax(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_broadcast(x, axes)`.
    pub fn broadcast<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_broadcast(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_axes_with_order(x, axes)`.
    pub fn axes_with_order<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_axes_with_order(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_cast_axes(x, axes)`.
    pub fn cast_axes<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_cast_axes(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_reshape(x, axes)`.
    pub fn reshape<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_reshape(self.raw(), x, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_cross_entropy_multi(y, t, axes)`.
    pub fn cross_entropy_multi<'g>(&'g self, y: Op<'g>, t: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let (y, t) = (self.check_own(&y)?, self.check_own(&t)?);
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_cross_entropy_multi(self.raw(), y, t, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_cross_entropy_binary(y, t, axes)`.
    pub fn cross_entropy_binary<'g>(&'g self, y: Op<'g>, t: Op<'g>, axes: &[Axis<'g>]) -> Result<Op<'g>> {
        let (y, t) = (self.check_own(&y)?, self.check_own(&t)?);
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_cross_entropy_binary(self.raw(), y, t, ax.as_ptr(), ax.len() as i32) })
    }

    /// `ng_argmax(x, axis)`: int64 indices.
    pub fn argmax<'g>(&'g self, x: Op<'g>, axis: Axis<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let a = self.axes(&[axis])?;
        self.op(unsafe { sys::ng_argmax(self.raw(), x, a[0]) })
    }

    /// `ng_argmin(x, axis)`: int64 indices.
    pub fn argmin<'g>(&'g self, x: Op<'g>, axis: Axis<'g>) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let a = self.axes(&[axis])?;
        self.op(unsafe { sys::ng_argmin(self.raw(), x, a[0]) })
    }

    /// `ng_placeholder`: `initial` None means zeros.
    pub fn placeholder<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], initial: Option<Op<'g>>) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let init = initial.map(|o| self.check_own(&o)).transpose()?.unwrap_or(null_mut());
        self.op(unsafe { sys::ng_placeholder(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, init) })
    }

    /// `ng_variable`: `initial` None means zeros.
    pub fn variable<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], initial: Option<Op<'g>>) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let init = initial.map(|o| self.check_own(&o)).transpose()?.unwrap_or(null_mut());
        self.op(unsafe { sys::ng_variable(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, init) })
    }

    /// `ng_persistent_tensor`: `initial` None means zeros.
    pub fn persistent_tensor<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], initial: Option<Op<'g>>) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let init = initial.map(|o| self.check_own(&o)).transpose()?.unwrap_or(null_mut());
        self.op(unsafe { sys::ng_persistent_tensor(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, init) })
    }

    /// An assignable tensor with any valid union of FLAG_* values.
    pub fn assignable_tensor<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], flags: u32, initial: Option<Op<'g>>) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let init = initial.map(|o| self.check_own(&o)).transpose()?.unwrap_or(null_mut());
        self.op(unsafe { sys::ng_assignable_tensor(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, flags, init) })
    }

    /// A constant holding `data` (dense row-major over `axes`).
    pub fn constant<'g, T: crate::Element>(&'g self, axes: &[Axis<'g>], data: &[T]) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        let n: i64 = axes.iter().map(|a| a.length()).product();
        if n != data.len() as i64 {
            return Err(binding_error(Status::InvalidArgument, format!("nanograph: constant: {} values for {} elements", data.len(), n)));
        }
        self.op(unsafe { sys::ng_constant(self.raw(), T::DTYPE as i32, ax.as_ptr(), ax.len() as i32, data.as_ptr() as *const _) })
    }

    /// A float32 constant of rank 0.
    pub fn scalar(&self, value: f64) -> Result<Op<'_>> {
        self.op(unsafe { sys::ng_scalar(self.raw(), value) })
    }

    /// A constant of rank 0 and any dtype.
    pub fn scalar_of(&self, dtype: DType, value: f64) -> Result<Op<'_>> {
        self.op(unsafe { sys::ng_scalar_of(self.raw(), dtype as i32, value) })
    }

    /// x converted to another dtype.
    pub fn cast<'g>(&'g self, x: Op<'g>, dtype: DType) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        self.op(unsafe { sys::ng_cast(self.raw(), x, dtype as i32) })
    }

    /// cond ? a : b, elementwise.
    pub fn select<'g>(&'g self, cond: Op<'g>, a: Op<'g>, b: Op<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[cond, a, b])?;
        self.op(unsafe { sys::ng_select(self.raw(), h[0], h[1], h[2]) })
    }

    /// x with one more axis at `position`, repeated along it.
    pub fn expand_dims<'g>(&'g self, x: Op<'g>, axis: Axis<'g>, position: i32) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let a = self.axes(&[axis])?;
        self.op(unsafe { sys::ng_expand_dims(self.raw(), x, a[0], position) })
    }

    /// A slice of x: one [`Slice`] per axis.
    pub fn slice<'g>(&'g self, x: Op<'g>, specs: &[Slice]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let cs = slice_specs(specs);
        self.op(unsafe { sys::ng_slice(self.raw(), x, cs.as_ptr(), cs.len() as i32) })
    }

    /// Writes rhs into a slice of lhs (one [`Slice`] per axis) when the op runs.
    pub fn assign_slice<'g>(&'g self, lhs: Op<'g>, specs: &[Slice], rhs: Op<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[lhs, rhs])?;
        let cs = slice_specs(specs);
        self.op(unsafe { sys::ng_assign_slice(self.raw(), h[0], cs.as_ptr(), cs.len() as i32, h[1]) })
    }

    /// Sets every element of an assignable tensor to value when the op runs.
    pub fn fill<'g>(&'g self, persistent: Op<'g>, value: f64) -> Result<Op<'g>> {
        let p = self.check_own(&persistent)?;
        self.op(unsafe { sys::ng_fill(self.raw(), p, value) })
    }

    /// An assignable tensor's value at this op's position in the order of side effects.
    pub fn value_of<'g>(&'g self, persistent: Op<'g>) -> Result<Op<'g>> {
        let p = self.check_own(&persistent)?;
        self.op(unsafe { sys::ng_value_of(self.raw(), p) })
    }

    /// x padded with zeros: `before[i]` and `after[i]` elements around axis i.
    pub fn pad<'g>(&'g self, x: Op<'g>, before: &[i64], after: &[i64]) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        if before.len() != after.len() {
            return Err(binding_error(Status::InvalidArgument, "nanograph: pad: before and after differ in length"));
        }
        self.op(unsafe { sys::ng_pad(self.raw(), x, before.as_ptr(), after.as_ptr(), before.len() as i32) })
    }

    /// Consecutive axes merged into one named `name` ("" joins the names with '_').
    pub fn flatten<'g>(&'g self, x: Op<'g>, axes: &[Axis<'g>], name: &str) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let ax = self.axes(axes)?;
        let n = cstring(name)?;
        self.op(unsafe { sys::ng_flatten(self.raw(), x, ax.as_ptr(), ax.len() as i32, n.as_ptr()) })
    }

    /// The ops concatenated along the axis of that name.
    pub fn concat<'g>(&'g self, ops: &[Op<'g>], axis_name: &str) -> Result<Op<'g>> {
        let h = self.handles(ops)?;
        let n = cstring(axis_name)?;
        self.op(unsafe { sys::ng_concat(self.raw(), h.as_ptr(), h.len() as i32, n.as_ptr()) })
    }

    /// The ops stacked along a new axis at `position`.
    pub fn stack<'g>(&'g self, ops: &[Op<'g>], axis: Axis<'g>, position: i32) -> Result<Op<'g>> {
        let h = self.handles(ops)?;
        let a = self.axes(&[axis])?;
        self.op(unsafe { sys::ng_stack(self.raw(), h.as_ptr(), h.len() as i32, a[0], position) })
    }

    /// One-hot encoding along a new first axis.
    pub fn one_hot<'g>(&'g self, x: Op<'g>, axis: Axis<'g>, dtype: DType) -> Result<Op<'g>> {
        let x = self.check_own(&x)?;
        let a = self.axes(&[axis])?;
        self.op(unsafe { sys::ng_one_hot(self.raw(), x, a[0], dtype as i32) })
    }

    /// Writes rhs into lhs when the op runs.
    pub fn assign<'g>(&'g self, lhs: Op<'g>, rhs: Op<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[lhs, rhs])?;
        self.op(unsafe { sys::ng_assign(self.raw(), h[0], h[1]) })
    }

    /// Runs ops in order; the value is the last one's.
    pub fn sequential<'g>(&'g self, ops: &[Op<'g>]) -> Result<Op<'g>> {
        let h = self.handles(ops)?;
        self.op(unsafe { sys::ng_sequential(self.raw(), h.as_ptr(), h.len() as i32) })
    }

    /// d(cost)/d(wrt) for a scalar cost.
    pub fn deriv<'g>(&'g self, cost: Op<'g>, wrt: Op<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[cost, wrt])?;
        self.op(unsafe { sys::ng_deriv(self.raw(), h[0], h[1]) })
    }

    /// The vector-Jacobian product d(sum(error * y))/d(wrt).
    pub fn vjp<'g>(&'g self, y: Op<'g>, error: Op<'g>, wrt: Op<'g>) -> Result<Op<'g>> {
        let h = self.handles(&[y, error, wrt])?;
        self.op(unsafe { sys::ng_vjp(self.raw(), h[0], h[1], h[2]) })
    }

    /// One step of SGD over the trainable variables of cost; the op's value is the cost.
    pub fn sgd<'g>(&'g self, cost: Op<'g>, learning_rate: Op<'g>, options: &SgdOptions) -> Result<Op<'g>> {
        let h = self.handles(&[cost, learning_rate])?;
        let mut o = sgd_defaults();
        o.momentum = options.momentum;
        o.nesterov = options.nesterov as i32;
        o.weight_decay = options.weight_decay;
        self.op(unsafe { sys::ng_sgd(self.raw(), h[0], h[1], &o) })
    }

    /// One step of Adam over the trainable variables of cost; the op's value is the cost.
    pub fn adam<'g>(&'g self, cost: Op<'g>, learning_rate: Op<'g>, options: &AdamOptions) -> Result<Op<'g>> {
        let h = self.handles(&[cost, learning_rate])?;
        let mut o = adam_defaults();
        o.beta1 = options.beta1;
        o.beta2 = options.beta2;
        o.epsilon = options.epsilon;
        o.weight_decay = options.weight_decay;
        self.op(unsafe { sys::ng_adam(self.raw(), h[0], h[1], &o) })
    }

    /// Values drawn uniformly from `[low, high)` at every run, from the transformer's generator
    /// ([`Transformer::set_seed`](crate::Transformer::set_seed)); unlike [`uniform`](Graph::uniform),
    /// an initial value drawn once.
    pub fn random_uniform<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], low: f64, high: f64) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_uniform(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, low, high) })
    }

    /// Values drawn from N(mean, stddev²) at every run, like [`random_uniform`](Graph::random_uniform).
    pub fn random_normal<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], mean: f64, stddev: f64) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_normal(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, mean, stddev) })
    }

    /// Uniform values in [low, high), as an initial value.
    pub fn uniform<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], low: f64, high: f64, seed: u64) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_initializer_uniform(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, low, high, seed) })
    }

    /// Normally distributed values, as an initial value.
    pub fn normal<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], mean: f64, stddev: f64, seed: u64) -> Result<Op<'g>> {
        let ax = self.axes(axes)?;
        self.op(unsafe { sys::ng_initializer_normal(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, mean, stddev, seed) })
    }

    /// Glorot/Xavier uniform values; `fan_in` are the axes a unit sums over.
    pub fn glorot_uniform<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], fan_in: &[Axis<'g>], seed: u64) -> Result<Op<'g>> {
        let (ax, fi) = (self.axes(axes)?, self.axes(fan_in)?);
        self.op(unsafe { sys::ng_initializer_glorot_uniform(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, fi.as_ptr(), fi.len() as i32, seed) })
    }

    /// He (Kaiming) normal values.
    pub fn he_normal<'g>(&'g self, dtype: DType, axes: &[Axis<'g>], fan_in: &[Axis<'g>], seed: u64) -> Result<Op<'g>> {
        let (ax, fi) = (self.axes(axes)?, self.axes(fan_in)?);
        self.op(unsafe { sys::ng_initializer_he_normal(self.raw(), dtype as i32, ax.as_ptr(), ax.len() as i32, fi.as_ptr(), fi.len() as i32, seed) })
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
        SgdOptions { momentum: o.momentum, nesterov: o.nesterov != 0, weight_decay: o.weight_decay }
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
        AdamOptions { beta1: o.beta1, beta2: o.beta2, epsilon: o.epsilon, weight_decay: o.weight_decay }
    }
}


fn slice_specs(specs: &[Slice]) -> Vec<sys::ng_slice_t> {
    specs
        .iter()
        .map(|s| match *s {
            Slice::Range { start, stop, step } => sys::ng_slice_t { start, stop, step, index_only: 0 },
            Slice::Index(i) => sys::ng_slice_t { start: i, stop: 0, step: 1, index_only: 1 },
        })
        .collect()
}
