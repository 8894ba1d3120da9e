//! The folder dashboard's figures, without the DOM: the listed
//! conversations' reports folded into [`Totals`] (the same fold as
//! `ccscope report DIR`), the calendar's cells, and the longest and the most
//! expensive conversations. It follows the list's filters: what the list
//! shows is what the dashboard sums.

use crate::folder::totals::Totals;
use crate::model::report::Day;
use crate::state::browser::Browser;

const DAY_MS: i64 = 86_400_000;
/// Weeks the calendar shows at most (the most recent ones).
pub const CALENDAR_WEEKS: i64 = 53;

/// One day of the calendar.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Midnight UTC.
    pub day_ms: i64,
    /// Column (week, from the first shown) and row (0 = Monday).
    pub week: u32,
    pub weekday: u32,
    /// 0 (nothing) to 4 (the busiest quarter), by active time.
    pub level: u8,
    pub day: Option<Day>,
}

/// The calendar of `days` (dated ones; `None` dates are left out): every
/// day from the Monday on or before the first to the last, at most
/// [`CALENDAR_WEEKS`] weeks ending with the last.
pub fn calendar(days: &[Day]) -> Vec<Cell> {
    let dated: Vec<(i64, &Day)> = days.iter().filter_map(|d| Some((crate::fmt::parse_date_ms(d.date.as_deref()?)?, d))).collect();
    let (Some(first), Some(last)) = (dated.iter().map(|d| d.0).min(), dated.iter().map(|d| d.0).max()) else { return Vec::new() };
    // 1970-01-01 was a Thursday: weekday 3 with Monday as 0.
    let weekday = |ms: i64| ((ms.div_euclid(DAY_MS) + 3).rem_euclid(7)) as u32;
    let earliest = last - (CALENDAR_WEEKS * 7 - 1 - (6 - weekday(last) as i64)) * DAY_MS;
    let start = first.max(earliest);
    let start = start - weekday(start) as i64 * DAY_MS;
    let busiest = dated.iter().map(|d| d.1.active_seconds).fold(0.0, f64::max);
    let mut out = Vec::new();
    let mut ms = start;
    while ms <= last {
        let day = dated.iter().find(|d| d.0 == ms).map(|d| d.1.clone());
        let active = day.as_ref().map_or(0.0, |d| d.active_seconds);
        let level = match day {
            None => 0,
            Some(_) if busiest <= 0.0 || active <= 0.0 => 1,
            Some(_) => 1 + ((active / busiest) * 3.0).floor().clamp(0.0, 3.0) as u8,
        };
        out.push(Cell { day_ms: ms, week: ((ms - start) / DAY_MS / 7) as u32, weekday: weekday(ms), level, day });
        ms += DAY_MS;
    }
    out
}

/// The dashboard of the conversations `rows` (as the list shows them).
pub struct Dashboard {
    pub totals: Totals,
    /// Conversations summed up, of `rows.len()`.
    pub summed: usize,
    /// The longest by active time and the most expensive, at most five each.
    pub longest: Vec<u32>,
    pub priciest: Vec<u32>,
    /// For each of `totals.unknown`, the first conversation (in the list's
    /// order) that holds it.
    pub unknown_first: Vec<Option<u32>>,
}

impl Dashboard {
    pub fn build(folder: &Browser, rows: &[u32]) -> Dashboard {
        let mut totals = Totals::default();
        let mut summed = Vec::new();
        for &c in rows {
            if let Some(f) = folder.facts(c) {
                totals.add_conversation(&f.line.project, &f.report, &f.messages, &f.files);
                totals.add_runs(&f.runs);
                summed.push(c);
            }
        }
        let top = |key: &dyn Fn(u32) -> Option<f64>| {
            let mut v: Vec<(u32, f64)> = summed.iter().filter_map(|&c| Some((c, key(c)?))).filter(|x| x.1 > 0.0).collect();
            crate::sort::by(&mut v, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            v.into_iter().take(5).map(|x| x.0).collect::<Vec<_>>()
        };
        let longest = top(&|c| folder.facts(c)?.report.active_seconds);
        let priciest = top(&|c| folder.facts(c)?.report.cost_usd);
        let unknown_first = totals.unknown.iter().map(|u| summed.iter().copied().find(|&c| folder.facts(c).is_some_and(|f| f.report.unknown.iter().any(|x| u.is(x))))).collect();
        Dashboard { totals: totals.sorted(), summed: summed.len(), longest, priciest, unknown_first }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(date: &str, active_seconds: f64) -> Day {
        Day { date: Some(date.into()), active_seconds, api_turns: 1, tokens: None, cost_usd: None }
    }

    #[test]
    fn the_calendar_runs_monday_to_sunday_from_the_first_day_to_the_last() {
        // 2026-09-01 was a Tuesday; 2026-09-14 a Monday.
        let cells = calendar(&[day("2026-09-01", 60.0), day("2026-09-04", 600.0), day("2026-09-14", 0.0)]);
        assert_eq!(crate::fmt::utc_date(cells[0].day_ms), "2026-08-31", "from the Monday before");
        assert_eq!((cells[0].week, cells[0].weekday), (0, 0));
        assert_eq!(cells.len(), 15, "31 Aug … 14 Sep");
        let level = |d: &str| cells.iter().find(|c| crate::fmt::utc_ms(c.day_ms).starts_with(d)).map(|c| c.level);
        assert_eq!(level("2026-09-04"), Some(4), "the busiest day");
        assert_eq!(level("2026-09-01"), Some(1), "a tenth of it");
        assert_eq!(level("2026-09-14"), Some(1), "a day with turns but no active time still shows");
        assert_eq!(level("2026-09-02"), Some(0));
        assert_eq!(cells.last().map(|c| (c.week, c.weekday)), Some((2, 0)));
        assert!(calendar(&[Day::default()]).is_empty(), "undated days draw no calendar");
        // Years of activity: the last 53 weeks only.
        assert!(calendar(&[day("2020-01-01", 1.0), day("2026-09-01", 1.0)]).len() <= 53 * 7);
    }
}
