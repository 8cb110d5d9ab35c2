//! A parsed scenario file as a tree of values that remember their line, so that every problem
//! found later can name where it is. TOML keeps spans (toml_edit); JSON (serde_json) does not,
//! so JSON problems name the key only.

use super::Problem;

/// One value of the file and the 1-based line it starts on (`None` when unknown).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub value: Value,
    pub line: Option<usize>,
}

/// The value kinds both TOML and JSON share (TOML dates are kept only to be rejected).
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Table(Vec<(String, Node)>),
    Array(Vec<Node>),
    Integer(i64),
    Float(f64),
    String(String),
    Boolean(bool),
    /// A TOML date or time, or a JSON null: never valid in a scenario.
    Other(&'static str),
}

impl Value {
    /// The kind, as a problem message names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Table(_) => "a table",
            Value::Array(_) => "an array",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a number",
            Value::String(_) => "a string",
            Value::Boolean(_) => "a boolean",
            Value::Other(kind) => kind,
        }
    }
}

impl Node {
    /// The entry `key` of a table node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Table(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Byte offset → 1-based line.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        LineIndex(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }

    fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// Parses TOML text; a syntax error is returned as the one problem (the parser stops there).
pub(crate) fn parse_toml(text: &str) -> Result<Node, Problem> {
    let lines = LineIndex::new(text);
    let doc = toml_edit::Document::parse(text).map_err(|e| Problem {
        line: e.span().map(|s| lines.line(s.start)),
        key: String::new(),
        message: format!("TOML syntax: {}", e.message().trim()),
    })?;
    let root = doc.as_table();
    Ok(Node { value: Value::Table(toml_table(root.iter(), |k| root.key(k).and_then(|k| k.span()), &lines)), line: Some(1) })
}

fn toml_table<'a>(
    entries: impl Iterator<Item = (&'a str, &'a toml_edit::Item)>,
    key_span: impl Fn(&str) -> Option<std::ops::Range<usize>>,
    lines: &LineIndex,
) -> Vec<(String, Node)> {
    entries
        .map(|(k, item)| {
            let mut node = toml_item(item, lines);
            // A key-value pair is best located by its key's line; a [table] by its header.
            if let Some(span) = key_span(k) {
                if !matches!(item, toml_edit::Item::Table(_) | toml_edit::Item::ArrayOfTables(_)) || node.line.is_none() {
                    node.line = Some(lines.line(span.start));
                }
            }
            (k.to_string(), node)
        })
        .collect()
}

fn toml_item(item: &toml_edit::Item, lines: &LineIndex) -> Node {
    use toml_edit::Item;
    let line = item.span().map(|s| lines.line(s.start));
    match item {
        Item::None => Node { value: Value::Other("nothing"), line },
        Item::Value(v) => toml_value(v, lines),
        Item::Table(t) => {
            Node { value: Value::Table(toml_table(t.iter(), |k| t.key(k).and_then(|k| k.span()), lines)), line }
        }
        Item::ArrayOfTables(a) => Node {
            value: Value::Array(
                a.iter()
                    .map(|t| Node {
                        value: Value::Table(toml_table(t.iter(), |k| t.key(k).and_then(|k| k.span()), lines)),
                        line: t.span().map(|s| lines.line(s.start)),
                    })
                    .collect(),
            ),
            line,
        },
    }
}

fn toml_value(v: &toml_edit::Value, lines: &LineIndex) -> Node {
    use toml_edit::Value as V;
    let line = v.span().map(|s| lines.line(s.start));
    let value = match v {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::Integer(*i.value()),
        V::Float(f) => Value::Float(*f.value()),
        V::Boolean(b) => Value::Boolean(*b.value()),
        V::Datetime(_) => Value::Other("a date"),
        V::Array(a) => Value::Array(a.iter().map(|v| toml_value(v, lines)).collect()),
        V::InlineTable(t) => {
            let entries = t
                .iter()
                .map(|(k, v)| {
                    let mut node = toml_value(v, lines);
                    if node.line.is_none() {
                        node.line = t.key(k).and_then(|k| k.span()).map(|s| lines.line(s.start));
                    }
                    (k.to_string(), node)
                })
                .collect();
            Value::Table(entries)
        }
    };
    Node { value, line }
}

/// Parses JSON text; a syntax error is returned as the one problem.
pub(crate) fn parse_json(text: &str) -> Result<Node, Problem> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Problem {
        line: Some(e.line()),
        key: String::new(),
        message: format!("JSON syntax: {e}"),
    })?;
    Ok(json_node(&value))
}

fn json_node(v: &serde_json::Value) -> Node {
    use serde_json::Value as J;
    let value = match v {
        J::Null => Value::Other("null"),
        J::Bool(b) => Value::Boolean(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::String(s.clone()),
        J::Array(a) => Value::Array(a.iter().map(json_node).collect()),
        J::Object(o) => Value::Table(o.iter().map(|(k, v)| (k.clone(), json_node(v))).collect()),
    };
    Node { value, line: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_values_carry_their_lines() {
        let text = "a = 1\n\n[t]\nb = [1.5, 2]\n\n[[list]]\nc = 'x'\n[[list]]\nc = 'y'\n";
        let root = parse_toml(text).unwrap();
        assert_eq!(root.get("a").unwrap().line, Some(1));
        let t = root.get("t").unwrap();
        assert_eq!(t.get("b").unwrap().line, Some(4));
        let Value::Array(list) = &root.get("list").unwrap().value else { panic!("list is an array") };
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].get("c").unwrap().line, Some(9));
    }

    #[test]
    fn syntax_errors_name_their_line() {
        let problem = parse_toml("a = 1\nb = = 2\n").unwrap_err();
        assert_eq!(problem.line, Some(2));
        let problem = parse_json("{\n\"a\": 1,\n\"b\": }").unwrap_err();
        assert_eq!(problem.line, Some(3));
    }
}
