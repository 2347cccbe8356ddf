//! Graphs, axes and ops.
use crate::{
    binding_error, check, check_ptr, cstr, cstring, last_error, sys, DType, Result, Status,
};
use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::Arc;

/// The C graph, destroyed when the Graph and every computation compiled from it are gone.
pub(crate) struct GraphHandle(pub(crate) *mut sys::ng_graph_t);

// The handle is only destroyed through it (once, by whichever owner drops last).
unsafe impl Send for GraphHandle {}
unsafe impl Sync for GraphHandle {}

impl Drop for GraphHandle {
    fn drop(&mut self) {
        unsafe { sys::ng_graph_destroy(self.0) }
    }
}

/// A graph: owns its ops and axes, which borrow it. A graph is built from one thread at a time:
/// it may move to another thread (`Send`) but not be shared (`!Sync`).
pub struct Graph {
    pub(crate) h: Arc<GraphHandle>,
    _not_sync: PhantomData<Cell<()>>,
}

/// A named axis of a graph.
#[derive(Clone, Copy)]
pub struct Axis<'g> {
    pub(crate) h: *const sys::ng_axis_t,
    pub(crate) g: &'g Graph,
}

/// An op of a graph: a value with a dtype and named axes. It cannot outlive its graph.
#[derive(Clone, Copy)]
pub struct Op<'g> {
    pub(crate) h: *mut sys::ng_op_t,
    pub(crate) g: &'g Graph,
}

/// Flags of assignable tensors ([`Op::flags`] is their union).
pub const FLAG_CONSTANT: u32 = 1;
pub const FLAG_PERSISTENT: u32 = 2;
pub const FLAG_TRAINABLE: u32 = 4;
pub const FLAG_INPUT: u32 = 8;

/// One axis of a slice: `start, start + step, ...` before `stop`, or the single index `start`.
#[derive(Clone, Copy, Debug)]
pub enum Slice {
    Range { start: i64, stop: i64, step: i64 },
    Index(i64),
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Result<Graph> {
        Ok(Graph::adopt(check_ptr(unsafe { sys::ng_graph_create() })?))
    }

    pub(crate) fn adopt(h: *mut sys::ng_graph_t) -> Graph {
        Graph {
            h: Arc::new(GraphHandle(h)),
            _not_sync: PhantomData,
        }
    }

    pub(crate) fn raw(&self) -> *mut sys::ng_graph_t {
        self.h.0
    }

