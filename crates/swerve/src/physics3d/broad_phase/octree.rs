//! Octree (seed 003 §3.2.3, "仅递归的将空间划分为相同4块", and §6.1: "四叉树则需要改为八叉树"):
//! **loose**, **rebuilt** every call.
//!
//! *Loose*: in a plain octree a sphere that straddles a split plane must stay in the node above
//! it (or be copied into several children); with thousands of spheres on the root's three split
//! planes, those straddlers are tested against everything below them. A loose octree (Ulrich,
//! *Game Programming Gems* 1, §4.11) gives each node bounds twice its cell's side; a box goes
//! down into the child whose cell holds its centre as long as that child's loose bounds contain
//! the whole box, and is stored at the deepest such node. A box no larger than a child's
//! half-side always fits, so depth follows size, not where the box sits.
//!
//! *Rebuilt*, top-down: every sphere moves every step, so an incremental tree would remove and
//! reinsert nearly every item anyway. A node is split only while it holds more than
//! [`Octree::LEAF_CAPACITY`] boxes, by a counting sort of its boxes into "stays here" and the
//! eight octants, so the tree follows where the boxes are — a pile at the bottom of a tall box
//! is split finely, the empty air above not at all — rather than a depth guessed from the mean
//! density. The nodes and every buffer are reused (no allocation once warm), and the tree never
//! degrades.
//!
//! *Bounded*: splitting stops at [`Octree::MAX_DEPTH`], when no box of a node fits a child
//! (coincident boxes), and before cells shrink to a few ulps of their coordinates — so
//! coincident or zero-size boxes make a short chain of nodes, not a deep one. Nothing recurses:
//! the build and the pair search use explicit stacks.
//!
//! *Pairs*, by a simultaneous descent of the tree against itself (the self-collision walk of
//! bounding-volume hierarchies), with no recursion: a task stack of "all pairs within X" and
//! "all pairs between X and Y". Each node's own boxes count as a ninth child (a leaf), so boxes
//! only sit in leaves: "within a node" pairs its own boxes, crosses each two of its children
//! whose bounds overlap, and recurses into each child; "between X and Y" splits the coarser of
//! the two into its children, down to two leaves whose boxes are tested. A pair of boxes lies
//! in exactly one pair of sibling subtrees, so it is reported once, and subtrees whose bounds
//! do not overlap are never entered. The bounds are the *actual* unions of the boxes (kept per
//! node and per subtree), not the loose bounds: those bound the boxes only up to the rounding
//! of the node centres, while the unions make the pruning exact. (Walking down from the root
//! once per non-empty node, as the planar quadtree does, measured the same within noise on
//! 50,000–100,000 spheres; the simultaneous descent does no walk twice.)

use glam::Vec3A;

use super::{ordered, Bounds, BroadPhase, BroadPhaseKind, Misfits, Pair, Survey};
use crate::physics3d::Aabb3;

const NONE: u32 = u32::MAX;
/// Flag of a task item that stands for a node's own boxes rather than its whole subtree.
const OWN: u32 = 1 << 31;

/// Offsets of the eight children's centres, in units of the child's half-side; child `k` is
/// the octant whose bit 0 (x), 1 (y), 2 (z) is set where the centre is not below the parent's.
const OCTANTS: [Vec3A; 8] = [
    Vec3A::new(-1.0, -1.0, -1.0),
    Vec3A::new(1.0, -1.0, -1.0),
    Vec3A::new(-1.0, 1.0, -1.0),
    Vec3A::new(1.0, 1.0, -1.0),
    Vec3A::new(-1.0, -1.0, 1.0),
    Vec3A::new(1.0, -1.0, 1.0),
    Vec3A::new(-1.0, 1.0, 1.0),
    Vec3A::new(1.0, 1.0, 1.0),
];

#[derive(Clone, Copy, Debug)]
struct Node {
    center: Vec3A,
    /// Half the side of the node's cell; its loose bounds are `center ± 2·half`.
    half: f32,
    depth: u32,
    /// Index of the first of eight consecutive children (octant order), or `NONE`.
    children: u32,
    /// Number of boxes in this node's subtree.
    boxes: u32,
}

impl Node {
    fn new(center: Vec3A, half: f32, depth: u32) -> Node {
        Node { center, half, depth, children: NONE, boxes: 0 }
    }

    /// The loose bounds: the cell doubled about its centre.
    #[inline(always)]
    fn loose(center: Vec3A, half: f32) -> Bounds {
        let h = Vec3A::splat(2.0 * half);
        Bounds { min: center - h, max: center + h }
    }
}

