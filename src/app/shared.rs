//! Props that carry big data by `Rc`, compared by pointer: a new value is a
//! new read (or a new view), never a deep comparison.

use std::ops::Deref;
use std::rc::Rc;

pub struct Shared<T>(pub Rc<T>);

/// This browser's localStorage (where the theme and redaction choices are
/// kept; it never leaves the device), if the page may use it.
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

impl<T> Shared<T> {
    pub fn new(v: T) -> Self {
        Shared(Rc::new(v))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for Shared<T> {
    fn from(rc: Rc<T>) -> Self {
        Shared(rc)
    }
}

/// Whether the media query `query` matches, kept up to date (a window
/// resized, a phone turned).
#[yew::hook]
pub fn use_media(query: &'static str) -> bool {
    let list = yew::use_memo((), |_| web_sys::window().and_then(|w| w.match_media(query).ok().flatten()));
    let matches = yew::use_state(|| list.as_ref().as_ref().is_some_and(web_sys::MediaQueryList::matches));
    {
        let matches = matches.clone();
        yew::use_effect_with(list, move |list| {
            let listener = list.as_ref().as_ref().map(|l| {
                let l2 = l.clone();
                gloo::events::EventListener::new(l, "change", move |_| matches.set(l2.matches()))
            });
            move || drop(listener)
        });
    }
    *matches
}