    pub(crate) fn op(&self, p: *mut sys::ng_op_t) -> Result<Op<'_>> {
        Ok(Op {
            h: check_ptr(p)?,
            g: self,
        })
    }

    pub(crate) fn check_own(&self, o: &Op<'_>) -> Result<*mut sys::ng_op_t> {
        if std::ptr::eq(o.g, self) {
            Ok(o.h)
        } else {
            Err(binding_error(
                Status::InvalidArgument,
                "nanograph: an op of another graph",
            ))
        }
    }

    /// The axis with this name and length (the same one for equal arguments).
    pub fn axis(&self, name: &str, length: i64) -> Result<Axis<'_>> {
        let n = cstring(name)?;
        let h = unsafe { sys::ng_axis(self.raw(), n.as_ptr(), length) };
        if h.is_null() {
            return Err(last_error());
        }
        Ok(Axis { h, g: self })
    }

    /// The status of the first op builder that failed on this graph (`Ok` if none).
    pub fn status(&self) -> Result<()> {
        if unsafe { sys::ng_graph_status(self.raw()) } == 0 {
            return Ok(());
        }
        let status = Status::from_code(unsafe { sys::ng_graph_status(self.raw()) });
        Err(binding_error(status, unsafe {
            cstr(sys::ng_graph_error(self.raw()))
        }))
    }

    /// The ops in creation order.
    pub fn ops(&self) -> Vec<Op<'_>> {
        let n = unsafe { sys::ng_graph_num_ops(self.raw()) };
        (0..n)
            .map(|i| Op {
                h: unsafe { sys::ng_graph_op(self.raw(), i) },
                g: self,
            })
            .collect()
    }

    /// The op with that name (`NotFound` when none).
    pub fn find(&self, name: &str) -> Result<Op<'_>> {
        let n = cstring(name)?;
        self.op(unsafe { sys::ng_graph_find(self.raw(), n.as_ptr()) })
    }

    /// The ops whose metadata has `key` (equal to `value` unless None).
    pub fn ops_with_metadata(&self, key: &str, value: Option<&str>) -> Result<Vec<Op<'_>>> {
        let k = cstring(key)?;
        let v = value.map(cstring).transpose()?;
        let vp = v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
        let n =
            unsafe { sys::ng_graph_select(self.raw(), k.as_ptr(), vp, std::ptr::null_mut(), 0) };
        if n < 0 {
            return Err(last_error());
        }
        let mut out = vec![std::ptr::null_mut(); n as usize];
        unsafe { sys::ng_graph_select(self.raw(), k.as_ptr(), vp, out.as_mut_ptr(), n) };
        Ok(out.into_iter().map(|h| Op { h, g: self }).collect())
    }

    /// The Graphviz DOT text of the graph, or of what `roots` depend on.
    pub fn dot_text(&self, roots: &[Op<'_>]) -> Result<String> {
        let r = self.handles(roots)?;
        let mut needed = 0usize;
        check(unsafe {
            sys::ng_graph_dot(
                self.raw(),
                r.as_ptr(),
                r.len() as i32,
                std::ptr::null_mut(),
                0,
                &mut needed,
            )
        })?;
        let mut buf = vec![0u8; needed];
        check(unsafe {
            sys::ng_graph_dot(
                self.raw(),
                r.as_ptr(),
                r.len() as i32,
                buf.as_mut_ptr() as *mut _,
                needed,
                std::ptr::null_mut(),
            )
        })?;
        buf.pop();
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// Writes the DOT text of the graph (or of what `roots` depend on) to a file.
    pub fn write_dot(&self, path: &str, roots: &[Op<'_>]) -> Result<()> {
        let r = self.handles(roots)?;
        let p = cstring(path)?;
        check(unsafe {
            sys::ng_graph_write_dot(self.raw(), r.as_ptr(), r.len() as i32, p.as_ptr())
        })
    }

    pub(crate) fn handles(&self, ops: &[Op<'_>]) -> Result<Vec<*mut sys::ng_op_t>> {
        ops.iter().map(|o| self.check_own(o)).collect()
    }

    pub(crate) fn axes(&self, axes: &[Axis<'_>]) -> Result<Vec<*const sys::ng_axis_t>> {
        axes.iter()
            .map(|a| {
                if std::ptr::eq(a.g, self) {
                    Ok(a.h)
                } else {
                    Err(binding_error(
                        Status::InvalidArgument,
                        "nanograph: an axis of another graph",
                    ))
                }
            })
            .collect()
    }
}

impl<'g> Axis<'g> {
    /// The axis's name.
    pub fn name(&self) -> String {
        unsafe { cstr(sys::ng_axis_name(self.h)) }
    }
    /// The axis's length.
    pub fn length(&self) -> i64 {
        unsafe { sys::ng_axis_length(self.h) }
    }
    /// The axes a flattened axis was made of (empty for other axes).
    pub fn components(&self) -> Vec<Axis<'g>> {
        let n = unsafe { sys::ng_axis_num_components(self.h) };
        (0..n)
            .map(|i| Axis {
                h: unsafe { sys::ng_axis_component(self.h, i) },
                g: self.g,
            })
            .collect()
    }
}

impl PartialEq for Axis<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.h == other.h
    }
}

impl std::fmt::Debug for Axis<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({})", self.name(), self.length())
    }
}

