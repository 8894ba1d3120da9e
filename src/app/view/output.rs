//! Tool output as a person reads it: folded past a few lines, the full
//! output of a `tool-results/` file read when asked for, and images decoded
//! only when shown.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::blob::read_all;
use crate::fmt;
use crate::model::body::Block;

/// Result lines shown before "Show all".
const FOLD_LINES: usize = 12;
/// Characters of a result shown before "Show all" (one huge line).
const FOLD_CHARS: usize = 2_000;

#[derive(Properties, PartialEq)]
pub struct FoldedProps {
    pub text: Rc<str>,
    pub on_resize: Callback<()>,
}

/// Output text, cut to its first lines until the person asks for all.
#[function_component(Folded)]
pub fn folded(p: &FoldedProps) -> Html {
    let open = use_state(|| false);
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(*open, move |_| on_resize.emit(()));
    }
    let lines = p.text.lines().count();
    let long = lines > FOLD_LINES || p.text.len() > FOLD_CHARS;
    let visible: String = if long && !*open {
        let cut: String = p.text.lines().take(FOLD_LINES).collect::<Vec<_>>().join("\n");
        cut.chars().take(FOLD_CHARS).collect()
    } else {
        p.text.to_string()
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <>
            <pre class="output">{ visible }</pre>
            if long {
                <button class="link-button" onclick={toggle}>
                    { if *open { "Show less".to_string() } else { format!("Show all {}", fmt::plural(lines as u64, "line", "lines")) } }
                </button>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct FullProps {
    pub blob: web_sys::Blob,
    pub on_resize: Callback<()>,
}

/// A `tool-results/<id>.txt` file, read when the person asks for it.
#[function_component(FullOutput)]
pub fn full_output(p: &FullProps) -> Html {
    let text = use_state(|| None::<Result<Rc<str>, String>>);
    let red = crate::app::redact::use_redaction();
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(text.is_some(), move |_| on_resize.emit(()));
    }
    let read = {
        let (text, blob) = (text.clone(), p.blob.clone());
        Callback::from(move |_: MouseEvent| {
            let (text, blob) = (text.clone(), blob.clone());
            yew::platform::spawn_local(async move {
                let got = read_all(&blob).await.map(|b| Rc::from(String::from_utf8_lossy(&b).as_ref())).map_err(|e| e.0);
                text.set(Some(got));
            });
        })
    };
    match &*text {
        None => html! {
            <button class="link-button" onclick={read} data-testid="full-output-open">
                { format!("Show the full output ({})", fmt::bytes(p.blob.size() as u64)) }
            </button>
        },
        // Read whole from its own file: redacted whole here, before the fold cuts it.
        Some(Ok(t)) => html! { <div class="full-output" data-testid="full-output"><Folded text={Rc::<str>::from(red.text(t))} on_resize={p.on_resize.clone()} /></div> },
        Some(Err(why)) => html! { <p class="bad">{ format!("The full output could not be read: {why}") }</p> },
    }
}

/// An image block: a data URL (inert raster types only), loaded lazily.
pub fn image(b: &Block) -> Html {
    match b.image() {
        Some((media, data)) => html! { <Image src={AttrValue::from(format!("data:{media};base64,{data}"))} len_bytes={data.len() * 3 / 4} /> },
        None => html! { <span class="muted">{ "[image not shown: unsupported type]" }</span> },
    }
}

#[derive(Properties, PartialEq)]
pub struct ImageProps {
    pub src: AttrValue,
    pub len_bytes: usize,
}

/// An `<img>` that says so in words when the data does not decode.
#[function_component(Image)]
pub fn image_view(p: &ImageProps) -> Html {
    let broken = use_state(|| false);
    if *broken {
        return html! { <span class="muted image-broken">{ format!("[image of {} that the browser could not decode]", fmt::bytes(p.len_bytes as u64)) }</span> };
    }
    let onerror = {
        let broken = broken.clone();
        Callback::from(move |_: Event| broken.set(true))
    };
    html! { <img class="shot" loading="lazy" decoding="async" alt="image from the transcript" src={p.src.clone()} {onerror} /> }
}

