//! Running proptest properties for the fuzz tests, and catching panics with their location: a
//! failure prints the smallest input found and where arena panicked on it.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

pub fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        // A failure is reported, not written into a regressions file beside the tests.
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

thread_local! {
    /// Inside `guarded`: a panic is recorded for the report instead of printed.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_else(|| "an unknown place".into());
                let msg = info.payload_as_str().unwrap_or("(no message)");
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("panicked at {at}: {msg}")));
            } else {
                default(info);
            }
        }));
    });
}

/// Run `f`; a panic becomes `Err` with its message and location.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_panic_hook();
    LAST_PANIC.with(|p| p.borrow_mut().take());
    GUARDED.with(|g| g.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    r.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "panicked".into())
    })
}

pub fn run_property<S: Strategy>(
    what: &str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::new(config());
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{what}: {e}");
    }
}
