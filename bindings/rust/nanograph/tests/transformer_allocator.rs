//! A transformer's own allocator serves its values, arenas and run outputs, and nothing else.
//! Its own test binary, so that other tests' blocks do not move the counts.
use nanograph::{Allocator, DType, Graph, Status, Tensor, Transformer};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
        self.live.fetch_add(bytes, Ordering::SeqCst);
        unsafe { System.alloc(Layout::from_size_align(bytes, alignment).unwrap()) }
    }
    unsafe fn deallocate(&self, p: *mut u8, bytes: usize, alignment: usize) {
        System.dealloc(p, Layout::from_size_align(bytes, alignment).unwrap());
        self.live.fetch_sub(bytes, Ordering::SeqCst);
    }
}

static MINE: Counting = Counting {
    live: AtomicUsize::new(0),
    calls: AtomicUsize::new(0),
    refuse: AtomicBool::new(false),
};

#[test]
fn a_transformer_allocator_serves_its_blocks() {
    let g = Graph::new().unwrap();
    let n = g.axis("N", 1000).unwrap();
    let x = g.placeholder(DType::Float32, &[n], None).unwrap();
    let w = g
        .variable(DType::Float32, &[n], Some(g.scalar(2.0).unwrap()))
        .unwrap();
    let y = g.multiply(x, w).unwrap();
    let mut t = Transformer::new(None).unwrap();
    t.set_allocator(&MINE).unwrap();
    let mut f = t.computation(&[y], &[x]).unwrap();
    let input = Tensor::from_slice(&[1.5f32; 1000], &[1000]).unwrap();
    let before = MINE.live.load(Ordering::SeqCst);
    let out = f.run(&[&input]).unwrap();
    // The output (1000 floats) is one of its blocks; the input the program made is not.
    assert!(
        MINE.live.load(Ordering::SeqCst) >= before + 4000,
        "{} -> {}",
        before,
        MINE.live.load(Ordering::SeqCst)
    );
    assert_eq!(&out[0].as_slice::<f32>().unwrap()[..], &[3.0f32; 1000][..]);
    let calls = MINE.calls.load(Ordering::SeqCst);
    drop(Tensor::zeros(DType::Float32, &[1000]).unwrap());
    assert_eq!(
        MINE.calls.load(Ordering::SeqCst),
        calls,
        "a tensor the program makes"
    );
    // A refused output block is the run's out-of-memory error.
    MINE.refuse.store(true, Ordering::SeqCst);
    let e = f.run(&[&input]).unwrap_err();
    assert_eq!(e.status, Status::OutOfMemory, "{}", e);
    MINE.refuse.store(false, Ordering::SeqCst);
    // Back to the process-wide allocator: later blocks are not its own, earlier ones still are.
    t.reset_allocator().unwrap();
    let calls = MINE.calls.load(Ordering::SeqCst);
    let later = f.run(&[&input]).unwrap();
    assert_eq!(MINE.calls.load(Ordering::SeqCst), calls);
    drop((out, later, f, t));
    assert_eq!(
        MINE.live.load(Ordering::SeqCst),
        0,
        "every block given back"
    );
}
