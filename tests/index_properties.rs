//! Property tests: for generated transcripts, the indexer's rows are the same
//! for every chunking (1-byte chunks, chunks that split a UTF-8 sequence, a
//! `\r\n` or an escape) and equal to the naive serde_json reference's.

use ccscope::index::follow::Tail;
use ccscope::index::{reference, Indexer, Malformed};
use proptest::prelude::*;

/// A JSON string literal with escapes, non-ASCII and surrogate pairs.
fn json_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-zA-Z0-9 <>/_.-]{0,12}".prop_map(|s| s),
        Just("\\n".to_string()),
        Just("\\\"".to_string()),
        Just("\\\\".to_string()),
        Just("\\u00e9".to_string()),
        Just("\\ud83d\\ude00".to_string()),
        Just("é—😀".to_string()),
        Just("<persisted-output>".to_string()),
        Just("\\u003cpersisted-output>".to_string()),
        // Rarely invalid: a lone surrogate, a bad escape, a raw tab.
        Just("\\ud83d".to_string()),
        Just("\\x".to_string()),
        Just("\t".to_string()),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| format!("\"{}\"", v.concat()))
}

fn json_number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..200_000).prop_map(|n| n.to_string()),
        Just("18446744073709551615".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-3".to_string()),
        Just("-0".to_string()),
        Just("2.5".to_string()),
        Just("1e3".to_string()),
        Just("1E+2".to_string()),
        Just("1e400".to_string()),
        // Either side of the largest double, where a number stops being
        // finite: serde_json's own float parser is the judge.
        Just("1.7976931348623157e308".to_string()),
        Just("1.7976931348623159e308".to_string()),
        Just("-1.8e308".to_string()),
        Just("17976931348623158".to_string() + &"0".repeat(292)),
        Just("17976931348623159".to_string() + &"0".repeat(292)),
        Just("1e-400".to_string()),
        Just("0e99999".to_string()),
        Just("01".to_string()),
        Just("1.".to_string()),
    ]
}

/// Any JSON value (sometimes not quite JSON).
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        json_string(),
        json_number(),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((json_key(), inner), 0..4).prop_map(|v| {
                format!("{{{}}}", v.into_iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(","))
            }),
        ]
    })
}

/// Keys the scanner cares about, and some it does not.
fn json_key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "\"type\"", "\"uuid\"", "\"parentUuid\"", "\"sessionId\"", "\"timestamp\"", "\"message\"",
        "\"content\"", "\"id\"", "\"name\"", "\"tool_use_id\"", "\"is_error\"", "\"usage\"",
        "\"input_tokens\"", "\"agentId\"", "\"other\"", "\"typ\\u0065\"", "\"summary\"",
    ])
    .prop_map(str::to_string)
}

