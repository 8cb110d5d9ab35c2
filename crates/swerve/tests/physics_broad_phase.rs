//! Every broad phase against the brute-force oracle on random scenes, over several steps of
//! motion (the incremental ones keep state), with `assert_well_formed` after each call.

use std::collections::HashSet;

use glam::Vec2;
use proptest::prelude::*;
use swerve::geom::Aabb;
use swerve::physics::broad_phase::{BroadPhase, BruteForce};
use swerve::physics::BroadPhaseKind;

/// Deterministic scene generator (SplitMix64), so a failing case is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Centres uniform in a square, equal-ish radii.
    Uniform,
    /// A few tight clusters (many overlaps, a skewed axis).
    Clustered,
    /// Radii from 0.05 to 5 (100×).
    MixedRadii,
}

fn scene(layout: Layout, n: usize, seed: u64) -> Vec<(Vec2, f32)> {
    let mut rng = Rng(seed);
    let side = 10.0 + (n as f32).sqrt() * 3.0;
    let centres: Vec<Vec2> = (0..4).map(|_| Vec2::new(rng.range(0.0, side), rng.range(0.0, side * 0.3))).collect();
    (0..n)
        .map(|_| match layout {
            Layout::Uniform => (Vec2::new(rng.range(0.0, side), rng.range(0.0, side)), rng.range(0.5, 1.5)),
            Layout::Clustered => {
                let c = centres[(rng.next() % 4) as usize];
                (c + Vec2::new(rng.range(-3.0, 3.0), rng.range(-1.0, 1.0)), rng.range(0.3, 1.0))
            }
            Layout::MixedRadii => {
                let r = 0.05 * 100f32.powf(rng.unit());
                (Vec2::new(rng.range(0.0, side), rng.range(0.0, side)), r)
            }
        })
        .collect()
}

fn boxes_of(balls: &[(Vec2, f32)]) -> Vec<Aabb> {
    balls.iter().map(|&(p, r)| Aabb::around_disc(p, r)).collect()
}

fn pair_set(bp: &mut dyn BroadPhase, boxes: &[Aabb]) -> HashSet<(u32, u32)> {
    let mut pairs = Vec::new();
    bp.find_pairs(boxes, &mut pairs);
    let set: HashSet<(u32, u32)> = pairs.iter().copied().collect();
    assert_eq!(set.len(), pairs.len(), "{}: a pair was reported twice", bp.kind());
    for &(i, j) in &pairs {
        assert!(i < j && (j as usize) < boxes.len(), "{}: malformed pair ({i}, {j})", bp.kind());
    }
    set
}