/// Loose octree rebuilt from scratch every call.
#[derive(Debug, Default)]
pub struct Octree {
    nodes: Vec<Node>,
    /// The node of each box, or `NONE` for misfits.
    node_of: Vec<u32>,
    /// `start[n]..start[n + 1]`: node n's boxes in `entries` / `ids`.
    start: Vec<u32>,
    entries: Vec<Bounds>,
    ids: Vec<u32>,
    /// Union of each node's own boxes ([`Bounds::EMPTY`] for none).
    tight: Vec<Bounds>,
    /// Union of the boxes of each node's subtree.
    subtree: Vec<Bounds>,
    /// The descent's stack of tasks (see [`Octree::pairs`]).
    tasks: Vec<(u32, u32)>,
    /// Build scratch: the placeable indices, grouped node by node as the build sorts them;
    /// each one's bucket (octant or "stays"); the counting sort's output; and the nodes still
    /// to split with their runs of `items`.
    items: Vec<u32>,
    bucket: Vec<u8>,
    sorted: Vec<u32>,
    build_stack: Vec<(u32, u32, u32)>,
    misfits: Misfits,
}

impl Octree {
    /// A node holding at most this many boxes is not split: testing them against each other
    /// costs less than eight more nodes to walk, and a walk into a node is shared by its boxes.
    pub const LEAF_CAPACITY: usize = 8;

    /// Depth limit (cells `2^-21` of the root, about `f32`'s precision): bounds the descent
    /// and the tree for degenerate scenes.
    pub const MAX_DEPTH: u32 = 21;

