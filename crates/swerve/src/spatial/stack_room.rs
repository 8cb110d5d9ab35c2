//! Stack room for the trees' recursions.
//!
//! RVO2's trees are not balanced. The agent k-d tree splits a box at its midpoint and peels
//! off one agent per level when agents coincide (a crowd spawned at one point is a chain as
//! deep as the crowd is large); the obstacle BSP puts every collinear edge on one side (a
//! straight wall drawn with many vertices is a chain too). Reproducing RVO2 exactly means
//! building and walking those same trees, and recursing that deep overflows a thread's stack
//! (a few thousand coincident agents abort the process). So the recursions make sure there is
//! room before going deeper, moving to a fresh stack segment ([`stacker`]) when there is not:
//! the queries every [`CHECK_EVERY`] levels (one compare per call otherwise; balanced trees
//! never get that deep), the parallel build at every level, because with `rayon::join` the
//! levels of one chain alternate between threads and a thread may never meet a checkpoint.

/// Levels between checks: a level takes at most about 1.5 KiB of stack (measured with `gdb`
/// on the parallel build, whose levels include `rayon::join`'s frames), so this many levels
/// fit well inside [`RED_ZONE`].
const CHECK_EVERY: u32 = 64;

/// Room (bytes) that must be left on the stack at a check, or a new segment is used.
const RED_ZONE: usize = 256 * 1024;

/// Size (bytes) of each new stack segment.
const SEGMENT: usize = 8 * 1024 * 1024;

/// Runs `f` (a serial recursion's next level, at `depth`), first making room on the stack
/// when `depth` is a checkpoint and the stack is nearly full.
#[inline(always)]
pub(crate) fn with_room<R>(depth: u32, f: impl FnOnce() -> R) -> R {
    if depth % CHECK_EVERY == CHECK_EVERY - 1 {
        with_room_now(f)
    } else {
        f()
    }
}

/// Runs `f` (a recursion's next level), first making room on the stack if it is nearly full.
/// For recursions whose levels may run on different threads. (Out of line, so that the
/// rare check adds nothing to the queries' hot path.)
#[cold]
#[inline(never)]
pub(crate) fn with_room_now<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
