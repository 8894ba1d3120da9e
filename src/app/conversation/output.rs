//! Tool output as a person reads it: folded past a few lines, the full
//! output of a `tool-results/` file read when asked for, and images decoded
//! only when shown.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::blob::read_all;
use crate::fmt;
use crate::model::body::Block;

/// Lines shown while folded.
const FOLD_LINES: usize = 12;
/// Characters shown while folded (one huge line).
const FOLD_CHARS: usize = 2_000;
/// Bytes each "Show more" adds: a block the browser lays out in a few
/// milliseconds, however long the text (a 40 MB prompt is read a piece at a time).
pub const UNFOLD_STEP_BYTES: usize = 32 << 10;
/// A run without a break opportunity gets one (`<wbr>`) this often: the
/// browser's line breaking of one unbroken megabyte is what froze the page.
const RUN_BREAK_CHARS: usize = 256;

#[derive(Properties, PartialEq)]
pub struct FoldedProps {
    pub text: Rc<str>,
    pub on_resize: Callback<()>,
    /// The element and class the text is drawn in (`pre.output` for tool output).
    #[prop_or("pre")]
    pub tag: &'static str,
    #[prop_or("output")]
    pub class: &'static str,
}

/// The longest prefix of `text` no longer than `max` bytes (at a char boundary).
fn prefix(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` as nodes with a `<wbr>` in every run of [`RUN_BREAK_CHARS`]
/// characters without whitespace.
fn with_breaks(text: &str) -> Html {
    let mut nodes = Vec::new();
    let (mut from, mut run) = (0, 0);
    for (k, c) in text.char_indices() {
        run = if c.is_whitespace() { 0 } else { run + 1 };
        if run == RUN_BREAK_CHARS {
            let end = k + c.len_utf8();
            nodes.push(html! { <>{ text[from..end].to_string() }<wbr /></> });
            from = end;
            run = 0;
        }
    }
    nodes.push(html! { text[from..].to_string() });
    nodes.into_iter().collect()
}

/// Text folded past a screen until the person asks for more; then shown a
/// piece ([`UNFOLD_STEP_BYTES`]) at a time, with break opportunities in
/// unbroken runs, so no text — a 40 MB one-line prompt included — makes the
/// page lay out more than a piece at once.
#[function_component(Folded)]
pub fn folded(p: &FoldedProps) -> Html {
    // Bytes shown when unfolded; 0: folded.
    let shown = use_state(|| 0usize);
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(*shown, move |_| on_resize.emit(()));
    }
    let text = &*p.text;
    let long = text.len() > FOLD_CHARS || text.lines().nth(FOLD_LINES).is_some();
    let step = |to: usize| {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(to))
    };
    let body = if !long {
        with_breaks(text)
    } else if *shown == 0 {
        let head = prefix(text, FOLD_CHARS * 4);
        let cut: String = head.lines().take(FOLD_LINES).collect::<Vec<_>>().join("\n");
        with_breaks(&cut.chars().take(FOLD_CHARS).collect::<String>())
    } else {
        with_breaks(prefix(text, *shown))
    };
    let lines = || text.lines().count() as u64;
    let next = *shown + UNFOLD_STEP_BYTES;
    html! {
        <>
            <@{p.tag} class={p.class}>{ body }</@>
            if long {
                <div class="fold-actions">
                    if *shown == 0 {
                        if text.len() <= UNFOLD_STEP_BYTES {
                            <button class="link-button" onclick={step(text.len())} data-testid="unfold">{ format!("Show all {}", fmt::plural(lines(), "line", "lines")) }</button>
                        } else {
                            <button class="link-button" onclick={step(UNFOLD_STEP_BYTES)} data-testid="unfold">
                                { format!("Show the first {} of {}", fmt::bytes(UNFOLD_STEP_BYTES as u64), fmt::bytes(text.len() as u64)) }</button>
                        }
                    } else {
                        if *shown < text.len() {
                            <button class="link-button" onclick={step(next.min(text.len()))} data-testid="unfold-more">
                                { format!("Show {} more ({} of {} shown)", fmt::bytes(next.min(text.len()) as u64 - *shown as u64), fmt::bytes(*shown as u64), fmt::bytes(text.len() as u64)) }</button>
                        }
                        <button class="link-button" onclick={step(0)}>{ "Show less" }</button>
                    }
                </div>
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
    let text = use_state(|| None::<Result<Rc<str>, crate::app::blob::ReadError>>);
    let red = crate::app::redact::use_redaction();
    // Read whole from its own file: redacted whole, before the fold cuts it,
    // and once per read or toggle, not on every draw of the list.
    let read_text = text.as_ref().and_then(|r| r.as_ref().ok().cloned());
    let shown = use_memo((read_text, red.on), move |(t, _)| t.as_ref().map(|t| Rc::<str>::from(red.text(t))));
    {
        let on_resize = p.on_resize.clone();
        use_effect_with(text.is_some(), move |_| on_resize.emit(()));
    }
    let read = {
        let (text, blob) = (text.clone(), p.blob.clone());
        Callback::from(move |_: MouseEvent| {
            let (text, blob) = (text.clone(), blob.clone());
            yew::platform::spawn_local(async move {
                let got = read_all(&blob).await.map(|b| Rc::from(String::from_utf8_lossy(&b).as_ref()));
                text.set(Some(got));
            });
        })
    };
    match (&*shown, &*text) {
        (Some(t), _) => html! { <div class="full-output" data-testid="full-output"><Folded text={t.clone()} on_resize={p.on_resize.clone()} /></div> },
        (None, Some(Err(why))) => html! { <p class="bad">{ format!("The full output could not be read: {why}") }</p> },
        (None, _) => html! {
            <button class="link-button" onclick={read} data-testid="full-output-open">
                { format!("Show the full output ({})", fmt::bytes(p.blob.size() as u64)) }
            </button>
        },
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

