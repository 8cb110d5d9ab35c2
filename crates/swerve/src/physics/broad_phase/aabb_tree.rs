//! Dynamic AABB tree, as in Box2D (`b2DynamicTree`, Erin Catto; after Presson's bullet
//! `btDbvt`): a binary tree of boxes whose leaves hold *fat* boxes (the ball's box grown by a
//! margin), updated incrementally.
//!
//! * A leaf is touched only when its ball's box leaves the fat box: it is removed and
//!   reinserted with a new fat box. Slowly moving balls cost nothing most steps.
//! * Insertion descends towards the sibling that least increases the total perimeter (Box2D's
//!   surface-area heuristic in 2-D), then walks back up refitting boxes and applying AVL-style
//!   rotations (`balance`) so the height stays logarithmic.
//! * Pairs: Box2D queries the tree once per moved proxy and keeps a persistent pair set; the
//!   world here wants every overlapping pair each step, so the tree is collided with itself
//!   (a simultaneous descent of node pairs, as in bullet's `btDbvt::collideTT`), and leaf pairs
//!   are reported when their *tight* boxes overlap. A fat box contains its tight box, so no
//!   overlapping pair can be pruned away.

use glam::Vec2;

use super::{ordered, overlap, BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, Pair};
use crate::geom::Aabb;

const NULL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    aabb: Aabb,
    /// Parent, or the next free node while on the free list.
    parent: u32,
    child1: u32,
    child2: u32,
    /// Leaf = 0; free node = −1.
    height: i32,
    /// The ball of a leaf.
    item: u32,
}

impl Node {
    fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

fn combine(a: &Aabb, b: &Aabb) -> Aabb {
    Aabb { min: a.min.min(b.min), max: a.max.max(b.max) }
}

fn perimeter(a: &Aabb) -> f32 {
    let d = a.max - a.min;
    2.0 * (d.x + d.y)
}

/// Box2D's dynamic AABB tree with fat leaves and incremental updates.
#[derive(Debug)]
pub struct DynamicAabbTree {
    nodes: Vec<Node>,
    root: u32,
    free: u32,
    leaf_of: Vec<u32>,
    pair_stack: Vec<(u32, u32)>,
    /// Fat margin as a fraction of the box's larger side.
    margin: f32,
    reinserted: usize,
}

impl Default for DynamicAabbTree {
    fn default() -> Self {
        DynamicAabbTree::with_margin(Self::DEFAULT_MARGIN)
    }
}

impl DynamicAabbTree {
    /// Default fat margin: a quarter of the box's side on each side.
    pub const DEFAULT_MARGIN: f32 = 0.25;

    /// A tree whose fat boxes are grown by `margin ×` the box's larger side.
    pub fn with_margin(margin: f32) -> Self {
        DynamicAabbTree {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaf_of: Vec::new(),
            pair_stack: Vec::new(),
            margin: if margin.is_finite() && margin >= 0.0 { margin } else { Self::DEFAULT_MARGIN },
            reinserted: 0,
        }
    }

    /// Leaves removed and reinserted by the last call (their ball left its fat box).
    pub fn last_reinserted(&self) -> usize {
        self.reinserted
    }

    /// Height of the tree (0 for a single leaf; −1 when empty).
    pub fn height(&self) -> i32 {
        if self.root == NULL {
            -1
        } else {
            self.nodes[self.root as usize].height
        }
    }

    fn fat(&self, b: &Aabb) -> Aabb {
        let m = Vec2::splat(self.margin * (b.max - b.min).max_element());
        Aabb { min: b.min - m, max: b.max + m }
    }

    fn allocate(&mut self) -> u32 {
        if self.free != NULL {
            let id = self.free;
            self.free = self.nodes[id as usize].parent;
            id
        } else {
            let zero = Aabb { min: Vec2::ZERO, max: Vec2::ZERO };
            self.nodes.push(Node { aabb: zero, parent: NULL, child1: NULL, child2: NULL, height: 0, item: NULL });
            (self.nodes.len() - 1) as u32
        }
    }

