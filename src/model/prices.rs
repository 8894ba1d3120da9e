//! Anthropic's published list prices, for an *estimated API-equivalent
//! cost*: what the tokens of a transcript would cost at list price through
//! the API. A subscription pays differently; the figure is an estimate and is
//! labelled so wherever it is shown.
//!
//! Source: <https://platform.claude.com/docs/en/about-claude/pricing>, "Model
//! pricing", taken on [`PRICES_TAKEN`]. USD per million tokens. Cache writes
//! are priced at the 5-minute rate (the default; the index does not keep the
//! 1-hour split, so a 1-hour write is under-estimated by 0.75× the input
//! price). Batch, long-context and data-residency rates are not applied.
//!
//! A model not in the table has no price: its tokens are shown with "no
//! price", never a guessed one.

/// The day the table was taken from the pricing page.
pub const PRICES_TAKEN: &str = "2026-12-05";

/// USD per million tokens, by kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub input: f64,
    pub cache_write: f64,
    pub cache_read: f64,
    pub output: f64,
}

const fn p(input: f64, cache_write: f64, cache_read: f64, output: f64) -> Price {
    Price { input, cache_write, cache_read, output }
}

/// Model ids (without a `-YYYYMMDD` snapshot date) and their prices.
const TABLE: &[(&str, Price)] = &[
    ("claude-fable-5-1", p(10.0, 12.5, 0.25, 50.0)),
    ("claude-mythos-5-1", p(10.0, 12.5, 0.25, 50.0)),
    ("claude-fable-5", p(10.0, 12.5, 1.0, 50.0)),
    ("claude-mythos-5", p(10.0, 12.5, 1.0, 50.0)),
    ("claude-opus-5", p(5.0, 6.25, 0.5, 25.0)),
    ("claude-opus-4-8", p(5.0, 6.25, 0.5, 25.0)),
    ("claude-opus-4-7", p(5.0, 6.25, 0.5, 25.0)),
    ("claude-opus-4-6", p(5.0, 6.25, 0.5, 25.0)),
    ("claude-opus-4-5", p(5.0, 6.25, 0.5, 25.0)),
    ("claude-opus-4-1", p(15.0, 18.75, 1.5, 75.0)),
    ("claude-opus-4", p(15.0, 18.75, 1.5, 75.0)),
    ("claude-sonnet-4-6", p(3.0, 3.75, 0.3, 15.0)),
    ("claude-sonnet-4-5", p(3.0, 3.75, 0.3, 15.0)),
    ("claude-sonnet-4", p(3.0, 3.75, 0.3, 15.0)),
    ("claude-3-7-sonnet", p(3.0, 3.75, 0.3, 15.0)),
    ("claude-haiku-4-5", p(1.0, 1.25, 0.1, 5.0)),
    ("claude-3-5-haiku", p(0.8, 1.0, 0.08, 4.0)),
    ("claude-3-opus", p(15.0, 18.75, 1.5, 75.0)),
    ("claude-3-haiku", p(0.25, 0.3, 0.03, 1.25)),
];

/// `model` without a trailing `-YYYYMMDD` snapshot date.
fn family(model: &str) -> &str {
    match model.rsplit_once('-') {
        Some((head, date)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => model,
    }
}

/// The list price of `model`, if the table has it (exactly, up to a
/// snapshot date: `claude-opus-4-1-20250805` is `claude-opus-4-1`; an alias
/// such as `haiku` says too little to price).
pub fn price_of(model: &str) -> Option<Price> {
    let f = family(model);
    TABLE.iter().find(|(name, _)| *name == f).map(|(_, p)| *p)
}

/// Tokens of one kind each; what they cost at `price`, in USD.
pub fn cost_usd(price: Price, input: u64, cache_write: u64, cache_read: u64, output: u64) -> f64 {
    (input as f64 * price.input + cache_write as f64 * price.cache_write + cache_read as f64 * price.cache_read + output as f64 * price.output) / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_priced_by_family_and_unknown_ones_are_not() {
        assert_eq!(price_of("claude-opus-4-1-20250805").map(|p| p.output), Some(75.0));
        assert_eq!(price_of("claude-opus-4-20250514").map(|p| p.input), Some(15.0));
        assert_eq!(price_of("claude-opus-4-5-20251101").map(|p| p.input), Some(5.0));
        assert_eq!(price_of("claude-sonnet-4-5-20250929").map(|p| p.cache_read), Some(0.3));
        assert_eq!(price_of("claude-opus-5").map(|p| p.cache_write), Some(6.25));
        assert_eq!(price_of("haiku"), None, "an alias names no model");
        assert_eq!(price_of("<synthetic>"), None);
        assert_eq!(price_of("claude-opus-4-9"), None, "a newer model than the table: no guess");
        // 1M input at $5 + 2M cache reads at $0.50 + 100k output at $25.
        let c = cost_usd(price_of("claude-opus-4-7").unwrap(), 1_000_000, 0, 2_000_000, 100_000);
        assert!((c - 8.5).abs() < 1e-9, "{c}");
    }
}
