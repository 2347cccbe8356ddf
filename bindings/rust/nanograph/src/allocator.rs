//! The allocator of the library's large blocks of memory (tensors, computations' arenas and
//! outputs, persistent values), process-wide.
use crate::{check, sys, Result};
use std::os::raw::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Memory for the library's large blocks.
///
/// The library calls it from any thread, concurrently (hence `Sync`), and frees every block
/// through the allocator that made it, at any later time (hence `'static`: see [`set_allocator`]).
///
/// # Safety
/// `allocate` returns null or a block of at least `bytes` bytes aligned to `alignment` (a power
/// of two, 64 or more), not in use elsewhere, until it is given back to `deallocate` with the same
/// size and alignment. A panic in `allocate` is a failed allocation (the library call fails with
/// `Status::OutOfMemory`); a panic in `deallocate` aborts the process.
pub unsafe trait Allocator: Sync + 'static {
    /// A block of `bytes` bytes (never 0) aligned to `alignment`, or null.
    fn allocate(&self, bytes: usize, alignment: usize) -> *mut u8;
    /// Gives back a block `allocate` returned.
    ///
    /// # Safety
    /// `p`, `bytes` and `alignment` are those of a block this allocator returned and not yet
    /// given back (the library guarantees it).
    unsafe fn deallocate(&self, p: *mut u8, bytes: usize, alignment: usize);
}

unsafe extern "C" fn allocate<A: Allocator>(
    bytes: usize,
    alignment: usize,
    ctx: *mut c_void,
) -> *mut c_void {
    let a = &*(ctx as *const A);
    catch_unwind(AssertUnwindSafe(|| a.allocate(bytes, alignment))).unwrap_or(std::ptr::null_mut())
        as *mut c_void
}

unsafe extern "C" fn deallocate<A: Allocator>(
    p: *mut c_void,
    bytes: usize,
    alignment: usize,
    ctx: *mut c_void,
) {
    let a = &*(ctx as *const A);
    if catch_unwind(AssertUnwindSafe(|| {
        a.deallocate(p as *mut u8, bytes, alignment)
    }))
    .is_err()
    {
        std::process::abort(); // unwinding into the library is not allowed
    }
}

/// Installs `allocator` for the library's large blocks, process-wide, from now on.
///
/// Blocks made before the call stay with the allocator that made them and are freed through it,
/// possibly long after; the library's contract is to keep an allocator valid until every tensor,
/// computation and transformer made while it was installed is gone, which a `&'static` reference
/// guarantees (`Box::leak` makes one from an owned value).
pub fn set_allocator<A: Allocator>(allocator: &'static A) -> Result<()> {
    check(unsafe { sys::ng_set_allocator(&c_allocator(allocator)) })
}

/// The C description of a Rust allocator; `'static`, so valid for as long as any block it makes.
pub(crate) fn c_allocator<A: Allocator>(allocator: &'static A) -> sys::ng_allocator_t {
    sys::ng_allocator_t {
        struct_size: std::mem::size_of::<sys::ng_allocator_t>(),
        allocate: Some(allocate::<A>),
        deallocate: Some(deallocate::<A>),
        ctx: allocator as *const A as *mut c_void,
    }
}

/// Installs the library's default allocator again (blocks made before are still freed through
/// the allocator that made them).
pub fn reset_allocator() -> Result<()> {
    check(unsafe { sys::ng_set_allocator(std::ptr::null()) })
}
