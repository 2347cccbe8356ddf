//! An allocator written in Rust serves the library's blocks. Its own test binary: the allocator
//! is process-wide, so no other test may run while it is installed.
use nanograph::{reset_allocator, set_allocator, Allocator, DType, Status, Tensor};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Counts the bytes it has out; refuses everything while `refuse` is set.
struct Counting {
    live: AtomicUsize,
    calls: AtomicUsize,
    refuse: AtomicBool,
}

unsafe impl Allocator for Counting {
    fn allocate(&self, bytes: usize, alignment: usize) -> *mut u8 {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.refuse.load(Ordering::SeqCst) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc(Layout::from_size_align(bytes, alignment).unwrap()) };
        assert_eq!(p as usize % alignment, 0);
        self.live.fetch_add(bytes, Ordering::SeqCst);
        p
    }
    unsafe fn deallocate(&self, p: *mut u8, bytes: usize, alignment: usize) {
        System.dealloc(p, Layout::from_size_align(bytes, alignment).unwrap());
        self.live.fetch_sub(bytes, Ordering::SeqCst);
    }
}

static COUNTING: Counting = Counting {
    live: AtomicUsize::new(0),
    calls: AtomicUsize::new(0),
    refuse: AtomicBool::new(false),
};

#[test]
fn a_rust_allocator_serves_the_library() {
    set_allocator(&COUNTING).unwrap();
    let t = Tensor::zeros(DType::Float32, &[1000]).unwrap();
    assert!(
        COUNTING.live.load(Ordering::SeqCst) >= 4000,
        "{} bytes out",
        COUNTING.live.load(Ordering::SeqCst)
    );
    assert_eq!(&t.as_slice::<f32>().unwrap()[..], &[0f32; 1000][..]);
    // A refused block is the library's out-of-memory error.
    COUNTING.refuse.store(true, Ordering::SeqCst);
    let e = Tensor::zeros(DType::Float32, &[1000]).unwrap_err();
    assert_eq!(e.status, Status::OutOfMemory, "{}", e);
    assert!(e.message.contains("ng_tensor_create"), "{}", e);
    COUNTING.refuse.store(false, Ordering::SeqCst);
    // Back to the default: the tensor made before is still freed through this allocator.
    reset_allocator().unwrap();
    let calls = COUNTING.calls.load(Ordering::SeqCst);
    let other = Tensor::zeros(DType::Float64, &[1000]).unwrap();
    assert_eq!(COUNTING.calls.load(Ordering::SeqCst), calls);
    drop(t);
    drop(other);
    assert_eq!(COUNTING.live.load(Ordering::SeqCst), 0);
}
