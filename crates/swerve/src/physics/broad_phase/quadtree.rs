//! Quadtree (seed 003 §3.2.3: "仅递归的将空间划分为相同4块"): **loose**, **rebuilt** every step.
//!
//! *Loose*: in a plain quadtree a ball that straddles a split line must stay in the node above
//! it (or be copied into several children); with thousands of balls on the root's two split
//! lines, those straddlers are tested against everything below them. A loose quadtree (Ulrich,
//! *Game Programming Gems* 1, §4.11) gives each node bounds twice its cell's side, so a box goes
//! to the deepest node whose cell contains its *centre* and whose half-side is at least the
//! box's half-side: its depth depends only on its size, never on where it sits.
//!
//! *Rebuilt*: every ball moves every step, so an incremental tree would remove and reinsert
//! nearly every item anyway; rebuilding is one descent per ball into an arena whose nodes are
//! reused (no allocation once warm), and it never degrades.
//!
//! Pairs: each non-empty node walks down from the root with the union of its boxes into every
//! node whose loose bounds overlap it, and is tested against the nodes after it (so each pair
//! is reported once). Descent stops where cells would hold fewer than
//! [`Quadtree::BOXES_PER_LEAF`] boxes on average, so a descent is shared by several boxes.

use glam::Vec2;

use super::{ordered, overlap, union_of, BroadPhase, BroadPhaseDebug, BroadPhaseKind, DebugBoxKind, Pair};
use crate::geom::Aabb;

const NONE: u32 = u32::MAX;
/// Depth limit (cells `2^-20` of the root): bounds the descent for degenerate scenes.
const MAX_DEPTH: u32 = 20;

#[derive(Clone, Copy, Debug)]
struct Node {
    center: Vec2,
    /// Half the side of the node's cell; its loose bounds are `center ± 2·half`.
    half: f32,
    depth: u32,
    /// Index of the first of four consecutive children (quadrant `x + 2y`), or `NONE`.
    children: u32,
    /// First item of the node's intrusive list (`next` links the rest), or `NONE`.
    first: u32,
}

impl Node {
    fn loose(&self) -> Aabb {
        let h = Vec2::splat(2.0 * self.half);
        Aabb { min: self.center - h, max: self.center + h }
    }
}

/// Loose quadtree rebuilt from scratch every step.
#[derive(Debug, Default)]
pub struct Quadtree {
    nodes: Vec<Node>,
    next: Vec<u32>,
    node_of: Vec<u32>,
    stack: Vec<u32>,
    /// `start[n]..start[n + 1]`: node n's boxes in `entries`.
    start: Vec<u32>,
    cursor: Vec<u32>,
    entries: Vec<(Aabb, u32)>,
    /// Union of each node's boxes (empty box for nodes without boxes).
    tight: Vec<Aabb>,
}

impl Quadtree {
    /// Target mean number of boxes per leaf cell (stops the descent).
    pub const BOXES_PER_LEAF: f32 = 4.0;

    /// Number of nodes in the tree built by the last call.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
}

