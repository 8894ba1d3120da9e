//! Anthropic's published list prices, for an *estimated API-equivalent
//! cost*: what the tokens of a transcript would cost at list price through
//! the API. A subscription pays differently; the figure is an estimate and is
//! labelled so wherever it is shown.
//!
//! Source: <https://platform.claude.com/docs/en/about-claude/pricing>, "Model
//! pricing", taken on [`PRICES_TAKEN`]. USD per million tokens. The page's
//! table has a column per cache lifetime ("5m cache writes", "1h cache
//! writes": 1.25× and 2× the base input price); a turn's writes are split by
//! its `usage.cache_creation.ephemeral_1h_input_tokens` and each part priced
//! at its own rate. The web search tool is "$10 per 1,000 searches"
//! (`usage.server_tool_use.web_search_requests`); web fetch has no charge
//! beyond its tokens. Fast mode (`usage.speed: "fast"`) is priced at a
//! per-model multiple the table here does not hold: its turns are counted
//! and said to be at standard rates, never silently. Batch, long-context
//! and data-residency rates are not applied.
//!
//! A model not in the table has no price: its tokens are shown with "no
//! price", never a guessed one.

/// The day the table was taken from the pricing page.
pub const PRICES_TAKEN: &str = "2026-12-05";

/// USD per million tokens, by kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub input: f64,
    /// 5-minute cache writes.
    pub cache_write: f64,
    /// 1-hour cache writes.
    pub cache_write_1h: f64,
    pub cache_read: f64,
    pub output: f64,
}

const fn p(input: f64, cache_write: f64, cache_write_1h: f64, cache_read: f64, output: f64) -> Price {
    Price { input, cache_write, cache_write_1h, cache_read, output }
}

/// The web search tool's price, USD per search ("$10 per 1,000 searches").
pub const WEB_SEARCH_USD: f64 = 10.0 / 1000.0;

/// What a turn (or a sum of turns) spent, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spend {
    pub input: u64,
    /// All cache writes, 5-minute and 1-hour.
    pub cache_write: u64,
    /// Of `cache_write`, the 1-hour ones.
    pub cache_write_1h: u64,
    pub cache_read: u64,
    pub output: u64,
    pub web_searches: u64,
}

/// Model ids (without a `-YYYYMMDD` snapshot date) and their prices.
const TABLE: &[(&str, Price)] = &[
    ("claude-fable-5-1", p(10.0, 12.5, 20.0, 0.25, 50.0)),
    ("claude-mythos-5-1", p(10.0, 12.5, 20.0, 0.25, 50.0)),
    ("claude-fable-5", p(10.0, 12.5, 20.0, 1.0, 50.0)),
    ("claude-mythos-5", p(10.0, 12.5, 20.0, 1.0, 50.0)),
    ("claude-opus-5", p(5.0, 6.25, 10.0, 0.5, 25.0)),
    ("claude-opus-4-8", p(5.0, 6.25, 10.0, 0.5, 25.0)),
    ("claude-opus-4-7", p(5.0, 6.25, 10.0, 0.5, 25.0)),
    ("claude-opus-4-6", p(5.0, 6.25, 10.0, 0.5, 25.0)),
    ("claude-opus-4-5", p(5.0, 6.25, 10.0, 0.5, 25.0)),
    ("claude-opus-4-1", p(15.0, 18.75, 30.0, 1.5, 75.0)),
    ("claude-opus-4", p(15.0, 18.75, 30.0, 1.5, 75.0)),
    ("claude-sonnet-4-6", p(3.0, 3.75, 6.0, 0.3, 15.0)),
    ("claude-sonnet-4-5", p(3.0, 3.75, 6.0, 0.3, 15.0)),
    ("claude-sonnet-4", p(3.0, 3.75, 6.0, 0.3, 15.0)),
    ("claude-3-7-sonnet", p(3.0, 3.75, 6.0, 0.3, 15.0)),
    ("claude-haiku-4-5", p(1.0, 1.25, 2.0, 0.1, 5.0)),
    ("claude-3-5-haiku", p(0.8, 1.0, 1.6, 0.08, 4.0)),
    ("claude-3-opus", p(15.0, 18.75, 30.0, 1.5, 75.0)),
    ("claude-3-haiku", p(0.25, 0.3, 0.5, 0.03, 1.25)),
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

/// What `s` costs at `price`, in USD: each cache write at its lifetime's
/// rate (a 1-hour count above the total is held to the total).
pub fn cost_usd(price: Price, s: &Spend) -> f64 {
    let long = s.cache_write_1h.min(s.cache_write);
    let tokens = s.input as f64 * price.input
        + (s.cache_write - long) as f64 * price.cache_write
        + long as f64 * price.cache_write_1h
        + s.cache_read as f64 * price.cache_read
        + s.output as f64 * price.output;
    tokens / 1e6 + s.web_searches as f64 * WEB_SEARCH_USD
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
        let c = cost_usd(price_of("claude-opus-4-7").unwrap(), &Spend { input: 1_000_000, cache_read: 2_000_000, output: 100_000, ..Spend::default() });
        assert!((c - 8.5).abs() < 1e-9, "{c}");
    }

    #[test]
    fn one_hour_cache_writes_cost_twice_the_input_price_and_searches_a_cent_each() {
        let opus = price_of("claude-opus-5").unwrap();
        // The pricing page's row: $6.25 (5m) and $10 (1h) per MTok.
        assert_eq!((opus.cache_write, opus.cache_write_1h), (6.25, 10.0));
        // 1M writes, 400k of them 1-hour: 600k × 6.25 + 400k × 10 = $7.75.
        let c = cost_usd(opus, &Spend { cache_write: 1_000_000, cache_write_1h: 400_000, ..Spend::default() });
        assert!((c - 7.75).abs() < 1e-9, "{c}");
        // A 1-hour count above the total (a malformed usage) is held to it.
        let held = cost_usd(opus, &Spend { cache_write: 100, cache_write_1h: 1_000, ..Spend::default() });
        assert!((held - 100.0 * 10.0 / 1e6).abs() < 1e-12);
        let s = cost_usd(opus, &Spend { web_searches: 3, ..Spend::default() });
        assert!((s - 0.03).abs() < 1e-12, "{s}");
    }
}
