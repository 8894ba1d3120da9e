//! Light / dark: follows the system until the person picks one; the choice
//! is kept in this browser's localStorage (it never leaves the device).

use yew::prelude::*;

use crate::app::shared::local_storage;

const KEY: &str = "ccscope-theme";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    System,
    Light,
    Dark,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::System => "system",
            Mode::Light => "light",
            Mode::Dark => "dark",
        }
    }
    fn next(self) -> Mode {
        match self {
            Mode::System => Mode::Dark,
            Mode::Dark => Mode::Light,
            Mode::Light => Mode::System,
        }
    }
}


fn stored() -> Mode {
    match local_storage().and_then(|s| s.get_item(KEY).ok()?).as_deref() {
        Some("light") => Mode::Light,
        Some("dark") => Mode::Dark,
        _ => Mode::System,
    }
}

fn apply(mode: Mode) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = match mode {
            Mode::System => root.remove_attribute("data-theme"),
            m => root.set_attribute("data-theme", m.name()),
        };
    }
}

#[function_component(ThemeToggle)]
pub fn theme_toggle() -> Html {
    let mode = use_state(stored);
    use_effect_with(*mode, |m| apply(*m));
    let onclick = {
        let mode = mode.clone();
        Callback::from(move |_: MouseEvent| {
            let next = mode.next();
            if let Some(s) = local_storage() {
                let _ = if next == Mode::System { s.remove_item(KEY) } else { s.set_item(KEY, next.name()) };
            }
            mode.set(next);
        })
    };
    let label = match *mode {
        Mode::System => "◐ Auto",
        Mode::Light => "☀ Light",
        Mode::Dark => "☾ Dark",
    };
    html! {
        <button class="theme-toggle" {onclick} data-testid="theme-toggle" data-mode={mode.name()} title="Colour theme: system, dark or light">{ label }</button>
    }
}
