//! nanograph: tensor computation graphs over named axes, from Rust.
//!
//! ```no_run
//! use nanograph::{DType, Graph, Tensor, Transformer};
//! # fn main() -> Result<(), nanograph::Error> {
//! let g = Graph::new()?;
//! let n = g.axis("N", 4)?;
//! let x = g.placeholder(DType::Float32, &[n], None)?;
//! let y = g.placeholder(DType::Float32, &[n], None)?;
//! let cost = g.sum(g.square(g.subtract(x, y)?)?, &[])?;
//! let dx = g.deriv(cost, x)?;
//! let t = Transformer::new(None)?;
//! let mut f = t.computation(&[cost, dx], &[x, y])?;
//! let out = f.run(&[&Tensor::from_slice(&[1f32, 2., 3., 4.], &[4])?, &Tensor::zeros(DType::Float32, &[4])?])?;
//! assert_eq!(out[0].to_vec::<f32>()?, vec![30.0]);
//! # Ok(()) }
//! ```
//!
//! Handles free their C object on `Drop`. Axes and ops borrow their graph (`Op<'g>`), so none can
//! outlive it; a computation keeps the C graph it was compiled from until it is dropped. Every
//! failure is an [`Error`] with the library's status and message.
use nanograph_sys as sys;
use std::ffi::CStr;
use std::fmt;

mod allocator;
mod checkpoint;
mod exec;
mod graph;
mod jagged;
mod onnx;
mod ops;
mod ops_generated;
mod shape;
mod tensor;

pub use allocator::{reset_allocator, set_allocator, Allocator};
pub use exec::{Computation, Stats, Transformer, ValueInfo};
pub use graph::{
    Axis, Graph, Op, Slice, FLAG_CONSTANT, FLAG_INPUT, FLAG_PERSISTENT, FLAG_TRAINABLE,
};
pub use jagged::Jagged;
pub use onnx::{Bytes, OnnxOptions};
pub use ops::{AdamOptions, SgdOptions};
pub use shape::{IndexMode, Mode, Shape, ShapeIter, ShapeKind};
pub use tensor::{Element, ReadSlice, Tensor};

/// A status code of the C library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    InvalidArgument,
    Axes,
    DType,
    OutOfMemory,
    NotFound,
    Unsupported,
    State,
    Io,
    Format,
    Internal,
    /// A code this binding does not know (a newer library).
    Other(i32),
}

impl Status {
    fn from_code(code: i32) -> Status {
        match code {
            1 => Status::InvalidArgument,
            2 => Status::Axes,
            3 => Status::DType,
            4 => Status::OutOfMemory,
            5 => Status::NotFound,
            6 => Status::Unsupported,
            7 => Status::State,
            8 => Status::Io,
            9 => Status::Format,
            10 => Status::Internal,
            c => Status::Other(c),
        }
    }

    /// The C code of the status.
    pub fn code(self) -> i32 {
        match self {
            Status::InvalidArgument => 1,
            Status::Axes => 2,
            Status::DType => 3,
            Status::OutOfMemory => 4,
            Status::NotFound => 5,
            Status::Unsupported => 6,
            Status::State => 7,
            Status::Io => 8,
            Status::Format => 9,
            Status::Internal => 10,
            Status::Other(c) => c,
        }
    }

    /// The C name of the status ("NG_ERR_AXES", ...).
    pub fn name(self) -> String {
        unsafe { cstr(sys::ng_status_string(self.code())) }
    }
}

/// A failed call: the status and the library's message, which names the C function and the
/// offending value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The result of every fallible call.
pub type Result<T> = std::result::Result<T, Error>;

/// The calling thread's last error. Rust threads are OS threads, so it is the last failed call's.
pub(crate) fn last_error() -> Error {
    unsafe {
        Error {
            status: Status::from_code(sys::ng_last_status()),
            message: cstr(sys::ng_last_error()),
        }
    }
}

pub(crate) fn check(status: sys::ng_status_t) -> Result<()> {
    if status == 0 {
        Ok(())
    } else {
        Err(last_error())
    }
}

pub(crate) fn check_ptr<T>(p: *mut T) -> Result<*mut T> {
    if p.is_null() {
        Err(last_error())
    } else {
        Ok(p)
    }
}

pub(crate) fn binding_error(status: Status, message: impl Into<String>) -> Error {
    Error {
        status,
        message: message.into(),
    }
}

pub(crate) unsafe fn cstr(p: *const std::os::raw::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

pub(crate) fn cstring(s: &str) -> Result<std::ffi::CString> {
    std::ffi::CString::new(s).map_err(|_| {
        binding_error(
            Status::InvalidArgument,
            format!("nanograph: {:?} contains a NUL byte", s),
        )
    })
}

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum DType {
    Bool = 1,
    Int32 = 2,
    Int64 = 3,
    Uint8 = 4,
    Float32 = 5,
    Float64 = 6,
}

impl DType {
    pub(crate) fn from_code(code: i32) -> Result<DType> {
        Ok(match code {
            1 => DType::Bool,
            2 => DType::Int32,
            3 => DType::Int64,
            4 => DType::Uint8,
            5 => DType::Float32,
            6 => DType::Float64,
            _ => return Err(last_error()),
        })
    }

    /// The size in bytes of one element.
    pub fn size(self) -> usize {
        unsafe { sys::ng_dtype_size(self as i32) }
    }

    /// The dtype's name ("float32", ...).
    pub fn name(self) -> String {
        unsafe { cstr(sys::ng_dtype_name(self as i32)) }
    }
}

/// The loaded library's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    unsafe { cstr(sys::ng_version_string()) }
}

/// The loaded library's version as MAJOR*10000 + MINOR*100 + PATCH.
pub fn version_number() -> i32 {
    unsafe { sys::ng_version_number() }
}

/// An op borrows its graph, so it cannot outlive it:
///
/// ```compile_fail
/// let x = {
///     let g = nanograph::Graph::new().unwrap();
///     g.scalar(1.0).unwrap()
/// }; // g dropped here while x still borrows it
/// ```
///
/// and a graph cannot be shared between threads while ops of it are built (`Graph` is not `Sync`):
///
/// ```compile_fail
/// fn needs_sync<T: Sync>(_: &T) {}
/// needs_sync(&nanograph::Graph::new().unwrap());
/// ```
///
/// and an allocator must outlive every block it makes (a `&'static` reference):
///
/// ```compile_fail
/// struct Local;
/// unsafe impl nanograph::Allocator for Local {
///     fn allocate(&self, _: usize, _: usize) -> *mut u8 { std::ptr::null_mut() }
///     unsafe fn deallocate(&self, _: *mut u8, _: usize, _: usize) {}
/// }
/// let a = Local;
/// nanograph::set_allocator(&a).unwrap(); // `a` does not live long enough
/// ```
#[allow(dead_code)]
fn lifetimes_are_checked_at_compile_time() {}