/// Runs every broad phase for `steps` steps of random motion and checks each call.
fn check_all(layout: Layout, n: usize, seed: u64, steps: usize, speed: f32) {
    let mut balls = scene(layout, n, seed);
    let mut rng = Rng(seed ^ 0xABCD);
    let velocities: Vec<Vec2> =
        (0..n + n / 4 + 1).map(|_| Vec2::new(rng.range(-speed, speed), rng.range(-speed, speed))).collect();
    let mut phases: Vec<Box<dyn BroadPhase>> = BroadPhaseKind::ALL.iter().map(|k| k.create()).collect();
    for step in 0..steps {
        // Grow the scene mid-way: structures must accept appended balls.
        if step == steps / 2 {
            balls.extend(scene(layout, n / 4 + 1, seed.wrapping_add(7)));
        }
        let boxes = boxes_of(&balls);
        let truth = pair_set(&mut BruteForce, &boxes);
        for bp in phases.iter_mut() {
            let found = pair_set(bp.as_mut(), &boxes);
            bp.assert_well_formed(&boxes);
            let missing: Vec<_> = truth.difference(&found).take(5).collect();
            assert!(missing.is_empty(), "{} missed pairs {missing:?} at step {step} ({layout:?}, n={n})", bp.kind());
        }
        for (k, b) in balls.iter_mut().enumerate() {
            b.0 += velocities[k];
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn uniform_scenes_match_brute_force(n in 0usize..250, seed in any::<u64>(), speed in 0.0f32..2.0) {
        check_all(Layout::Uniform, n, seed, 4, speed);
    }

    #[test]
    fn clustered_scenes_match_brute_force(n in 0usize..250, seed in any::<u64>(), speed in 0.0f32..2.0) {
        check_all(Layout::Clustered, n, seed, 4, speed);
    }

    #[test]
    fn radii_differing_100x_match_brute_force(n in 0usize..250, seed in any::<u64>(), speed in 0.0f32..2.0) {
        check_all(Layout::MixedRadii, n, seed, 4, speed);
    }
}

/// Fixed larger scene with many steps of coherent motion (insertion sort, tree reinsertion).
const LONG_RUN_SEED: u64 = 0x5EED_0003;

#[test]
fn long_coherent_motion_matches_brute_force() {
    check_all(Layout::Uniform, 600, LONG_RUN_SEED, 30, 0.3);
    check_all(Layout::MixedRadii, 400, LONG_RUN_SEED, 12, 0.5);
}

#[test]
fn degenerate_scenes() {
    // All balls at the same point; a single ball; zero-size boxes on a line.
    let same = vec![Aabb::around_disc(Vec2::new(3.0, 3.0), 1.0); 40];
    let line: Vec<Aabb> = (0..50).map(|i| Aabb::around_disc(Vec2::new(i as f32 * 0.5, 0.0), 0.0)).collect();
    let one = vec![Aabb::around_disc(Vec2::ZERO, 1.0)];
    for boxes in [same, line, one, Vec::new()] {
        let truth = pair_set(&mut BruteForce, &boxes);
        for kind in BroadPhaseKind::ALL {
            let mut bp = kind.create();
            let found = pair_set(bp.as_mut(), &boxes);
            bp.assert_well_formed(&boxes);
            assert!(truth.is_subset(&found), "{kind} missed pairs in a degenerate scene");
        }
    }
}

#[test]
fn names_round_trip() {
    for kind in BroadPhaseKind::ALL {
        assert_eq!(kind.to_string().parse::<BroadPhaseKind>().unwrap(), kind);
        assert_eq!(kind.create().kind(), kind);
    }
    let err = "octree".parse::<BroadPhaseKind>().unwrap_err().to_string();
    assert!(err.contains("unknown broad phase") && err.contains("octree"), "{err}");
}

#[test]
fn debug_boxes_are_reported() {
    let boxes = boxes_of(&scene(Layout::Uniform, 200, LONG_RUN_SEED));
    for kind in BroadPhaseKind::ALL {
        let mut bp = kind.create();
        bp.find_pairs(&boxes, &mut Vec::new());
        let mut dbg = swerve::physics::BroadPhaseDebug { broad_phase: kind, layers: Vec::new() };
        bp.debug_boxes(&mut dbg);
        if kind == BroadPhaseKind::BruteForce {
            assert_eq!(dbg.box_count(), 0);
        } else {
            assert!(dbg.box_count() > 0, "{kind} drew nothing");
        }
    }
}

/// The incremental structures really are incremental under coherent motion: sort-and-sweep
/// repairs its order with few insertion-sort moves, the AABB tree reinserts only the balls that
/// left their fat boxes, and the hierarchical grid splits mixed sizes over several levels.
#[test]
fn incremental_structures_do_little_work_under_small_motion() {
    use swerve::physics::broad_phase::{DynamicAabbTree, HierarchicalGrid, SortAndSweep};
    let mut balls = scene(Layout::Uniform, 2000, LONG_RUN_SEED);
    let mut rng = Rng(LONG_RUN_SEED);
    let velocities: Vec<Vec2> =
        balls.iter().map(|_| Vec2::new(rng.range(-0.02, 0.02), rng.range(-0.02, 0.02))).collect();
    let mut sap = SortAndSweep::default();
    let mut tree = DynamicAabbTree::default();
    let mut pairs = Vec::new();
    for step in 0..20 {
        let boxes = boxes_of(&balls);
        sap.find_pairs(&boxes, &mut pairs);
        tree.find_pairs(&boxes, &mut pairs);
        if step > 0 {
            assert!(!sap.last_call_sorted_from_scratch(), "step {step} re-sorted from scratch");
            assert!(sap.last_insertion_moves() < boxes.len() / 4, "{} moves", sap.last_insertion_moves());
            assert!(tree.last_reinserted() < boxes.len() / 4, "{} reinserted", tree.last_reinserted());
        }
        tree.assert_well_formed(&boxes);
        for (b, v) in balls.iter_mut().zip(&velocities) {
            b.0 += *v;
        }
    }
    let mut hgrid = HierarchicalGrid::default();
    let mixed = boxes_of(&scene(Layout::MixedRadii, 2000, LONG_RUN_SEED));
    hgrid.find_pairs(&mixed, &mut pairs);
    hgrid.assert_well_formed(&mixed);
    assert!(hgrid.level_count() >= 3, "radii over 100× used {} level(s)", hgrid.level_count());
}

/// Chains of equal boxes touching end to end, far from the origin: the cell grids bin each box
/// by `(corner − origin) · (1/cell)`, whose three roundings can carry a box's far corner two
/// cells on when the cell is exactly the largest side. Every structure must still report every
/// touching pair.
#[test]
fn touching_chains_survive_rounding() {
    const CHAINS_SEED: u64 = 0xC4A1_5EED;
    let mut rng = Rng(CHAINS_SEED);
    for chain in 0..60 {
        let side = rng.range(0.3, 3.0);
        let axis = chain % 2;
        let mut at = rng.range(-1000.0, 1000.0);
        let mut boxes = Vec::new();
        for _ in 0..2000 {
            let (mut min, mut max) = (Vec2::ZERO, Vec2::splat(side));
            min[axis] = at;
            max[axis] = at + side;
            boxes.push(Aabb { min, max });
            at = max[axis];
        }
        let truth = pair_set(&mut BruteForce, &boxes);
        assert!(truth.len() >= boxes.len() - 1, "the chain touches all along");
        for kind in BroadPhaseKind::ALL {
            let found = pair_set(kind.create().as_mut(), &boxes);
            let missed = truth.difference(&found).count();
            assert_eq!(missed, 0, "{kind} missed {missed} touching pairs (chain {chain}, side {side}, axis {axis})");
        }
    }
}
