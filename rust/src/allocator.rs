//! mimalloc as the global allocator (feature `mimalloc`): the engine allocates small,
//! short-lived frames and lists on every action, which mimalloc serves fastest.
//!
//! Blocks whose alignment every mimalloc block already has are asked for with plain
//! `mi_malloc`. Asking for them through `mi_malloc_aligned` (as the `mimalloc` crate does for
//! every layout) sends each block over 128 bytes whose size class has no free block at hand
//! down an over-allocating path about four times as long, and the over-allocated block lands
//! in another size class, so the fast path keeps missing: an action's 192-byte frame took it
//! on every action.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// Every mimalloc block is aligned to at least a pointer's size (its smallest size class).
const PLAIN_ALIGN: usize = std::mem::size_of::<usize>();

/// The global allocator: mimalloc.
pub struct MiMalloc;

// SAFETY: each method hands the layout's size and (where it matters) alignment to the
// matching mimalloc function, whose blocks meet them; mi_free takes blocks from any of them.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            mi::mi_malloc(layout.size()) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            mi::mi_zalloc(layout.size()) as *mut u8
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr as *mut c_void);
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGN {
            mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
        } else {
            mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
        }
    }
}
