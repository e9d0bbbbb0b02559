//! Game trees written out as text, as in textbooks: `max(min(3,5),min(2,1))`.
//!
//! Grammar: `node := [label ':'] ( ('max'|'min') '(' node (',' node)* ')' | integer )`.
//! Labels (letters and digits) name the move that leads to a node, so a tree
//! can be drawn with the book's node names: `A:max(B:min(3,5),C:min(2,1))`.

use super::game::{Game, Value};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Max,
    Min,
    Leaf(Value),
}

#[derive(Clone, Debug)]
struct Node {
    kind: Kind,
    label: Option<String>,
    children: Vec<usize>,
}

/// A parsed tree and the path from its root to the current node.
#[derive(Clone, Debug)]
pub struct ExplicitTree {
    nodes: Vec<Node>,
    path: Vec<usize>,
}

impl ExplicitTree {
    /// Parses a tree; errors name the byte offset of the problem.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            at: 0,
            nodes: Vec::new(),
            depth: 0,
        };
        let root = p.node()?;
        p.skip_space();
        if p.at != p.s.len() {
            return Err(p.error("unexpected text after the tree"));
        }
        // The parser appends children before parents; the root is last.
        Ok(Self {
            nodes: p.nodes,
            path: vec![root],
        })
    }

    /// Number of edges on the longest root-to-leaf path.
    pub fn height(&self) -> u32 {
        fn h(t: &ExplicitTree, n: usize) -> u32 {
            let c = &t.nodes[n].children;
            c.iter().map(|&k| 1 + h(t, k)).max().unwrap_or(0)
        }
        h(self, self.path[0])
    }

    /// Number of leaves in the whole tree.
    pub fn leaf_count(&self) -> u64 {
        self.nodes.iter().filter(|n| n.children.is_empty()).count() as u64
    }

    /// The root's label, if the text gave one.
    pub fn root_label(&self) -> Option<&str> {
        self.nodes[self.path[0]].label.as_deref()
    }

    /// The root's node id (ids below are for [`Self::children_of`] and co.).
    pub fn root(&self) -> usize {
        self.path[0]
    }

    /// A node's children, in move order.
    pub fn children_of(&self, node: usize) -> &[usize] {
        &self.nodes[node].children
    }

    /// A node's label, if the text gave one.
    pub fn label_of(&self, node: usize) -> Option<&str> {
        self.nodes[node].label.as_deref()
    }

    /// True for a `max(...)` node.
    pub fn is_max(&self, node: usize) -> bool {
        self.nodes[node].kind == Kind::Max
    }

    /// A leaf's value as written (`None` for max/min nodes).
    pub fn leaf_value(&self, node: usize) -> Option<Value> {
        match self.nodes[node].kind {
            Kind::Leaf(v) => Some(v),
            _ => None,
        }
    }

    fn current(&self) -> &Node {
        &self.nodes[*self.path.last().expect("path holds the root")]
    }
}

impl Game for ExplicitTree {
    type Move = usize;

    fn moves(&mut self) -> Vec<usize> {
        self.current().children.clone()
    }

    fn is_over(&mut self) -> bool {
        self.current().children.is_empty()
    }

    /// Leaves carry their value; an inner node cut by a depth limit has none
    /// and counts as 0.
    fn evaluate(&mut self) -> Value {
        match self.current().kind {
            Kind::Leaf(v) => v,
            _ => 0,
        }
    }

    fn max_to_move(&self) -> bool {
        self.current().kind == Kind::Max
    }

    fn play(&mut self, mv: usize) {
        self.path.push(mv);
    }

    fn undo(&mut self) {
        if self.path.len() > 1 {
            self.path.pop();
        }
    }

    fn move_name(&mut self, mv: usize) -> String {
        let node = &self.nodes[mv];
        if let Some(l) = &node.label {
            return l.clone();
        }
        let index = self.current().children.iter().position(|&c| c == mv);
        index.map_or_else(String::new, |i| (i + 1).to_string())
    }
}

/// Deepest nesting accepted: keeps recursion bounded on hostile input.
const MAX_NESTING: usize = 200;

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    nodes: Vec<Node>,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("tree text, byte {}: {what}", self.at)
    }

    fn skip_space(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn word(&mut self) -> &str {
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.s[start..self.at]).unwrap_or("")
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        self.skip_space();
        if self.s.get(self.at) == Some(&c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", c as char)))
        }
    }

    fn node(&mut self) -> Result<usize, String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error("tree nested too deeply"));
        }
        self.skip_space();
        let mut word = self.word().to_string();
        self.skip_space();
        let mut label = None;
        if self.s.get(self.at) == Some(&b':') {
            self.at += 1;
            self.skip_space();
            label = Some(word);
            word = self.word().to_string();
        }
        let node = match word.to_ascii_lowercase().as_str() {
            "max" | "min" => {
                let kind = if word.eq_ignore_ascii_case("max") {
                    Kind::Max
                } else {
                    Kind::Min
                };
                let children = self.children()?;
                Node {
                    kind,
                    label,
                    children,
                }
            }
            "" => return Err(self.error("expected max(...), min(...) or a number")),
            w => {
                let v: Value = w
                    .parse()
                    .map_err(|_| self.error(&format!("'{w}' is not max, min or a number")))?;
                if v.checked_abs().is_none_or(|a| a >= 1_000_000_000) {
                    return Err(self.error("leaf value out of range"));
                }
                Node {
                    kind: Kind::Leaf(v),
                    label,
                    children: Vec::new(),
                }
            }
        };
        self.depth -= 1;
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    fn children(&mut self) -> Result<Vec<usize>, String> {
        self.expect(b'(')?;
        let mut out = vec![self.node()?];
        loop {
            self.skip_space();
            match self.s.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    out.push(self.node()?);
                }
                Some(b')') => {
                    self.at += 1;
                    return Ok(out);
                }
                _ => return Err(self.error("expected ',' or ')'")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_labels_and_shape() {
        let t = ExplicitTree::parse(" A: max( B:min(3, 5) , min(-2,1))").unwrap();
        assert_eq!(t.height(), 2);
        assert_eq!(t.leaf_count(), 4);
        assert_eq!(t.root_label(), Some("A"));
    }

    #[test]
    fn rejects_bad_text_with_a_position() {
        for bad in [
            "",
            "max(",
            "max()",
            "max(1,",
            "foo(1)",
            "max(1) 2",
            "min(1;2)",
            "9999999999",
        ] {
            let e = ExplicitTree::parse(bad).unwrap_err();
            assert!(e.contains("byte"), "{bad}: {e}");
        }
        let deep = "max(".repeat(1000) + "1" + &")".repeat(1000);
        assert!(ExplicitTree::parse(&deep).is_err());
    }
}
