//! Status codes, the per-thread error message, and the guards every exported function runs
//! its body in: pointer checks, panic containment, writing results only on success.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call did. Every failure also leaves a message for
/// [`swerve_last_error_message`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwerveStatus {
    /// The call succeeded.
    Ok = 0,
    /// A pointer the call needs was null.
    NullPointer = 1,
    /// An argument was refused: not finite, out of its range, a polygon with too few
    /// vertices or crossing edges, a length that does not match, an unknown setting.
    InvalidArgument = 2,
    /// An id names no live agent, obstacle, mover, ball or sphere (never handed out, or
    /// removed).
    UnknownId = 3,
    /// The caller's buffer is smaller than the count the call reported.
    BufferTooSmall = 4,
    /// An agent's last decision was asked for, but the simulator does not record decisions
    /// (see `swerve_simulator_set_record_decisions`).
    NotRecorded = 5,
    /// A bug in swerve: a Rust panic was stopped at the boundary. The handle the call was
    /// given may be inconsistent; free it.
    Panic = 6,
}

/// A failed call: its status and the message kept for [`swerve_last_error_message`].
#[derive(Debug)]
pub(crate) struct Failure {
    status: SwerveStatus,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: SwerveStatus, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(SwerveStatus::InvalidArgument, message)
    }

    pub(crate) fn null(what: &str) -> Failure {
        Failure::new(SwerveStatus::NullPointer, format!("{what} is a null pointer"))
    }

    /// The same failure, its message led by `context` (which of several inputs it was about).
    pub(crate) fn within(self, context: &str) -> Failure {
        Failure { status: self.status, message: format!("{context}: {}", self.message) }
    }
}

impl From<swerve::Error> for Failure {
    fn from(error: swerve::Error) -> Failure {
        use swerve::Error as E;
        let status = match error {
            E::UnknownAgent(_)
            | E::UnknownObstacle(_)
            | E::UnknownMover(_)
            | E::UnknownBall(_)
            | E::UnknownSphere(_) => SwerveStatus::UnknownId,
            // Bad input to the 3-D ball world, named here so that a new variant is a choice.
            E::UnknownBroadPhase3d(_)
            | E::SphereOutsideBounds { .. }
            | E::DegenerateTriangle { .. }
            | E::MeshIndexOutOfRange { .. } => SwerveStatus::InvalidArgument,
            E::DecisionsNotRecorded => SwerveStatus::NotRecorded,
            _ => SwerveStatus::InvalidArgument,
        };
        Failure::new(status, error.to_string())
    }
}

pub(crate) type Outcome = Result<(), Failure>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn remember(message: &str) {
    // An interior NUL cannot come from swerve's messages; cut there rather than lose the rest.
    let text = message.split('\0').next().unwrap_or_default();
    let text = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// Runs an exported function's body: a failure or a panic becomes a status and a message.
pub(crate) fn guard(body: impl FnOnce() -> Outcome) -> SwerveStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SwerveStatus::Ok,
        Ok(Err(failure)) => {
            remember(&failure.message);
            failure.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            remember(&format!("internal error (a bug in swerve, please report it): {what}"));
            SwerveStatus::Panic
        }
    }
}

/// The message of the last call on this thread that failed, as a NUL-terminated UTF-8
/// string; empty if none has. Calls that succeed leave it as it is. The pointer stays valid
/// until the next failing call on this thread.
#[no_mangle]
pub extern "C" fn swerve_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// This library's version, e.g. `"0.1.0"`, as a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn swerve_version() -> *const c_char {
    const VERSION: &CStr = match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(version) => version,
        Err(_) => panic!("the version has no interior NUL"),
    };
    VERSION.as_ptr()
}

/// A shared reference from a pointer argument.
///
/// # Safety
/// `pointer` is null or valid for reads of a `T` for the call's duration.
pub(crate) unsafe fn arg<'a, T>(pointer: *const T, what: &str) -> Result<&'a T, Failure> {
    unsafe { pointer.as_ref() }.ok_or_else(|| Failure::null(what))
}

/// A mutable reference from a pointer argument.
///
/// # Safety
/// `pointer` is null or valid for reads and writes of a `T`, not aliased, for the call.
pub(crate) unsafe fn arg_mut<'a, T>(pointer: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    unsafe { pointer.as_mut() }.ok_or_else(|| Failure::null(what))
}