    /// Number of nodes in the tree built by the last call.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Depth of the deepest node built by the last call (0: the root alone).
    pub fn depth(&self) -> u32 {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// Builds the tree top-down from the placeable boxes: a node holding more than
    /// [`Octree::LEAF_CAPACITY`] boxes sorts them (counting sort) into those that stay and the
    /// eight octants of those that fit a child, and its children are built in turn.
    #[inline(never)] // profiled apart from the pair search
    fn build(&mut self, boxes: &[Aabb3], survey: &Survey) {
        self.nodes.clear();
        self.node_of.clear();
        self.node_of.resize(boxes.len(), NONE);
        self.items.clear();
        self.items.extend((0..boxes.len() as u32).filter(|&i| super::is_placeable(&boxes[i as usize])));
        self.bucket.clear();
        self.bucket.resize(self.items.len(), 0);
        self.sorted.clear();
        self.sorted.resize(self.items.len(), 0);
        // Halves first: `min + max` and `max − min` may overflow where the halves do not.
        let (lo, hi) = if survey.placeable == 0 {
            (Vec3A::ZERO, Vec3A::ZERO) // no region: a root that holds nothing
        } else {
            (survey.region.min * 0.5, survey.region.max * 0.5)
        };
        let root_half = (hi - lo).max_element().max(f32::MIN_POSITIVE);
        self.nodes.push(Node::new(lo + hi, root_half, 0));
        self.build_stack.clear();
        self.build_stack.push((0, 0, self.items.len() as u32));
        while let Some((node, first, end)) = self.build_stack.pop() {
            let (node, range) = (node as usize, first as usize..end as usize);
            let nd = self.nodes[node];
            let child_half = 0.5 * nd.half;
            // The last test stops before cells shrink to a few ulps of their coordinates,
            // where child centres would round onto each other (`<=`: also when both are 0).
            let leaf = range.len() <= Self::LEAF_CAPACITY
                || nd.depth >= Self::MAX_DEPTH
                || child_half <= nd.center.abs().max_element() * 1e-5;
            // Bucket 8: stays in this node; 0–7: fits that octant's child.
            let mut count = [0u32; 9];
            if !leaf {
                for k in range.clone() {
                    let b = Bounds::of(&boxes[self.items[k] as usize]);
                    let centre = b.min * 0.5 + b.max * 0.5;
                    let octant = centre.cmpge(nd.center).bitmask() as usize;
                    let loose = Node::loose(nd.center + OCTANTS[octant] * child_half, child_half);
                    let fits = (loose.min.cmple(b.min) & b.max.cmple(loose.max)).all();
                    let bucket = if fits { octant } else { 8 };
                    self.bucket[k] = bucket as u8;
                    count[bucket] += 1;
                }
            }
            if leaf || count[8] as usize == range.len() {
                for &id in &self.items[range] {
                    self.node_of[id as usize] = node as u32;
                }
                continue;
            }
            // Stayers first, then octants 0–7, each a contiguous run of `items`.
            let mut cursor = [0u32; 9];
            let mut at = first;
            for bucket in [8, 0, 1, 2, 3, 4, 5, 6, 7] {
                cursor[bucket] = at;
                at += count[bucket];
            }
            for k in range.clone() {
                let bucket = self.bucket[k] as usize;
                self.sorted[cursor[bucket] as usize] = self.items[k];
                cursor[bucket] += 1;
            }
            self.items[range.clone()].copy_from_slice(&self.sorted[range.clone()]);
            for &id in &self.items[first as usize..(first + count[8]) as usize] {
                self.node_of[id as usize] = node as u32;
            }
            let children = self.nodes.len() as u32;
            for (k, offset) in OCTANTS.iter().enumerate() {
                let index = children + k as u32;
                self.nodes.push(Node::new(nd.center + *offset * child_half, child_half, nd.depth + 1));
                // `cursor[k]` is now the end of octant k's run; it started `count[k]` before.
                if count[k] > 0 {
                    self.build_stack.push((index, cursor[k] - count[k], cursor[k]));
                }
            }
            self.nodes[node].children = children;
        }
    }

    /// Gathers each node's boxes contiguously (counting sort by node) with their unions, and
    /// the subtree unions and box counts bottom-up (children come after their parent).
    #[inline(never)] // profiled apart from the pair search
    fn gather(&mut self, boxes: &[Aabb3]) {
        let node_count = self.nodes.len();
        self.start.clear();
        self.start.resize(node_count + 1, 0);
        for &nd in &self.node_of {
            if nd != NONE {
                self.start[nd as usize + 1] += 1;
            }
        }
        for k in 0..node_count {
            self.start[k + 1] += self.start[k];
        }
        let placed = self.start[node_count] as usize;
        self.entries.clear();
        self.entries.resize(placed, Bounds::EMPTY);
        self.ids.clear();
        self.ids.resize(placed, 0);
        self.tight.clear();
        self.tight.resize(node_count, Bounds::EMPTY);
        // Scatter with `start[n]` as node n's cursor, then shift the starts back one node.
        for (i, &nd) in self.node_of.iter().enumerate() {
            if nd == NONE {
                continue;
            }
            let nd = nd as usize;
            let slot = self.start[nd] as usize;
            let b = Bounds::of(&boxes[i]);
            self.entries[slot] = b;
            self.ids[slot] = i as u32;
            self.tight[nd] = self.tight[nd].union(&b);
            self.start[nd] += 1;
        }
        self.start.copy_within(0..node_count, 1);
        self.start[0] = 0;
        self.subtree.clear();
        self.subtree.extend_from_slice(&self.tight);
        for n in (0..node_count).rev() {
            let mut count = self.start[n + 1] - self.start[n];
            let children = self.nodes[n].children;
            if children != NONE {
                let c = children as usize;
                let mut sub = self.subtree[n];
                for k in c..c + 8 {
                    sub = sub.union(&self.subtree[k]);
                    count += self.nodes[k].boxes;
                }
                self.subtree[n] = sub;
            }
            self.nodes[n].boxes = count;
        }
    }

    /// The simultaneous descent (see the module docs). A task `(a, a)` is "within real node
    /// a"; `(a, b)` is "between a and b", whose bounds are known to overlap; a node index with
    /// [`OWN`] set stands for that node's own boxes.
    #[inline(never)] // profiled apart from the build
    fn pairs(&mut self, pairs: &mut Vec<Pair>) {
        let Octree { nodes, start, entries, ids, tight, subtree, tasks, .. } = self;
        let (nodes, start, entries, ids, tight, subtree) =
            (&nodes[..], &start[..], &entries[..], &ids[..], &tight[..], &subtree[..]);
        let bounds = |x: u32| if x & OWN != 0 { &tight[(x & !OWN) as usize] } else { &subtree[x as usize] };
        let own = |n: usize| start[n] as usize..start[n + 1] as usize;
        // The non-empty parts of real node n: its own boxes, then its non-empty children.
        let parts = |n: usize, out: &mut [u32; 9]| -> usize {
            let mut count = 0;
            if start[n] != start[n + 1] {
                out[0] = n as u32 | OWN;
                count = 1;
            }
            let children = nodes[n].children;
            if children != NONE {
                for c in children..children + 8 {
                    out[count] = c;
                    count += usize::from(nodes[c as usize].boxes != 0);
                }
            }
            count
        };
        tasks.clear();
        if nodes[0].boxes != 0 {
            tasks.push((0, 0));
        }
        let mut kids = [0u32; 9];
        while let Some((a, b)) = tasks.pop() {
            if a == b {
                let n = a as usize;
                let range = own(n);
                for k in range.clone() {
                    for l in k + 1..range.end {
                        if entries[k].overlaps(&entries[l]) {
                            pairs.push(ordered(ids[k], ids[l]));
                        }
                    }
                }
                let count = parts(n, &mut kids);
                for (i, &x) in kids[..count].iter().enumerate() {
                    if x & OWN == 0 {
                        tasks.push((x, x));
                    }
                    for &y in &kids[i + 1..count] {
                        if bounds(x).overlaps(bounds(y)) {
                            tasks.push((x, y));
                        }
                    }
                }
            } else if a & b & OWN != 0 {
                // Two leaves: their boxes, each first against the other leaf's union.
                let (na, nb) = ((a & !OWN) as usize, (b & !OWN) as usize);
                for k in own(na) {
                    let e = &entries[k];
                    if !e.overlaps(&tight[nb]) {
                        continue;
                    }
                    for l in own(nb) {
                        if e.overlaps(&entries[l]) {
                            pairs.push(ordered(ids[k], ids[l]));
                        }
                    }
                }
            } else {
                // Split the coarser real node (a leaf cannot be split).
                let split_a = b & OWN != 0 || (a & OWN == 0 && nodes[a as usize].half >= nodes[b as usize].half);
                let (x, other) = if split_a { (a, b) } else { (b, a) };
                let count = parts(x as usize, &mut kids);
                let other_bounds = bounds(other);
                for &k in &kids[..count] {
                    if bounds(k).overlaps(other_bounds) {
                        tasks.push((k, other));
                    }
                }
            }
        }
    }
}

impl BroadPhase for Octree {
    fn kind(&self) -> BroadPhaseKind {
        BroadPhaseKind::Octree
    }