impl<'g> Op<'g> {
    /// The graph the op belongs to.
    pub fn graph(&self) -> &'g Graph {
        self.g
    }
    /// The op's name, unique in its graph.
    pub fn name(&self) -> String {
        unsafe { cstr(sys::ng_op_name(self.h)) }
    }
    /// Renames the op.
    pub fn set_name(&self, name: &str) -> Result<()> {
        let n = cstring(name)?;
        check(unsafe { sys::ng_op_set_name(self.h, n.as_ptr()) })
    }
    /// The op's type ("Add", "Variable", ...).
    pub fn op_type(&self) -> String {
        unsafe { cstr(sys::ng_op_type(self.h)) }
    }
    /// The dtype of the op's value.
    pub fn dtype(&self) -> DType {
        DType::from_code(unsafe { sys::ng_op_dtype(self.h) }).expect("a live op has a dtype")
    }
    /// The axes of the op's value, in order.
    pub fn axes(&self) -> Vec<Axis<'g>> {
        let n = unsafe { sys::ng_op_rank(self.h) };
        (0..n)
            .map(|i| Axis {
                h: unsafe { sys::ng_op_axis(self.h, i) },
                g: self.g,
            })
            .collect()
    }
    /// The lengths of the op's axes.
    pub fn shape(&self) -> Vec<i64> {
        self.axes().iter().map(|a| a.length()).collect()
    }
    /// The union of the FLAG_* values (0 for ops that are not assignable tensors).
    pub fn flags(&self) -> u32 {
        unsafe { sys::ng_op_flags(self.h) }
    }
    /// The data arguments.
    pub fn args(&self) -> Vec<Op<'g>> {
        let n = unsafe { sys::ng_op_num_args(self.h) };
        (0..n)
            .map(|i| Op {
                h: unsafe { sys::ng_op_arg(self.h, i) },
                g: self.g,
            })
            .collect()
    }
    /// The ops that must run before this one.
    pub fn control_deps(&self) -> Vec<Op<'g>> {
        let n = unsafe { sys::ng_op_num_control_deps(self.h) };
        (0..n)
            .map(|i| Op {
                h: unsafe { sys::ng_op_control_dep(self.h, i) },
                g: self.g,
            })
            .collect()
    }
    /// Makes `dep` run before this op whenever it runs.
    pub fn add_control_dep(&self, dep: Op<'g>) -> Result<()> {
        check(unsafe { sys::ng_op_add_control_dep(self.h, dep.h) })
    }
    /// The initial value of an assignable tensor, if it has one.
    pub fn initial_value(&self) -> Option<Op<'g>> {
        let p = unsafe { sys::ng_op_initial_value(self.h) };
        (!p.is_null()).then(|| Op { h: p, g: self.g })
    }
    /// Sets (or replaces) a metadata entry.
    pub fn set_metadata(&self, key: &str, value: &str) -> Result<()> {
        let (k, v) = (cstring(key)?, cstring(value)?);
        check(unsafe { sys::ng_op_set_metadata(self.h, k.as_ptr(), v.as_ptr()) })
    }
    /// A metadata value, if the key is present.
    pub fn metadata(&self, key: &str) -> Option<String> {
        let k = cstring(key).ok()?;
        let p = unsafe { sys::ng_op_metadata(self.h, k.as_ptr()) };
        (!p.is_null()).then(|| unsafe { cstr(p) })
    }
    /// The trainable variables the op depends on, in the order first reached.
    pub fn variables(&self) -> Result<Vec<Op<'g>>> {
        self.listing(sys::ng_variables)
    }
    /// The placeholders the op depends on, in the order first reached.
    pub fn placeholders(&self) -> Result<Vec<Op<'g>>> {
        self.listing(sys::ng_placeholders)
    }
    fn listing(
        &self,
        f: unsafe extern "C" fn(*const sys::ng_op_t, *mut *mut sys::ng_op_t, i32) -> i32,
    ) -> Result<Vec<Op<'g>>> {
        let n = unsafe { f(self.h, std::ptr::null_mut(), 0) };
        if n < 0 {
            return Err(last_error());
        }
        let mut out = vec![std::ptr::null_mut(); n as usize];
        unsafe { f(self.h, out.as_mut_ptr(), n) };
        Ok(out.into_iter().map(|h| Op { h, g: self.g }).collect())
    }
    /// Whether two ops are the same op.
    pub fn same(&self, other: &Op<'_>) -> bool {
        self.h == other.h
    }
}

impl std::fmt::Debug for Op<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Op({}: {}, {}{:?})",
            self.name(),
            self.op_type(),
            self.dtype().name(),
            self.axes()
        )
    }
}
