//! Pacing the work of tasks, without a clock of its own: a cancel flag a
//! task checks between steps, and a throttle that lets a progress report
//! through at most every so often (the app gives it the thread's clock).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A flag the starter of a task sets to stop it; the task checks it at its
/// next step, and work it handed elsewhere (a read in the worker) is told
/// at once through [`Cancel::on_cancel`]. Cloning shares the flag.
#[derive(Clone, Default)]
pub struct Cancel(Rc<CancelInner>);

#[derive(Default)]
struct CancelInner {
    cancelled: Cell<bool>,
    hooks: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl Cancel {
    pub fn cancel(&self) {
        if !self.0.cancelled.replace(true) {
            let hooks = std::mem::take(&mut *self.0.hooks.borrow_mut());
            for f in hooks {
                f();
            }
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.get()
    }

    /// Runs `f` when this is cancelled (now, if it already is).
    pub fn on_cancel(&self, f: impl FnOnce() + 'static) {
        if self.is_cancelled() {
            f();
        } else {
            self.0.hooks.borrow_mut().push(Box::new(f));
        }
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Lets a call through at most every `every_ms` (and always the last one),
/// on the clock `clock` (milliseconds).
pub struct Throttle {
    every_ms: f64,
    shown_ms: f64,
    clock: fn() -> f64,
}

impl Throttle {
    pub fn new(every_ms: f64, clock: fn() -> f64) -> Throttle {
        Throttle { every_ms, shown_ms: f64::NEG_INFINITY, clock }
    }

    /// Whether to report now (`last`: the final report, always due).
    pub fn due(&mut self, last: bool) -> bool {
        self.due_at((self.clock)(), last)
    }

    /// From now on, lets a call through at most every `every_ms`.
    pub fn set_every_ms(&mut self, every_ms: f64) {
        self.every_ms = every_ms;
    }

    /// [`Throttle::due`] at the time `now_ms`.
    pub fn due_at(&mut self, now_ms: f64, last: bool) -> bool {
        if last || now_ms - self.shown_ms >= self.every_ms {
            self.shown_ms = now_ms;
            return true;
        }
        false
    }
}

/// The page spends at most one part in this many of its time drawing
/// hand-overs of background work (see [`paced_ms`]).
pub const DRAWING_SHARE: f64 = 4.0;

/// How long to wait between two hand-overs of background work to the page,
/// when the last one took `drawn_ms` of the page's thread to draw: at least
/// `floor_ms`, and long enough that drawing takes at most 1/[`DRAWING_SHARE`]
/// of the page's time. A slow engine (or a big list) is handed fewer,
/// larger batches; the page and the reads it waits on keep the rest.
/// (`f64::max` ignores a NaN: no measure gives the floor.)
pub fn paced_ms(floor_ms: f64, drawn_ms: f64) -> f64 {
    floor_ms.max(drawn_ms * DRAWING_SHARE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throttle_lets_one_through_per_period_and_always_the_last() {
        let mut t = Throttle::new(100.0, || 0.0);
        let due: Vec<bool> = [(0.0, false), (50.0, false), (100.0, false), (150.0, false), (160.0, true), (170.0, false), (260.0, false)]
            .iter()
            .map(|&(now, last)| t.due_at(now, last))
            .collect();
        assert_eq!(due, [true, false, true, false, true, false, true]);
    }

    #[test]
    fn hand_overs_are_spaced_by_what_drawing_the_last_one_cost() {
        assert_eq!(paced_ms(400.0, 0.0), 400.0, "cheap to draw: the floor");
        assert_eq!(paced_ms(400.0, 60.0), 400.0, "60 ms of 400 is under a quarter");
        assert_eq!(paced_ms(400.0, 250.0), 1000.0, "250 ms to draw: a quarter of a second of page time");
        assert_eq!(paced_ms(400.0, f64::NAN), 400.0, "no measure: the floor");
        let mut t = Throttle::new(400.0, || 0.0);
        assert!(t.due_at(0.0, false));
        t.set_every_ms(paced_ms(400.0, 250.0));
        assert!(!t.due_at(900.0, false), "the new spacing holds from the last hand-over");
        assert!(t.due_at(1000.0, false));
    }

    #[test]
    fn cancelling_runs_the_hooks_once_and_late_hooks_at_once() {
        let c = Cancel::default();
        let hits = Rc::new(Cell::new(0));
        let h = hits.clone();
        c.on_cancel(move || h.set(h.get() + 1));
        assert!(!c.is_cancelled());
        c.clone().cancel();
        c.cancel();
        assert_eq!(hits.get(), 1, "a hook runs once");
        let h = hits.clone();
        c.on_cancel(move || h.set(h.get() + 10));
        assert_eq!(hits.get(), 11, "a hook set after the cancel runs at once");
        assert!(c.is_cancelled());
    }
}
