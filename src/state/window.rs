//! The arithmetic of the virtualised list: which items to render for a
//! scroll position, how tall the space above and below them is, where an
//! item sits, and how far to scroll so that the row a person was reading
//! does not move when rows above it change height.
//!
//! Heights are known by item id: estimated until an item has been on
//! screen, then measured. They survive filtering (the same id keeps its
//! height whichever items are listed around it).

/// Height of an item the table knows nothing of (an id past its end).
pub const UNKNOWN_ROW_PX: f32 = 80.0;
/// Viewport height assumed before the list has been laid out.
pub const UNLAID_VIEWPORT_PX: f64 = 1000.0;
/// The smallest viewport the window is computed for.
pub const MIN_VIEWPORT_PX: f64 = 200.0;
/// A height or offset change smaller than this is no change.
const EPSILON_PX: f64 = 0.5;

/// Heights in pixels, by item id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heights {
    px: Vec<f32>,
}

/// What to render: `ids[start..end]`, with `above_px` of space before them
/// and `below_px` after; `first_visible` is the position in `ids` of the
/// first item whose bottom is below the scroll position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub above_px: f64,
    pub below_px: f64,
    pub first_visible: usize,
}

impl Window {
    /// Whether rendering `other` instead of `self` changes anything on screen.
    pub fn differs(&self, other: &Window) -> bool {
        (self.start, self.end) != (other.start, other.end)
            || (self.above_px - other.above_px).abs() > EPSILON_PX
            || (self.below_px - other.below_px).abs() > EPSILON_PX
    }
}

impl Heights {
    /// `all` items, each at its estimate.
    pub fn estimated(all: usize, estimate: impl Fn(u32) -> f32) -> Heights {
        Heights { px: (0..all as u32).map(estimate).collect() }
    }

    /// The list grew to `all` items (the whole file after its preview): the
    /// heights known stay, except the last one known (that item may have
    /// grown: a turn whose later lines were not in the preview).
    pub fn grow(&mut self, all: usize, estimate: impl Fn(u32) -> f32) {
        let keep = self.px.len().min(all).saturating_sub(1);
        self.px.truncate(keep);
        self.px.extend((keep as u32..all as u32).map(estimate));
    }

    pub fn len(&self) -> usize {
        self.px.len()
    }

    pub fn is_empty(&self) -> bool {
        self.px.is_empty()
    }

    pub fn get(&self, id: u32) -> f64 {
        f64::from(self.px.get(id as usize).copied().unwrap_or(UNKNOWN_ROW_PX))
    }

    /// Records a measured height; whether it changed.
    pub fn set(&mut self, id: u32, px: f64) -> bool {
        match self.px.get_mut(id as usize) {
            Some(h) if (f64::from(*h) - px).abs() > EPSILON_PX => {
                *h = px as f32;
                true
            }
            _ => false,
        }
    }

    /// Top of `ids[k]` when `ids` are stacked from 0.
    pub fn offset_of(&self, ids: &[u32], k: usize) -> f64 {
        ids[..k.min(ids.len())].iter().map(|&id| self.get(id)).sum()
    }

    /// The items to render when the list is scrolled to `scroll_px` and
    /// shows `viewport_px`, with `overscan_px` more on each side.
    pub fn window(&self, ids: &[u32], scroll_px: f64, viewport_px: f64, overscan_px: f64) -> Window {
        let (lo, hi) = (scroll_px - overscan_px, scroll_px + viewport_px + overscan_px);
        let n = ids.len();
        let mut w = Window { start: n, end: n, above_px: 0.0, below_px: 0.0, first_visible: n.saturating_sub(1) };
        let mut seen_visible = false;
        let mut y = 0.0;
        for (k, &id) in ids.iter().enumerate() {
            let h = self.get(id);
            if w.start == n && y + h >= lo {
                w.start = k;
                w.above_px = y;
            }
            if !seen_visible && y + h > scroll_px {
                w.first_visible = k;
                seen_visible = true;
            }
            y += h;
            if w.start != n && y > hi {
                w.end = k + 1;
                break;
            }
        }
        if w.start == n {
            // Scrolled past everything: nothing to render, all of it above.
            w.above_px = y;
        }
        w.below_px = ids[w.end..].iter().map(|&id| self.get(id)).sum();
        w
    }
}

/// A row's place on screen when it was last seen: the row that must not
/// move under the reader.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    pub id: u32,
    /// Its top edge minus the list's top edge, in pixels.
    pub offset_px: f64,
    /// The list's scroll position at that moment.
    pub scroll_px: i32,
}