    fn release(&mut self, id: u32) {
        let n = &mut self.nodes[id as usize];
        n.parent = self.free;
        n.height = -1;
        n.child1 = NULL;
        n.child2 = NULL;
        self.free = id;
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = self.nodes[index as usize];
            let area = perimeter(&node.aabb);
            let combined = perimeter(&combine(&node.aabb, &leaf_box));
            let cost = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let child_cost = |c: u32| {
                let cn = &self.nodes[c as usize];
                let merged = perimeter(&combine(&leaf_box, &cn.aabb));
                if cn.is_leaf() {
                    merged + inheritance
                } else {
                    merged - perimeter(&cn.aabb) + inheritance
                }
            };
            let (cost1, cost2) = (child_cost(node.child1), child_cost(node.child2));
            if cost < cost1 && cost < cost2 {
                break;
            }
            index = if cost1 < cost2 { node.child1 } else { node.child2 };
        }
        let sibling = index;
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate();
        let sib = self.nodes[sibling as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: combine(&leaf_box, &sib.aabb),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: sib.height + 1,
            item: NULL,
        };
        if old_parent != NULL {
            let p = &mut self.nodes[old_parent as usize];
            if p.child1 == sibling {
                p.child1 = new_parent;
            } else {
                p.child2 = new_parent;
            }
        } else {
            self.root = new_parent;
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_upwards(new_parent);
    }

    /// Walks from `index` to the root, balancing and refitting boxes and heights.
    fn refit_upwards(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            let n = self.nodes[index as usize];
            let (c1, c2) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
            let node = &mut self.nodes[index as usize];
            node.height = 1 + c1.height.max(c2.height);
            node.aabb = combine(&c1.aabb, &c2.aabb);
            index = node.parent;
        }
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let grand = p.parent;
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        if grand != NULL {
            let g = &mut self.nodes[grand as usize];
            if g.child1 == parent {
                g.child1 = sibling;
            } else {
                g.child2 = sibling;
            }
            self.nodes[sibling as usize].parent = grand;
            self.release(parent);
            self.refit_upwards(grand);
        } else {
            self.root = sibling;
            self.nodes[sibling as usize].parent = NULL;
            self.release(parent);
        }
    }

    /// Box2D's `Balance`: if `a`'s subtrees differ in height by more than one, rotate the
    /// taller child up. Returns the index of the subtree's new root.
    fn balance(&mut self, ia: u32) -> u32 {
        let a = self.nodes[ia as usize];
        if a.is_leaf() || a.height < 2 {
            return ia;
        }
        let (ib, ic) = (a.child1, a.child2);
        let (b, c) = (self.nodes[ib as usize], self.nodes[ic as usize]);
        let balance = c.height - b.height;
        if balance > 1 {
            self.rotate_up(ia, ic, ib, false)
        } else if balance < -1 {
            self.rotate_up(ia, ib, ic, true)
        } else {
            ia
        }
    }

    /// Rotates child `iup` of `ia` above it; `istay` is `ia`'s other child. `up_is_child1`
    /// says which slot of `ia` `iup` occupied.
    fn rotate_up(&mut self, ia: u32, iup: u32, istay: u32, up_is_child1: bool) -> u32 {
        let up = self.nodes[iup as usize];
        let (i_f, i_g) = (up.child1, up.child2);
        let (f, g) = (self.nodes[i_f as usize], self.nodes[i_g as usize]);
        let a_parent = self.nodes[ia as usize].parent;
        // `up` takes `a`'s place.
        self.nodes[iup as usize].child1 = ia;
        self.nodes[iup as usize].parent = a_parent;
        self.nodes[ia as usize].parent = iup;
        if a_parent != NULL {
            let p = &mut self.nodes[a_parent as usize];
            if p.child1 == ia {
                p.child1 = iup;
            } else {
                p.child2 = iup;
            }
        } else {
            self.root = iup;
        }
        // The taller grandchild stays under `up`; the shorter moves under `a`.
        let (keep, keep_node, give, give_node) = if f.height > g.height { (i_f, f, i_g, g) } else { (i_g, g, i_f, f) };
        self.nodes[iup as usize].child2 = keep;
        if up_is_child1 {
            self.nodes[ia as usize].child1 = give;
        } else {
            self.nodes[ia as usize].child2 = give;
        }
        self.nodes[give as usize].parent = ia;
        let stay = self.nodes[istay as usize];
        let a_box = combine(&stay.aabb, &give_node.aabb);
        let a_height = 1 + stay.height.max(give_node.height);
        self.nodes[ia as usize].aabb = a_box;
        self.nodes[ia as usize].height = a_height;
        self.nodes[iup as usize].aabb = combine(&a_box, &keep_node.aabb);
        self.nodes[iup as usize].height = 1 + a_height.max(keep_node.height);
        iup
    }