    fn find_pairs(&mut self, boxes: &[Aabb3], pairs: &mut Vec<Pair>) {
        let survey = Survey::of(boxes, &mut self.misfits);
        self.build(boxes, &survey);
        self.gather(boxes);
        self.pairs(pairs);
        self.misfits.pairs(boxes, pairs);
    }

    fn assert_well_formed(&self, boxes: &[Aabb3]) {
        self.misfits.assert_well_formed(boxes);
        assert_eq!(self.node_of.len(), boxes.len(), "one node (or none) per box");
        let node_count = self.nodes.len();
        assert!(node_count >= 1, "no root");
        assert_eq!(self.nodes[0].depth, 0);
        for (n, nd) in self.nodes.iter().enumerate() {
            assert!(nd.depth <= Self::MAX_DEPTH, "node {n} is deeper than the limit");
            if nd.children != NONE {
                let c = nd.children as usize;
                assert!(c > n && c + 8 <= node_count, "node {n}'s children are out of place");
                for (k, offset) in OCTANTS.iter().enumerate() {
                    let ch = &self.nodes[c + k];
                    assert_eq!(ch.half, nd.half * 0.5, "child {k} of node {n} is not an eighth");
                    assert_eq!(ch.depth, nd.depth + 1);
                    assert_eq!(ch.center, nd.center + *offset * ch.half, "child {k} of node {n} is misplaced");
                }
            }
            let children_boxes: u32 =
                if nd.children == NONE { 0 } else { (0..8).map(|k| self.nodes[nd.children as usize + k].boxes).sum() };
            let own = self.start[n + 1] - self.start[n];
            assert_eq!(nd.boxes, own + children_boxes, "node {n}'s subtree count");
        }
        let mut tight = vec![Bounds::EMPTY; node_count];
        for (i, b) in boxes.iter().enumerate() {
            let nd = self.node_of[i];
            if !super::is_placeable(b) {
                assert_eq!(nd, NONE, "misfit {i} is in the tree");
                continue;
            }
            let node = &self.nodes[nd as usize];
            let bounds = Bounds::of(b);
            tight[nd as usize] = tight[nd as usize].union(&bounds);
            let loose = Node::loose(node.center, node.half);
            if nd != 0 {
                // Checked exactly on descent (the root's loose bounds hold the region up to
                // the rounding of its centre, and the root takes every box anyway).
                assert!(
                    loose.min.cmple(bounds.min).all() && bounds.max.cmple(loose.max).all(),
                    "box {i} sticks out of node {nd}'s loose bounds"
                );
            }
            let range = self.start[nd as usize] as usize..self.start[nd as usize + 1] as usize;
            assert!(self.ids[range].contains(&(i as u32)), "box {i} is not listed in its node {nd}");
        }
        assert_eq!(self.ids.len(), boxes.len() - self.misfits.len(), "each placed box listed once");
        for n in (0..node_count).rev() {
            assert_eq!(self.tight[n], tight[n], "node {n}'s union is stale");
            let mut sub = tight[n];
            if self.nodes[n].children != NONE {
                for c in self.nodes[n].children..self.nodes[n].children + 8 {
                    sub = sub.union(&self.subtree[c as usize]);
                }
            }
            assert_eq!(self.subtree[n], sub, "node {n}'s subtree union is stale");
        }
    }
}