/// An out pointer, checked up front and written once the call has succeeded.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Checks `pointer` is not null.
    pub(crate) fn new(pointer: *mut T, what: &str) -> Result<Out<T>, Failure> {
        if pointer.is_null() {
            Err(Failure::null(what))
        } else {
            Ok(Out(pointer))
        }
    }

    /// Writes the result (the memory may be uninitialised: nothing is read or dropped).
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] is valid for writes of a `T`.
    pub(crate) unsafe fn set(self, value: T) {
        unsafe { self.0.write(value) }
    }
}

/// A slice from a pointer and a length; a null pointer is fine when the length is 0.
///
/// # Safety
/// `pointer` is null or valid for reads of `len` consecutive `T`s for the call.
pub(crate) unsafe fn slice<'a, T>(pointer: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        Ok(&[])
    } else if pointer.is_null() {
        Err(Failure::null(what))
    } else {
        Ok(unsafe { std::slice::from_raw_parts(pointer, len) })
    }
}

/// Copies `values` into the caller's buffer `out` of `capacity` elements and writes their
/// count to `count` — the count also when the buffer is too small, which is then left alone.
///
/// # Safety
/// `out` is null or valid for writes of `capacity` `T`s; `count` is null or valid for a
/// write of a `usize`.
pub(crate) unsafe fn fill<T>(
    values: impl ExactSizeIterator<Item = T>,
    out: *mut T,
    capacity: usize,
    count: *mut usize,
) -> Outcome {
    let count = Out::new(count, "count")?;
    let needed = values.len();
    unsafe { count.set(needed) };
    if needed > capacity {
        return Err(Failure::new(
            SwerveStatus::BufferTooSmall,
            format!("the buffer has room for {capacity}, the call needs {needed}"),
        ));
    }
    if needed > 0 && out.is_null() {
        return Err(Failure::null("out"));
    }
    for (i, value) in values.enumerate() {
        unsafe { out.add(i).write(value) };
    }
    Ok(())
}

/// The threads a handle steps on: rayon's global pool, or a pool of its own
/// (`swerve_simulator_set_threads` and its 3-D twin).
#[derive(Default)]
pub(crate) struct Workers(Option<rayon::ThreadPool>);

impl Workers {
    /// 0: rayon's global pool; n ≥ 1: a pool of n threads. Unchanged on error.
    pub(crate) fn set(&mut self, threads: usize) -> Outcome {
        self.0 =
            match threads {
                0 => None,
                n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| {
                    Failure::new(SwerveStatus::InvalidArgument, format!("cannot start {n} threads: {e}"))
                })?),
            };
        Ok(())
    }

    /// Runs `work` on these threads.
    pub(crate) fn run<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.0 {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

/// A C handle around one engine (a simulator or a world): what `inner`, `query` and `change`
/// need to reach it.
pub(crate) trait Handle {
    /// The engine inside.
    type Inner;
    /// What a null handle is called in the error message.
    const WHAT: &'static str;
    fn inner(&self) -> &Self::Inner;
    fn inner_mut(&mut self) -> &mut Self::Inner;
}

/// The engine behind a handle argument.
///
/// # Safety
/// `handle` is null or a live handle.
pub(crate) unsafe fn inner<'a, H: Handle + 'a>(handle: *const H) -> Result<&'a H::Inner, Failure> {
    Ok(unsafe { arg(handle, H::WHAT) }?.inner())
}

/// The engine behind a handle argument, to change.
///
/// # Safety
/// `handle` is null or a live handle, used by this call alone.
pub(crate) unsafe fn inner_mut<'a, H: Handle + 'a>(handle: *mut H) -> Result<&'a mut H::Inner, Failure> {
    Ok(unsafe { arg_mut(handle, H::WHAT) }?.inner_mut())
}

/// The body of a query: checks the handle and the out pointer, then writes what `value`
/// gives.
///
/// # Safety
/// `handle` is null or a live handle; `out` is null or valid for writing.
pub(crate) unsafe fn query<H: Handle, T>(
    handle: *const H,
    out: *mut T,
    value: impl FnOnce(&H::Inner) -> Result<T, Failure>,
) -> SwerveStatus {
    guard(|| {
        let engine = unsafe { inner(handle) }?;
        let out = Out::new(out, "out")?;
        let value = value(engine)?;
        unsafe { out.set(value) };
        Ok(())
    })
}

/// The body of a change: checks the handle, then runs `change`.
///
/// # Safety
/// `handle` is null or a live handle, used by this call alone.
pub(crate) unsafe fn change<H: Handle>(
    handle: *mut H,
    change: impl FnOnce(&mut H::Inner) -> Result<(), Failure>,
) -> SwerveStatus {
    guard(|| change(unsafe { inner_mut(handle) }?))
}
