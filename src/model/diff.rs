//! A line diff of two whole texts (a file at two checkpoints), as hunks
//! with context: the common head and tail are trimmed, and the middle is
//! aligned by longest common subsequence when it is small enough
//! ([`MAX_MIDDLE_CELLS`]); a larger middle is shown as removed then added.

use super::tools::DiffLine;

/// The largest middle (lines of one side × lines of the other) aligned
/// line by line: 4 M cells of `u32` (16 MB) at most.
pub const MAX_MIDDLE_CELLS: usize = 4_000_000;

/// Edits between `a` and `b`: `(kind, line)` with kind `' '`, `'-'`, `'+'`.
fn edits<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<(char, &'a str)> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut out: Vec<(char, &str)> = a[..head].iter().map(|l| (' ', *l)).collect();
    if ma.len().saturating_mul(mb.len()) <= MAX_MIDDLE_CELLS {
        // lcs[i][j]: longest common subsequence of ma[i..] and mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] { lcs[(i + 1) * w + j + 1] + 1 } else { lcs[(i + 1) * w + j].max(lcs[i * w + j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                out.push((' ', ma[i]));
                (i, j) = (i + 1, j + 1);
            } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                // A removal first, where it loses nothing (as diff tools show it).
                out.push(('-', ma[i]));
                i += 1;
            } else {
                out.push(('+', mb[j]));
                j += 1;
            }
        }
    } else {
        out.extend(ma.iter().map(|l| ('-', *l)));
        out.extend(mb.iter().map(|l| ('+', *l)));
    }
    out.extend(a[a.len() - tail..].iter().map(|l| (' ', *l)));
    out
}

/// The change from `a` to `b` as hunks (a `@@ -start,len +start,len @@`
/// header, then lines), each with `context` unchanged lines around its
/// changes. Empty when the texts have the same lines.
pub fn hunks(a: &str, b: &str, context: usize) -> Vec<DiffLine> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let e = edits(&la, &lb);
    // Which edits to show: every change, and `context` lines either side.
    let changed: Vec<usize> = e.iter().enumerate().filter(|(_, (k, _))| *k != ' ').map(|(n, _)| n).collect();
    let mut shown = vec![false; e.len()];
    for &n in &changed {
        for s in shown.iter_mut().take((n + context + 1).min(e.len())).skip(n.saturating_sub(context)) {
            *s = true;
        }
    }
    let mut out = Vec::new();
    let (mut old_line, mut new_line) = (1usize, 1usize);
    let mut n = 0;
    while n < e.len() {
        if !shown[n] {
            if e[n].0 != '+' {
                old_line += 1;
            }
            if e[n].0 != '-' {
                new_line += 1;
            }
            n += 1;
            continue;
        }
        let end = (n..e.len()).find(|&m| !shown[m]).unwrap_or(e.len());
        let olds = e[n..end].iter().filter(|(k, _)| *k != '+').count();
        let news = e[n..end].iter().filter(|(k, _)| *k != '-').count();
        out.push(DiffLine::Hunk(format!("@@ -{old_line},{olds} +{new_line},{news} @@")));
        for (k, l) in &e[n..end] {
            out.push(match k {
                '-' => DiffLine::Removed(l.to_string()),
                '+' => DiffLine::Added(l.to_string()),
                _ => DiffLine::Context(l.to_string()),
            });
        }
        (old_line, new_line) = (old_line + olds, new_line + news);
        n = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(d: &[DiffLine]) -> Vec<String> {
        d.iter()
            .map(|l| match l {
                DiffLine::Hunk(h) => h.clone(),
                DiffLine::Context(c) => format!(" {c}"),
                DiffLine::Removed(c) => format!("-{c}"),
                DiffLine::Added(c) => format!("+{c}"),
            })
            .collect()
    }

    #[test]
    fn two_changes_far_apart_are_two_hunks_with_their_line_numbers() {
        let a: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let b = a.replace("line 2\n", "line two\n").replace("line 18\n", "line 18\nnew 18b\n");
        assert_eq!(
            text(&hunks(&a, &b, 1)),
            ["@@ -1,3 +1,3 @@", " line 1", "-line 2", "+line two", " line 3", "@@ -18,2 +18,3 @@", " line 18", "+new 18b", " line 19"]
        );
    }

    #[test]
    fn an_insertion_in_the_middle_keeps_the_lines_around_it() {
        // Aligned by common subsequence, not as a block removed and added.
        let d = text(&hunks("a\nb\nc\nd\n", "a\nb\nX\nc\nd\n", 1));
        assert_eq!(d, ["@@ -2,2 +2,3 @@", " b", "+X", " c"]);
    }

    #[test]
    fn the_same_text_has_no_hunk_and_a_new_file_is_all_added() {
        assert!(hunks("a\nb\n", "a\nb\n", 3).is_empty());
        assert_eq!(text(&hunks("", "x\ny\n", 3)), ["@@ -1,0 +1,2 @@", "+x", "+y"]);
    }
}