    fn validate_subtree(&self, index: u32, boxes: &[Aabb], leaves: &mut usize) -> i32 {
        let n = &self.nodes[index as usize];
        if n.is_leaf() {
            assert_eq!(n.child2, NULL, "leaf {index} has one child");
            assert_eq!(n.height, 0, "leaf {index} has height {}", n.height);
            assert_eq!(self.leaf_of[n.item as usize], index, "leaf {index} is not its ball's leaf");
            assert!(n.aabb.contains(&boxes[n.item as usize]), "ball {} left its fat box", n.item);
            *leaves += 1;
            return 0;
        }
        for c in [n.child1, n.child2] {
            assert_eq!(self.nodes[c as usize].parent, index, "child {c} does not point back to {index}");
        }
        let h1 = self.validate_subtree(n.child1, boxes, leaves);
        let h2 = self.validate_subtree(n.child2, boxes, leaves);
        assert_eq!(n.height, 1 + h1.max(h2), "node {index} has a wrong height");
        let expect = combine(&self.nodes[n.child1 as usize].aabb, &self.nodes[n.child2 as usize].aabb);
        assert_eq!(n.aabb, expect, "node {index}'s box is not the union of its children's");
        n.height
    }
}

impl BroadPhase for DynamicAabbTree {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::DynamicAabbTree
    }

    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        self.reinserted = 0;
        for (i, b) in boxes.iter().enumerate() {
            if i >= self.leaf_of.len() {
                let leaf = self.allocate();
                let fat = self.fat(b);
                self.nodes[leaf as usize] =
                    Node { aabb: fat, parent: NULL, child1: NULL, child2: NULL, height: 0, item: i as u32 };
                self.leaf_of.push(leaf);
                self.insert_leaf(leaf);
                continue;
            }
            let leaf = self.leaf_of[i];
            if !self.nodes[leaf as usize].aabb.contains(b) {
                self.remove_leaf(leaf);
                self.nodes[leaf as usize].aabb = self.fat(b);
                self.insert_leaf(leaf);
                self.reinserted += 1;
            }
        }
        if self.root == NULL {
            return;
        }
        // Self-collision of the tree: a node against itself expands into its two children
        // against themselves and against each other; two nodes whose boxes overlap expand the
        // larger. Every overlapping leaf pair is reached exactly once, and disjoint subtrees
        // are pruned as a whole: far cheaper than one root-to-leaf query per ball.
        self.pair_stack.clear();
        self.pair_stack.push((self.root, self.root));
        while let Some((a, b)) = self.pair_stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            if a == b {
                if !na.is_leaf() {
                    self.pair_stack.push((na.child1, na.child1));
                    self.pair_stack.push((na.child2, na.child2));
                    self.pair_stack.push((na.child1, na.child2));
                }
                continue;
            }
            if !overlap(&na.aabb, &nb.aabb) {
                continue;
            }
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => {
                    let (i, j) = (na.item, nb.item);
                    if overlap(&boxes[i as usize], &boxes[j as usize]) {
                        pairs.push(ordered(i, j));
                    }
                }
                (false, true) => {
                    self.pair_stack.push((na.child1, b));
                    self.pair_stack.push((na.child2, b));
                }
                (true, false) => {
                    self.pair_stack.push((a, nb.child1));
                    self.pair_stack.push((a, nb.child2));
                }
                (false, false) => {
                    if perimeter(&na.aabb) >= perimeter(&nb.aabb) {
                        self.pair_stack.push((na.child1, b));
                        self.pair_stack.push((na.child2, b));
                    } else {
                        self.pair_stack.push((a, nb.child1));
                        self.pair_stack.push((a, nb.child2));
                    }
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb]) {
        assert_eq!(self.leaf_of.len(), boxes.len(), "one leaf per box");
        let mut leaves = 0;
        if self.root != NULL {
            assert_eq!(self.nodes[self.root as usize].parent, NULL, "root has a parent");
            self.validate_subtree(self.root, boxes, &mut leaves);
        }
        assert_eq!(leaves, boxes.len(), "leaf count");
        let mut free = 0;
        let mut f = self.free;
        while f != NULL {
            assert_eq!(self.nodes[f as usize].height, -1, "free node {f} is in use");
            free += 1;
            f = self.nodes[f as usize].parent;
        }
        let used = if boxes.is_empty() { 0 } else { 2 * boxes.len() - 1 };
        assert_eq!(free + used, self.nodes.len(), "nodes are either free or in the tree");
    }

    fn debug_boxes(&self, out: &mut BroadPhaseDebug) {
        if self.root == NULL {
            return;
        }
        let mut stack = vec![(self.root, 0u32)];
        while let Some((index, depth)) = stack.pop() {
            let n = &self.nodes[index as usize];
            out.layer(DebugBoxKind::TreeNode, depth).push(n.aabb);
            if !n.is_leaf() {
                stack.push((n.child1, depth + 1));
                stack.push((n.child2, depth + 1));
            }
        }
    }
}
