//! The metric names a PromQL expression reads, so that a dashboard query is asked of a real Prometheus
//! only when every series it reads is chaikhana's own.

/// The metric names a PromQL expression reads: its identifiers, less functions (those followed by
/// `(`), operators and keywords (`sum by (pod) (...)`), label names (inside `{}` and in `by (...)` and
/// the like), strings, durations and numbers.
pub(super) fn metric_names(expr: &str) -> Vec<String> {
    let text = expr.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    // Past a closing `close`, skipping quoted strings on the way.
    let skip_to = |mut i: usize, close: u8| {
        while i < text.len() && text[i] != close {
            if text[i] == b'"' {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
            }
            i += 1;
        }
        i + 1
    };
    while i < text.len() {
        let c = text[i];
        if c == b'"' {
            i = skip_to(i + 1, b'"');
        } else if c == b'{' {
            i = skip_to(i + 1, b'}');
        } else if c == b'[' {
            i = skip_to(i + 1, b']');
        } else if c.is_ascii_digit() || c == b'.' {
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b':' {
            let start = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || b"_:".contains(&text[i])) {
                i += 1;
            }
            let word = &expr[start..i];
            let mut next = i;
            while next < text.len() && text[next] == b' ' {
                next += 1;
            }
            let grouping = [
                "by",
                "without",
                "on",
                "ignoring",
                "group_left",
                "group_right",
            ];
            let keywords = [
                "and",
                "or",
                "unless",
                "offset",
                "bool",
                "inf",
                "nan",
                "sum",
                "min",
                "max",
                "avg",
                "group",
                "stddev",
                "stdvar",
                "count",
                "count_values",
                "bottomk",
                "topk",
                "quantile",
                "limitk",
                "limit_ratio",
            ];
            if grouping.contains(&word) {
                if text.get(next) == Some(&b'(') {
                    i = skip_to(next + 1, b')');
                }
            } else if text.get(next) != Some(&b'(') && !keywords.contains(&word) {
                names.push(word.to_string());
            }
        } else {
            i += 1;
        }
    }
    names
}

#[test]
fn metric_names_are_read_from_a_query() {
    assert_eq!(
        metric_names(
            r#"histogram_quantile(0.99, sum by (le, game) (rate(chaikhana_action_seconds_bucket{pod=~"$pod", x="}"}[5m]))) * 60"#
        ),
        ["chaikhana_action_seconds_bucket"]
    );
    assert_eq!(
        metric_names("max by (pod) (redis_memory_used_bytes) / on (pod) process_max_fds"),
        ["redis_memory_used_bytes", "process_max_fds"]
    );
}