fn block() -> impl Strategy<Value = String> {
    prop_oneof![
        json_string().prop_map(|t| format!("{{\"type\":\"text\",\"text\":{t}}}")),
        (json_string(), json_string()).prop_map(|(id, n)| format!("{{\"type\":\"tool_use\",\"id\":{id},\"name\":{n},\"input\":{{}}}}")),
        (json_string(), json_value(), prop::option::of(json_value())).prop_map(|(id, c, e)| {
            let e = e.map(|e| format!(",\"is_error\":{e}")).unwrap_or_default();
            format!("{{\"content\":{c},\"tool_use_id\":{id}{e},\"type\":\"tool_result\"}}")
        }),
        Just("{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":[{\"type\":\"image\",\"source\":{\"data\":\"AAAA\"}},{\"type\":\"text\",\"text\":\"x\"}]}".to_string()),
        Just("{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"data\":\"iVBORw0KGgo=\"}}".to_string()),
        json_value(),
    ]
}

fn record() -> impl Strategy<Value = String> {
    let ty = prop::sample::select(vec![
        "\"user\"", "\"assistant\"", "\"system\"", "\"summary\"", "\"custom-title\"", "\"ai-title\"",
        "\"last-prompt\"", "\"progress\"", "7", "null",
    ]);
    let ts = prop_oneof![
        Just("\"2026-09-01T09:00:00.000Z\"".to_string()),
        Just("\"2026-09-01T08:59:59.5+01:00\"".to_string()),
        Just("\"2026-02-30T00:00:00Z\"".to_string()),
        json_value(),
    ];
    let usage = (json_number(), json_number(), json_number()).prop_map(|(a, b, c)| {
        format!("{{\"input_tokens\":{a},\"output_tokens\":{b},\"cache_read_input_tokens\":{c},\"cache_creation_input_tokens\":5}}")
    });
    let content = prop_oneof![
        json_string(),
        prop::collection::vec(block(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
        json_value(),
    ];
    let message = (prop::option::of(json_string()), usage, content, prop::bool::ANY).prop_map(|(id, u, c, role)| {
        let id = id.map(|i| format!("\"id\":{i},")).unwrap_or_default();
        let role = if role { "assistant" } else { "user" };
        format!("{{{id}\"role\":\"{role}\",\"model\":\"m\",\"usage\":{u},\"content\":{c}}}")
    });
    let extra = prop::collection::vec((json_key(), json_value()), 0..3);
    let flags = prop::sample::subsequence(
        vec![
            "\"isSidechain\":true", "\"isApiErrorMessage\":true", "\"toolDenialKind\":\"x\"", "\"toolDenialKind\":null",
            "\"uuid\":\"u\"", "\"parentUuid\":null", "\"parentUuid\":\"p\"", "\"isCompactSummary\":true",
            "\"subtype\":\"compact_boundary\"", "\"level\":\"error\"", "\"compactMetadata\":{\"preTokens\":9,\"trigger\":\"auto\"}",
            "\"toolUseResult\":{\"agentId\":\"a1\"}", "\"customTitle\":\"T\\u00e9\"", "\"aiTitle\":\"A\"", "\"summary\":\"S\"",
        ],
        0..5,
    );
    (ty, ts, prop::option::of(message), extra, flags, prop::bool::ANY).prop_map(|(ty, ts, msg, extra, flags, spaced)| {
        let mut parts = vec![format!("\"type\":{ty}"), format!("\"timestamp\":{ts}"), "\"sessionId\":\"s\"".to_string()];
        parts.extend(msg.map(|m| format!("\"message\":{m}")));
        parts.extend(flags.into_iter().map(str::to_string));
        parts.extend(extra.into_iter().map(|(k, v)| format!("{k}:{v}")));
        let sep = if spaced { ", " } else { "," };
        format!("{{{}}}", parts.join(sep))
    })
}

/// A line: mostly records, sometimes damaged, blank or not an object.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => record().prop_map(String::into_bytes),
        1 => (record(), any::<prop::sample::Index>()).prop_map(|(r, i)| {
            let b = r.into_bytes();
            b[..i.index(b.len())].to_vec()
        }),
        1 => (record(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(r, i, byte)| {
            let mut b = r.into_bytes();
            let at = i.index(b.len());
            // A '\n' splits the record into two lines (whitespace inside an
            // object must not carry the scan across it).
            b.insert(at, byte);
            b
        }),
        1 => (record(), prop_oneof![Just(" "), Just("\t "), Just("\r"), Just(" x")]).prop_map(|(r, tail)| format!("{r}{tail}").into_bytes()),
        1 => prop_oneof![Just(b"".to_vec()), Just(b"  \t".to_vec()), Just(b"[1,2]".to_vec()), Just(b"\"s\"".to_vec()), Just(b"{}".to_vec())],
    ]
}

fn file() -> impl Strategy<Value = Vec<u8>> {
    (prop::collection::vec(line(), 0..8), prop::bool::ANY, prop::bool::ANY, prop::bool::ANY).prop_map(|(lines, crlf, bom, trailing)| {
        let mut out = Vec::new();
        if bom {
            out.extend_from_slice(b"\xEF\xBB\xBF");
        }
        let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        for (k, l) in lines.iter().enumerate() {
            out.extend_from_slice(l);
            if k + 1 < lines.len() || trailing {
                out.extend_from_slice(eol);
            }
        }
        out
    })
}

fn index_chunked(bytes: &[u8], cuts: &[usize]) -> ccscope::index::Index {
    let mut ix = Indexer::new();
    let mut at = 0;
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    for p in points {
        ix.push(&bytes[at..p.max(at)]);
        at = p.max(at);
    }
    ix.push(&bytes[at..]);
    ix.finish()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn rows_match_the_reference_for_any_chunking(bytes in file(), cuts in prop::collection::vec(any::<usize>(), 0..12)) {
        let want = reference::resolve(&reference::index(&bytes));
        let got = reference::resolve(&index_chunked(&bytes, &cuts));
        prop_assert_eq!(want, got, "file: {:?}", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn one_byte_chunks_equal_one_chunk(bytes in file()) {
        let whole = reference::resolve(&Indexer::index_bytes(&bytes));
        let mut ix = Indexer::new();
        for b in bytes.chunks(1) {
            ix.push(b);
        }
        prop_assert_eq!(whole, reference::resolve(&ix.finish()));
    }

    /// A followed file (`index::follow`): at every growth step, split
    /// anywhere (inside a line, a UTF-8 sequence, a `\r\n`), the settled
    /// index is the whole index of the bytes up to the last newline — a
    /// half-written line is never a row, never malformed — and going on
    /// from any settled copy (the page resumes from the worker's) ends
    /// where indexing the file whole ends.
    #[test]
    fn growing_in_any_steps_settles_as_the_whole_file(bytes in file(), cuts in prop::collection::vec(any::<usize>(), 0..8), resume_at in any::<usize>()) {
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        points.push(bytes.len());
        points.sort_unstable();
        let resume_at = points[resume_at % points.len()];
        let mut tail = Tail::default();
        let mut at = 0;
        for p in points {
            tail.push(&bytes[at..p]);
            at = p;
            let settled = tail.settled();
            let ended = bytes[..p].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
            let want = Indexer::index_bytes(&bytes[..ended]);
            prop_assert_eq!(settled.len_bytes, ended as u64);
            prop_assert_eq!(tail.open_line_bytes(), (p - ended) as u64);
            prop_assert_eq!((settled.physical_lines, settled.blank_lines, settled.malformed_lines), (want.physical_lines, want.blank_lines, want.malformed_lines));
            prop_assert_eq!(reference::resolve(&settled), reference::resolve(&want));
            if p == resume_at {
                // The page's path: the worker's settled index, resumed, fed the rest.
                let mut resumed = Tail::resume(settled, &bytes);
                resumed.push(&bytes[ended..]);
                let again = resumed.settled();
                let from = again.len_bytes as usize;
                prop_assert_eq!(resumed.open_line_bytes() as usize, bytes.len() - from);
                let mut rest = Indexer::resume(again);
                rest.push(&bytes[from..]);
                let whole = Indexer::index_bytes(&bytes);
                let got = rest.finish();
                prop_assert_eq!((got.physical_lines, got.malformed_lines, got.len_bytes), (whole.physical_lines, whole.malformed_lines, whole.len_bytes));
                prop_assert_eq!(reference::resolve(&got), reference::resolve(&whole));
            }
        }
    }
}

#[test]
fn edge_inputs() {
    for (input, lines, blank) in [
        (&b""[..], 0, 0),
        (b"\n", 0, 1),
        (b"\n\n", 0, 2),
        (b"{}", 1, 0),
        (b"{}\n", 1, 0),
        (b"{}\r\n{}", 2, 0),
        (b"\xEF\xBB\xBF{}\r\n", 1, 0),
        (b"\xEF\xBB\xBF", 0, 1),
        (b"{}\n\r\n  \n{}", 2, 2),
        (b"{\"a\":\n1}\n{}", 3, 0),
        (b"{\"a\": 1}  \t\r\n{}\n", 2, 0),
        (b"{\"a\":1} x\n{}\n", 2, 0),
        (b"{} \r\r\n{}\n", 2, 0),
        (b"{}\n  {\"a\":[1,\n2]}\n", 3, 0),
        (b"{}\n{\"a\":\"\xff\"}\n{\"b\":\"\xc3\xa9\"}\n", 3, 0),
        (b"{}\n{\"a\":\"x\ny\"}\n", 3, 0),
        (b"{}\n[1]\n\"s\"\n{}", 4, 0),
        // UTF-8 is checked string by string: bad bytes in a key, in a long
        // string (the 64-byte block path), cut short at the closing quote,
        // overlong, a surrogate; good 4-byte ones; high bytes outside strings.
        (b"{\"\xff\":1}\n{}", 2, 0),
        (b"{\"a\":\"0123456789012345678901234567890123456789012345678901234567890123456789\xfe\"}\n{}", 2, 0),
        (b"{\"a\":\"\xc3\"}\n{\"a\":\"\xc0\xaf\"}\n{\"a\":\"\xed\xa0\x80\"}\n", 3, 0),
        (b"{\"a\":\"\xf0\x9f\x98\x80 and then some text to make it a longer string \xf0\x9f\x98\x80\"}\n", 1, 0),
        (b"{\"a\":1\xc3\xa9}\n{\"a\":1}\xc3\xa9\n\xc3\xa9{}\n", 3, 0),
    ] {
        let ix = Indexer::index_bytes(input);
        assert_eq!((ix.rows.len(), ix.blank_lines as usize), (lines, blank), "{:?}", String::from_utf8_lossy(input));
        assert_eq!(reference::resolve(&ix), reference::resolve(&reference::index(input)));
    }
}

#[test]
fn every_byte_at_every_block_position_reads_as_serde_json_reads_it() {
    if let Some(wrong) = reference::every_byte_disagreement() {
        panic!("{wrong}");
    }
}

#[test]
fn a_line_longer_than_every_chunk_is_carried_whole() {
    let big = format!("{{\"type\":\"user\",\"message\":{{\"content\":[{{\"type\":\"image\",\"source\":{{\"data\":\"{}\"}}}}]}}}}\n{{\"type\":\"x\"}}", "A".repeat(300_000));
    let mut ix = Indexer::new();
    for c in big.as_bytes().chunks(4096) {
        ix.push(c);
    }
    let ix = ix.finish();
    assert_eq!(ix.rows.len(), 2);
    assert_eq!(ix.rows[0].images, 1);
    assert_eq!(ix.rows[1].offset, ix.rows[0].len_bytes as u64 + 1);
}

#[test]
fn nesting_limit_matches_serde_json() {
    for depth in [126usize, 127, 128, 129] {
        let line = format!("{{\"a\":{}{}}}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        let ours = Indexer::index_bytes(line.as_bytes()).rows[0].malformed.is_some();
        let theirs = serde_json::from_str::<serde_json::Value>(&line).is_err();
        assert_eq!(ours, theirs, "depth {depth}");
    }
}

#[test]
fn invalid_utf8_inside_a_string_is_named_as_such() {
    let mut bytes = b"{\"a\":\"".to_vec();
    bytes.extend_from_slice(&[b'x'; 100]);
    bytes.extend_from_slice(b"\xff\"}");
    for line in [&b"{\"\xff\":1}"[..], b"{\"a\":\"\xc3\"}", &bytes, b"{\"a\":[\"ok\",\"\xed\xa0\x80\"]}"] {
        let ix = Indexer::index_bytes(line);
        assert_eq!(ix.rows[0].malformed, Some(Malformed::InvalidUtf8), "{:?}", String::from_utf8_lossy(line));
    }
    // Valid multi-byte text in every string of a line is no error.
    let ok = "{\"type\":\"user\",\"é\":\"naïve — 😀 ".to_string() + &"ü".repeat(80) + "\"}";
    assert_eq!(Indexer::index_bytes(ok.as_bytes()).rows[0].malformed, None);
}

#[test]
fn a_content_array_counts_only_inside_a_tool_result() {
    // Found by the property test: a block without a `type` whose `content`
    // array holds a string. Only a tool_result's content elements are
    // result blocks; this block itself is one odd content block.
    let input = br#"{"type":"user","message":{"role":"user","content":[{"content":[""]},{"type":"text","content":[{"type":"x"}]}]}}"#;
    let ix = Indexer::index_bytes(input);
    assert_eq!(reference::resolve(&ix), reference::resolve(&reference::index(input)));
    assert_eq!(ix.odd_blocks.len(), 1);
    assert!(!ix.odd_blocks[0].in_result);
}