impl BroadPhase for Quadtree {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::Quadtree
    }

    fn find_pairs(&mut self, boxes: &[Aabb], pairs: &mut Vec<Pair>) {
        let region = union_of(boxes);
        let size = region.max - region.min;
        let n = boxes.len().max(1) as f32;
        let min_half = 0.5 * (size.x * size.y * Self::BOXES_PER_LEAF / n).sqrt();
        self.nodes.clear();
        self.nodes.push(Node {
            center: (region.min + region.max) * 0.5,
            half: 0.5 * size.max_element().max(f32::MIN_POSITIVE),
            depth: 0,
            children: NONE,
            first: NONE,
        });
        self.next.clear();
        self.next.resize(boxes.len(), NONE);
        self.node_of.clear();
        for (i, b) in boxes.iter().enumerate() {
            let c = (b.min + b.max) * 0.5;
            let q = 0.5 * (b.max - b.min).max_element();
            let mut node = 0usize;
            loop {
                let nd = self.nodes[node];
                let child_half = 0.5 * nd.half;
                // The last test stops before cells shrink to a few ulps of their coordinates,
                // where child centres would round (zero-area scenes would otherwise descend).
                if nd.depth >= MAX_DEPTH
                    || q > child_half
                    || child_half < min_half
                    || child_half < nd.center.abs().max_element() * 1e-5
                {
                    break;
                }
                if nd.children == NONE {
                    let first = self.nodes.len() as u32;
                    for k in 0..4 {
                        let offset =
                            Vec2::new(if k & 1 == 1 { 1.0 } else { -1.0 }, if k & 2 == 2 { 1.0 } else { -1.0 });
                        self.nodes.push(Node {
                            center: nd.center + offset * child_half,
                            half: child_half,
                            depth: nd.depth + 1,
                            children: NONE,
                            first: NONE,
                        });
                    }
                    self.nodes[node].children = first;
                }
                let quadrant = usize::from(c.x >= nd.center.x) + 2 * usize::from(c.y >= nd.center.y);
                node = self.nodes[node].children as usize + quadrant;
            }
            self.next[i] = self.nodes[node].first;
            self.nodes[node].first = i as u32;
            self.node_of.push(node as u32);
        }
        // Gather each node's boxes contiguously (counting sort by node) with their union.
        let node_count = self.nodes.len();
        self.start.clear();
        self.start.resize(node_count + 1, 0);
        for &nd in &self.node_of {
            self.start[nd as usize + 1] += 1;
        }
        for k in 0..node_count {
            self.start[k + 1] += self.start[k];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.start[..node_count]);
        self.entries.clear();
        self.entries.resize(boxes.len(), (union_of(&[]), 0));
        self.tight.clear();
        self.tight.resize(node_count, Aabb { min: Vec2::splat(f32::INFINITY), max: Vec2::splat(f32::NEG_INFINITY) });
        for (i, b) in boxes.iter().enumerate() {
            let nd = self.node_of[i] as usize;
            self.entries[self.cursor[nd] as usize] = (*b, i as u32);
            self.cursor[nd] += 1;
            let t = &mut self.tight[nd];
            t.min = t.min.min(b.min);
            t.max = t.max.max(b.max);
        }
        // One descent per non-empty node with the union of its boxes; a node M reached with
        // M ≥ N is tested against N (M = N: pairs within). Any overlapping pair (i in N, j in
        // M) has overlapping unions, and every ancestor's loose bounds contain M's union, so
        // the descent from min(N, M) reaches the other.
        for n in 0..node_count {
            let own = self.start[n] as usize..self.start[n + 1] as usize;
            if own.is_empty() {
                continue;
            }
            let query = self.tight[n];
            self.stack.clear();
            self.stack.push(0);
            while let Some(m) = self.stack.pop() {
                let md = &self.nodes[m as usize];
                if !overlap(&md.loose(), &query) {
                    continue;
                }
                if md.children != NONE {
                    self.stack.extend(md.children..md.children + 4);
                }
                let m = m as usize;
                if m < n || !overlap(&self.tight[m], &query) {
                    continue;
                }
                let other = self.start[m] as usize..self.start[m + 1] as usize;
                for k in own.clone() {
                    let (a, i) = self.entries[k];
                    let from = if m == n { k + 1 } else { other.start };
                    for &(b, j) in &self.entries[from..other.end] {
                        if overlap(&a, &b) {
                            pairs.push(ordered(i, j));
                        }
                    }
                }
            }
        }
    }

    fn assert_well_formed(&self, boxes: &[Aabb]) {
        assert_eq!(self.node_of.len(), boxes.len(), "every box is in the tree");
        let mut count = vec![0usize; self.nodes.len()];
        for (n, nd) in self.nodes.iter().enumerate() {
            let mut j = nd.first;
            while j != NONE {
                assert_eq!(self.node_of[j as usize] as usize, n, "box {j} listed in the wrong node");
                count[n] += 1;
                j = self.next[j as usize];
            }
            if nd.children != NONE {
                for k in 0..4 {
                    let ch = &self.nodes[nd.children as usize + k];
                    assert_eq!(ch.half, nd.half * 0.5, "child {k} of node {n} is not a quarter");
                    assert_eq!(ch.depth, nd.depth + 1);
                    let d = ch.center - nd.center;
                    let tol = ch.half * 1e-3;
                    assert!((d.x.abs() - ch.half).abs() <= tol, "child {k} of node {n} is misplaced");
                    assert!((d.y.abs() - ch.half).abs() <= tol, "child {k} of node {n} is misplaced");
                }
            }
        }
        assert_eq!(count.iter().sum::<usize>(), boxes.len(), "each box listed exactly once");
        for (i, b) in boxes.iter().enumerate() {
            let nd = &self.nodes[self.node_of[i] as usize];
            let loose = nd.loose();
            let slack = Vec2::splat(nd.half * 1e-4);
            assert!(
                (loose.min - slack).cmple(b.min).all() && b.max.cmple(loose.max + slack).all(),
                "box {i} sticks out of its node's loose bounds"
            );
        }
    }

    fn debug_boxes(&self, out: &mut BroadPhaseDebug) {
        for nd in &self.nodes {
            if nd.first != NONE || nd.children != NONE {
                out.layer(DebugBoxKind::QuadtreeNode, nd.depth).push(nd.loose());
            }
        }
    }
}