impl Anchor {
    /// The scroll position that puts the anchor row back where it was,
    /// given the scroll position now and the row's offset now; `None` when
    /// it has not moved. A scroll made since the anchor was taken (whose
    /// event has not arrived yet) is the person's and is kept.
    pub fn correction(&self, scroll_now_px: i32, offset_now_px: f64) -> Option<i32> {
        let expected = self.offset_px - f64::from(scroll_now_px - self.scroll_px);
        let shift = offset_now_px - expected;
        (shift.abs() >= 1.0).then(|| scroll_now_px + shift.round() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_window_covers_the_viewport_and_its_overscan() {
        let h = Heights::estimated(10, |_| 100.0);
        let ids: Vec<u32> = (0..10).collect();
        let w = h.window(&ids, 250.0, 200.0, 100.0);
        // 150..550 is wanted: items 1..=5.
        assert_eq!((w.start, w.end, w.first_visible), (1, 6, 2));
        assert_eq!((w.above_px, w.below_px), (100.0, 400.0));
        let top = h.window(&ids, 0.0, 200.0, 0.0);
        assert_eq!((top.start, top.end, top.first_visible), (0, 3, 0));
        let past = h.window(&ids, 5_000.0, 200.0, 0.0);
        assert_eq!((past.start, past.end, past.above_px, past.below_px), (10, 10, 1_000.0, 0.0));
        let empty = h.window(&[], 0.0, 200.0, 0.0);
        assert_eq!((empty.start, empty.end), (0, 0));
    }

    #[test]
    fn heights_survive_filtering_and_growth() {
        let mut h = Heights::estimated(4, |id| 10.0 * (id + 1) as f32);
        assert!(h.set(2, 99.0));
        assert!(!h.set(2, 99.2), "under half a pixel is no change");
        assert!(!h.set(9, 5.0), "unknown ids are not recorded");
        assert_eq!(h.offset_of(&[0, 2, 3], 2), 10.0 + 99.0);
        h.grow(6, |_| 1.0);
        assert_eq!((h.get(2), h.get(3), h.get(5)), (99.0, 1.0, 1.0), "the last known item is re-estimated");
        assert_eq!(h.get(40), f64::from(UNKNOWN_ROW_PX));
    }

    #[test]
    fn the_anchor_row_is_put_back() {
        let a = Anchor { id: 3, offset_px: 40.0, scroll_px: 1_000 };
        assert_eq!(a.correction(1_000, 40.4), None);
        // A row above grew by 120 px: the anchor moved down by 120.
        assert_eq!(a.correction(1_000, 160.0), Some(1_120));
        // The person scrolled 50 px since: that is kept.
        assert_eq!(a.correction(1_050, -10.0), None);
        assert_eq!(a.correction(1_050, 30.0), Some(1_090));
    }

    proptest! {
        /// Any heights, any scroll: the spaces plus the rendered items add up
        /// to the whole list, the rendered items cover the wanted band, and
        /// `first_visible` is the item under the scroll position.
        #[test]
        fn window_arithmetic_holds_for_any_heights(
            hs in proptest::collection::vec(0.0f32..500.0, 0..60),
            scroll in 0.0f64..20_000.0,
            viewport in 1.0f64..2_000.0,
            overscan in 0.0f64..1_000.0,
        ) {
            let h = Heights { px: hs.clone() };
            let ids: Vec<u32> = (0..hs.len() as u32).collect();
            let w = h.window(&ids, scroll, viewport, overscan);
            let total: f64 = hs.iter().map(|&x| f64::from(x)).sum();
            let inside: f64 = ids[w.start..w.end].iter().map(|&i| h.get(i)).sum();
            prop_assert!((w.above_px + inside + w.below_px - total).abs() < 1e-6);
            prop_assert!((w.above_px - h.offset_of(&ids, w.start)).abs() < 1e-6);
            prop_assert!(w.start <= w.end && w.end <= ids.len());
            if w.start < w.end {
                // Nothing wanted is left out on either side.
                prop_assert!(w.above_px <= (scroll - overscan).max(0.0) + 1e-6 || w.start == 0);
                prop_assert!(w.above_px + inside >= (scroll + viewport + overscan).min(total) - 1e-6);
            }
            if !ids.is_empty() && scroll < total {
                let k = w.first_visible;
                let top = h.offset_of(&ids, k);
                prop_assert!(top <= scroll + 1e-6 && top + h.get(ids[k]) > scroll - 1e-6);
            }
        }
    }
}
