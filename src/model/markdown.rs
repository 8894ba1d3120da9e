//! Markdown → a small tree the view turns into DOM nodes.
//!
//! Safety rule: nothing becomes HTML. Raw HTML in the text is kept as text,
//! links survive only for `http:` / `https:` (anything else keeps its text
//! without a link), and images are never loaded: they show as their alt text
//! and address.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// An element of the tree. Text is always a text node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Text(String),
    /// Inline code.
    Code(String),
    /// A fenced or indented block, with its language if given.
    CodeBlock { lang: String, text: String },
    SoftBreak,
    HardBreak,
    Rule,
    El { tag: El, children: Vec<Node> },
    /// A link with a checked `http(s)` address.
    Link { href: String, children: Vec<Node> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum El {
    P,
    H(u8),
    Quote,
    Ul,
    Ol,
    Li,
    Em,
    Strong,
    Del,
    Table,
    Tr,
    Th,
    Td,
    /// Anything we do not style (footnotes, definitions): a plain span.
    Span,
}

/// Whether an address may become a clickable link.
pub fn is_web_link(href: &str) -> bool {
    let h = href.trim_start().to_ascii_lowercase();
    h.starts_with("https://") || h.starts_with("http://")
}

enum Open {
    El(El),
    Link(Option<String>),
    Image(String),
    Code(String),
    /// Table head rows: cells are `th`.
    Head,
}

/// Parses `text` (CommonMark plus tables, strikethrough, task lists).
pub fn parse(text: &str) -> Vec<Node> {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut stack: Vec<(Open, Vec<Node>)> = vec![(Open::El(El::Span), Vec::new())];
    let mut in_head = false;
    for ev in Parser::new_ext(text, opts) {
        match ev {
            Event::Start(tag) => {
                let open = match tag {
                    Tag::Paragraph => Open::El(El::P),
                    Tag::Heading { level, .. } => Open::El(El::H(heading(level))),
                    Tag::BlockQuote(_) => Open::El(El::Quote),
                    Tag::CodeBlock(kind) => Open::Code(match kind {
                        CodeBlockKind::Fenced(l) => l.split_whitespace().next().unwrap_or("").to_string(),
                        CodeBlockKind::Indented => String::new(),
                    }),
                    Tag::List(Some(_)) => Open::El(El::Ol),
                    Tag::List(None) => Open::El(El::Ul),
                    Tag::Item => Open::El(El::Li),
                    Tag::Emphasis => Open::El(El::Em),
                    Tag::Strong => Open::El(El::Strong),
                    Tag::Strikethrough => Open::El(El::Del),
                    Tag::Table(_) => Open::El(El::Table),
                    Tag::TableHead => {
                        in_head = true;
                        Open::Head
                    }
                    Tag::TableRow => Open::El(El::Tr),
                    Tag::TableCell => Open::El(if in_head { El::Th } else { El::Td }),
                    Tag::Link { dest_url, .. } => Open::Link(is_web_link(&dest_url).then(|| dest_url.to_string())),
                    Tag::Image { dest_url, .. } => Open::Image(dest_url.to_string()),
                    _ => Open::El(El::Span),
                };
                stack.push((open, Vec::new()));
            }
            Event::End(end) => {
                if matches!(end, TagEnd::TableHead) {
                    in_head = false;
                }
                if stack.len() < 2 {
                    continue;
                }
                let Some((open, children)) = stack.pop() else { continue };
                let node = match open {
                    Open::El(tag) => Node::El { tag, children },
                    Open::Head => Node::El { tag: El::Tr, children },
                    Open::Link(Some(href)) => Node::Link { href, children },
                    Open::Link(None) => Node::El { tag: El::Span, children },
                    Open::Image(src) => {
                        let mut c = children;
                        c.push(Node::Text(format!(" [image: {src}]")));
                        Node::El { tag: El::Span, children: c }
                    }
                    Open::Code(lang) => {
                        let text = children.iter().map(text_of).collect();
                        Node::CodeBlock { lang, text }
                    }
                };
                push(&mut stack, node);
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => push(&mut stack, Node::Text(t.to_string())),
            Event::Code(t) => push(&mut stack, Node::Code(t.to_string())),
            Event::SoftBreak => push(&mut stack, Node::SoftBreak),
            Event::HardBreak => push(&mut stack, Node::HardBreak),
            Event::Rule => push(&mut stack, Node::Rule),
            Event::TaskListMarker(done) => push(&mut stack, Node::Text(if done { "☑ " } else { "☐ " }.into())),
            Event::FootnoteReference(t) => push(&mut stack, Node::Text(format!("[{t}]"))),
            _ => {}
        }
    }
    // Unbalanced input cannot happen with pulldown-cmark, but fold anyway.
    while stack.len() > 1 {
        let Some((_, children)) = stack.pop() else { break };
        push(&mut stack, Node::El { tag: El::Span, children });
    }
    stack.pop().map(|(_, c)| c).unwrap_or_default()
}

fn push(stack: &mut [(Open, Vec<Node>)], node: Node) {
    if let Some((_, children)) = stack.last_mut() {
        // Merge adjacent text (raw HTML arrives in pieces).
        if let (Node::Text(t), Some(Node::Text(prev))) = (&node, children.last_mut()) {
            prev.push_str(t);
            return;
        }
        children.push(node);
    }
}

fn text_of(n: &Node) -> String {
    match n {
        Node::Text(t) | Node::Code(t) => t.clone(),
        _ => String::new(),
    }
}

fn heading(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(nodes: &[Node], out: &mut String) {
        for n in nodes {
            match n {
                Node::Text(t) | Node::Code(t) => out.push_str(t),
                Node::El { children, .. } | Node::Link { children, .. } => texts(children, out),
                Node::CodeBlock { text, .. } => out.push_str(text),
                _ => {}
            }
        }
    }

    #[test]
    fn raw_html_stays_text() {
        let nodes = parse("hi <img src=x onerror=alert(1)> there\n\n<script>alert(2)</script>\n");
        let mut all = String::new();
        texts(&nodes, &mut all);
        assert!(all.contains("<img src=x onerror=alert(1)>"), "{all}");
        assert!(all.contains("<script>alert(2)</script>"), "{all}");
    }

    #[test]
    fn only_web_links_are_links() {
        let nodes = parse("[a](https://x.test) [b](javascript:alert(1)) [c](data:text/html,x) ![i](http://img.test/p.png)");
        let Node::El { children, .. } = &nodes[0] else { panic!("{nodes:?}") };
        let links: Vec<&str> = children.iter().filter_map(|n| match n { Node::Link { href, .. } => Some(href.as_str()), _ => None }).collect();
        assert_eq!(links, ["https://x.test"]);
        let mut all = String::new();
        texts(&nodes, &mut all);
        assert!(all.contains("b") && all.contains("[image: http://img.test/p.png]"));
    }

    #[test]
    fn structure_survives() {
        let nodes = parse("# T\n\n- a\n- **b**\n\n```rust\nfn x() {}\n```\n\n|h|\n|-|\n|c|\n");
        assert!(matches!(nodes[0], Node::El { tag: El::H(1), .. }));
        assert!(matches!(nodes[1], Node::El { tag: El::Ul, .. }));
        assert_eq!(nodes[2], Node::CodeBlock { lang: "rust".into(), text: "fn x() {}\n".into() });
        assert!(matches!(nodes[3], Node::El { tag: El::Table, .. }));
    }
}
