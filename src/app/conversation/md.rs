//! Markdown nodes ([`crate::model::markdown`]) → Yew nodes. Every string
//! goes in as a text node; the only attribute taken from the transcript is
//! a link's `href`, and only after [`is_web_link`] accepted it.

use yew::prelude::*;

use crate::model::markdown::{is_web_link, El, Node};

pub fn render(text: &str) -> Html {
    let nodes = crate::model::markdown::parse(text);
    html! { <div class="md">{ for nodes.iter().map(node) }</div> }
}

fn node(n: &Node) -> Html {
    match n {
        Node::Text(t) => html! { t.clone() },
        Node::Code(t) => html! { <code>{ t.clone() }</code> },
        Node::CodeBlock { lang, text } => html! {
            <pre class="code" data-lang={lang.clone()}><code>{ text.clone() }</code></pre>
        },
        Node::SoftBreak => html! { "\n" },
        Node::HardBreak => html! { <br /> },
        Node::Rule => html! { <hr /> },
        // A body is redacted before it is parsed: the address was too.
        Node::Link { href, children } if is_web_link(href) => html! {
            <a href={href.clone()} target="_blank" rel="noopener noreferrer nofollow">{ for children.iter().map(node) }</a>
        },
        Node::Link { children, .. } => html! { <span>{ for children.iter().map(node) }</span> },
        Node::El { tag, children } => {
            let kids = children.iter().map(node).collect::<Html>();
            match tag {
                El::P => html! { <p>{ kids }</p> },
                El::H(1) => html! { <h3>{ kids }</h3> },
                El::H(2) => html! { <h4>{ kids }</h4> },
                El::H(_) => html! { <h5>{ kids }</h5> },
                El::Quote => html! { <blockquote>{ kids }</blockquote> },
                El::Ul => html! { <ul>{ kids }</ul> },
                El::Ol => html! { <ol>{ kids }</ol> },
                El::Li => html! { <li>{ kids }</li> },
                El::Em => html! { <em>{ kids }</em> },
                El::Strong => html! { <strong>{ kids }</strong> },
                El::Del => html! { <del>{ kids }</del> },
                El::Table => html! { <div class="table-wrap"><table>{ kids }</table></div> },
                El::Tr => html! { <tr>{ kids }</tr> },
                El::Th => html! { <th>{ kids }</th> },
                El::Td => html! { <td>{ kids }</td> },
                El::Span => html! { <span>{ kids }</span> },
            }
        }
    }
}
