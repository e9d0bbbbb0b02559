//! The searched tree, recorded node by node while alpha-beta runs, for drawing.

use super::alphabeta::Observer;
use super::game::Value;

/// One node as alpha-beta saw it.
#[derive(Clone, Debug, Default)]
pub struct TreeNode {
    /// The move that leads here (empty at the root).
    pub edge: String,
    /// The window the node was entered with.
    pub alpha: Value,
    pub beta: Value,
    pub max: bool,
    /// The value returned; `None` for pruned nodes.
    pub value: Option<Value>,
    pub children: Vec<TreeNode>,
    /// True if the node stopped early; its unsearched moves follow as pruned children.
    pub cutoff: bool,
    /// True for moves never searched because of a cutoff above.
    pub pruned: bool,
}

impl TreeNode {
    /// Nodes in the subtree, pruned stubs included.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(TreeNode::size).sum::<usize>()
    }

    /// Leaves of the drawing (searched leaves and pruned stubs).
    pub fn width(&self) -> usize {
        if self.children.is_empty() {
            1
        } else {
            self.children.iter().map(TreeNode::width).sum()
        }
    }

    pub fn height(&self) -> usize {
        1 + self
            .children
            .iter()
            .map(TreeNode::height)
            .max()
            .unwrap_or(0)
    }

    /// Pruned stubs in the subtree.
    pub fn pruned_count(&self) -> usize {
        usize::from(self.pruned)
            + self
                .children
                .iter()
                .map(TreeNode::pruned_count)
                .sum::<usize>()
    }
}

/// Builds the tree from the observer hooks.
#[derive(Default)]
pub struct Recorder {
    stack: Vec<TreeNode>,
    pending_edge: String,
    root: Option<TreeNode>,
    nodes: usize,
}

impl Recorder {
    /// The recorded tree (after the search finished).
    pub fn into_tree(self) -> Option<TreeNode> {
        self.root
    }

    /// Nodes recorded so far, pruned stubs included.
    pub fn nodes(&self) -> usize {
        self.nodes
    }
}

impl Observer for Recorder {
    const ACTIVE: bool = true;

    fn edge(&mut self, name: String) {
        self.pending_edge = name;
    }

    fn enter(&mut self, alpha: Value, beta: Value, max_node: bool) {
        self.nodes += 1;
        self.stack.push(TreeNode {
            edge: std::mem::take(&mut self.pending_edge),
            alpha,
            beta,
            max: max_node,
            ..TreeNode::default()
        });
    }

    fn leave(&mut self, value: Value) {
        let Some(mut node) = self.stack.pop() else {
            return;
        };
        node.value = Some(value);
        match self.stack.last_mut() {
            Some(parent) => parent.children.push(node),
            None => self.root = Some(node),
        }
    }

    fn cutoff(&mut self, pruned: Vec<String>) {
        self.nodes += pruned.len();
        if let Some(node) = self.stack.last_mut() {
            node.cutoff = true;
            let max = !node.max;
            node.children
                .extend(pruned.into_iter().map(|edge| TreeNode {
                    edge,
                    max,
                    pruned: true,
                    ..TreeNode::default()
                }));
        }
    }
}
