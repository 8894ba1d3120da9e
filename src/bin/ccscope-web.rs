//! The viewer's entry point: trunk builds this binary for wasm32.

#[cfg(target_arch = "wasm32")]
fn main() {
    ccscope::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("ccscope-web is the browser viewer: build it with `make serve` (trunk), not natively.");
    std::process::exit(2);
}
