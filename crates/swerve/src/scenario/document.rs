//! A parsed scenario file as a tree of values that remember their line, so that every problem
//! found later can name where it is. TOML keeps spans (toml_edit). serde_json keeps none, so
//! JSON is checked by serde_json and then walked by a small scanner that notes lines.

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

/// Parses text in `format`; a syntax error is returned as the one problem.
pub(crate) fn parse(text: &str, format: super::Format) -> Result<Node, Problem> {
    match format {
        super::Format::Toml => parse_toml(text),
        super::Format::Json => parse_json(text),
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
    Ok(Node {
        value: Value::Table(toml_table(root.iter(), |k| root.key(k).and_then(|k| k.span()), &lines)),
        line: Some(1),
    })
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
                if !matches!(item, toml_edit::Item::Table(_) | toml_edit::Item::ArrayOfTables(_)) || node.line.is_none()
                {
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
    // serde_json decides validity (and its message and line); the scanner below then only
    // ever sees valid JSON.
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| Problem {
        line: Some(e.line()),
        key: String::new(),
        message: format!("JSON syntax: {e}"),
    })?;
    let mut scanner = JsonScanner { text, pos: 0, line: 1 };
    Ok(scanner.value())
}

/// Walks valid JSON, building nodes with the line each value (or its key) starts on.
struct JsonScanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl JsonScanner<'_> {
    fn peek(&self) -> u8 {
        self.text.as_bytes().get(self.pos).copied().unwrap_or(b' ')
    }

    fn skip_whitespace(&mut self) {
        while let Some(&b) = self.text.as_bytes().get(self.pos) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    /// A string token, decoded by serde_json (escapes included).
    fn string(&mut self) -> String {
        let start = self.pos;
        self.pos += 1;
        while self.pos < self.text.len() {
            match self.text.as_bytes()[self.pos] {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    break;
                }
                _ => self.pos += 1,
            }
        }
        serde_json::from_str(&self.text[start..self.pos]).unwrap_or_default()
    }

    fn value(&mut self) -> Node {
        self.skip_whitespace();
        let line = Some(self.line);
        let value = match self.peek() {
            b'{' => {
                self.pos += 1;
                let mut entries = Vec::new();
                loop {
                    self.skip_whitespace();
                    match self.peek() {
                        b'}' => {
                            self.pos += 1;
                            break;
                        }
                        b',' => self.pos += 1,
                        _ => {
                            let key_line = self.line;
                            let key = self.string();
                            self.skip_whitespace();
                            self.pos += 1; // the ':'
                            let mut node = self.value();
                            // Like TOML, a key-value pair is located at its key.
                            node.line = Some(key_line);
                            entries.push((key, node));
                        }
                    }
                }
                Value::Table(entries)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_whitespace();
                    match self.peek() {
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        b',' => self.pos += 1,
                        _ => items.push(self.value()),
                    }
                }
                Value::Array(items)
            }
            b'"' => Value::String(self.string()),
            _ => {
                let start = self.pos;
                while self.pos < self.text.len()
                    && !matches!(self.peek(), b',' | b']' | b'}' | b' ' | b'\n' | b'\t' | b'\r')
                {
                    self.pos += 1;
                }
                match &self.text[start..self.pos] {
                    "true" => Value::Boolean(true),
                    "false" => Value::Boolean(false),
                    "null" => Value::Other("null"),
                    number => match number.parse::<i64>() {
                        Ok(i) => Value::Integer(i),
                        Err(_) => Value::Float(number.parse::<f64>().unwrap_or(f64::NAN)),
                    },
                }
            }
        };
        Node { value, line }
    }
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

    #[test]
    fn json_values_carry_their_lines_and_decode_like_serde_json() {
        let text = "{\n  \"a\": 1,\n  \"t\": {\"b\": [1.5, -2e3, true, null],\n  \"s\\\"q\": \"x\\u00e9\\n\"},\n  \"list\": [\n {\"c\": 9007199254740993}\n ]\n}";
        let root = parse_json(text).unwrap();
        assert_eq!(root.get("a").unwrap().line, Some(2));
        let t = root.get("t").unwrap();
        assert_eq!(t.line, Some(3));
        let Value::Array(b) = &t.get("b").unwrap().value else { panic!("b is an array") };
        assert!(matches!(b[0].value, Value::Float(x) if x == 1.5));
        assert!(matches!(b[1].value, Value::Float(x) if x == -2000.0));
        assert!(matches!(b[2].value, Value::Boolean(true)));
        assert!(matches!(b[3].value, Value::Other("null")));
        let s = t.get("s\"q").unwrap();
        assert_eq!(s.line, Some(4));
        assert!(matches!(&s.value, Value::String(v) if v == "x\u{e9}\n"));
        let Value::Array(list) = &root.get("list").unwrap().value else { panic!("list is an array") };
        assert_eq!(list[0].line, Some(6));
        assert!(matches!(list[0].get("c").unwrap().value, Value::Integer(9007199254740993)));
    }
}
