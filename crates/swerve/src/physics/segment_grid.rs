//! A uniform grid over the world's static segments, so that a ball looks only at the segments
//! near it instead of at all of them.
//!
//! The step asks, for every ball, which segments its path may hit (continuous detection),
//! which it overlaps (the position passes) and which it rests on (with gravity). Scanning
//! every segment made those O(balls × segments): the Galton board (300 balls, 762 segment
//! edges of its pegs and bins) spent most of its step there. Segments never move, so the grid
//! is built once after they change. Each cell lists the segments that pass through it (a
//! separating-axis test, not the segment's bounding box: a long diagonal wall crosses far
//! fewer cells than its box covers), so a query returns every segment that meets its box, and
//! a few that only come near.

use glam::Vec2;

use crate::geom::Aabb;

use super::world::Segment;

/// The grid; [`SegmentGrid::default`] is empty (no segments).
#[derive(Clone, Debug, Default)]
pub(crate) struct SegmentGrid {
    layout: Layout,
    /// Compressed rows: the segments of cell `c` are `entries[starts[c]..starts[c + 1]]`, in
    /// increasing order.
    starts: Vec<u32>,
    entries: Vec<u32>,
}

/// Where the cells lie.
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    /// Added to half a cell in the separating-axis test: rounding (of the cell centres, of
    /// coordinates far from zero) must not drop a cell the segment touches.
    slack: f32,
}

impl SegmentGrid {
    /// Builds the grid over `segments` (whose boxes are `boxes`).
    pub(crate) fn build(segments: &[Segment], boxes: &[Aabb]) -> SegmentGrid {
        let Some(first) = boxes.first() else { return SegmentGrid::default() };
        let bounds = boxes.iter().fold(*first, |acc, b| Aabb { min: acc.min.min(b.min), max: acc.max.max(b.max) });
        let size = bounds.max - bounds.min;
        let n = boxes.len() as f32;
        // About one segment per cell: cells as large as a typical segment, and at most about
        // one cell per segment over the whole area.
        let typical = boxes.iter().map(|b| (b.max - b.min).max_element()).sum::<f32>() / n;
        let mut cell = typical.max((size.x * size.y / n).sqrt()).max(1e-6 * size.max_element()).max(f32::MIN_POSITIVE);
        let cells = |cell: f32| ((size.x / cell) as usize + 1, (size.y / cell) as usize + 1);
        while {
            let (columns, rows) = cells(cell);
            columns.saturating_mul(rows) > 4 * boxes.len() + 16
        } {
            cell *= 2.0; // thin, long worlds: bound the cell count by the segment count
        }
        let (columns, rows) = cells(cell);
        let magnitude = bounds.min.abs().max(bounds.max.abs()).max_element();
        let slack = 1e-3 * cell + 16.0 * f32::EPSILON * magnitude;
        let layout = Layout { origin: bounds.min, cell, columns, rows, slack };
        // Count each cell's segments, turn the counts into starts, then fill with the starts as
        // cursors (which leaves each start at the next cell's) and shift them back.
        let mut starts = vec![0u32; columns * rows + 1];
        for (segment, bounds) in segments.iter().zip(boxes) {
            layout.for_each_cell_crossed(segment, bounds, |c| starts[c + 1] += 1);
        }
        for c in 0..columns * rows {
            starts[c + 1] += starts[c];
        }
        let mut entries = vec![0u32; starts[columns * rows] as usize];
        for (s, (segment, bounds)) in segments.iter().zip(boxes).enumerate() {
            layout.for_each_cell_crossed(segment, bounds, |c| {
                entries[starts[c] as usize] = s as u32;
                starts[c] += 1;
            });
        }
        for c in (1..=columns * rows).rev() {
            starts[c] = starts[c - 1];
        }
        starts[0] = 0;
        SegmentGrid { layout, starts, entries }
    }

    /// Appends to `out` the segments that may meet `query`: every segment that does, in
    /// increasing order, each once (and some that only come near).
    pub(crate) fn near(&self, query: &Aabb, out: &mut Vec<u32>) {
        let Some((x0, y0, x1, y1)) = self.layout.cell_range(query) else { return };
        let from = out.len();
        for y in y0..=y1 {
            let row = y * self.layout.columns;
            // A row's cells are contiguous in the compressed rows.
            let (s, e) = (self.starts[row + x0] as usize, self.starts[row + x1 + 1] as usize);
            out.extend_from_slice(&self.entries[s..e]);
        }
        // One cell: already increasing, each segment listed once.
        if x0 != x1 || y0 != y1 {
            out[from..].sort_unstable();
            let mut kept = from;
            for k in from..out.len() {
                if kept == from || out[k] != out[kept - 1] {
                    out[kept] = out[k];
                    kept += 1;
                }
            }
            out.truncate(kept);
        }
    }
}

impl Layout {
    /// The cell range `(x0, y0, x1, y1)` (inclusive) that `b` overlaps, or `None` when it lies
    /// outside the grid (or is not finite).
    fn cell_range(&self, b: &Aabb) -> Option<(usize, usize, usize, usize)> {
        if self.columns == 0 {
            return None;
        }
        let lo = (b.min - self.origin) / self.cell;
        let hi = (b.max - self.origin) / self.cell;
        let (columns, rows) = (self.columns as f32, self.rows as f32);
        // Also false for NaN, and for an inverted box (its min beyond its max: it holds nothing,
        // and its cell range would run backwards).
        if !(hi.x >= 0.0 && hi.y >= 0.0 && lo.x < columns && lo.y < rows && lo.x <= hi.x && lo.y <= hi.y) {
            return None;
        }
        // In range of `usize` by the clamps; `as` truncates towards zero, i.e. floors here.
        let clamp = |v: f32, n: f32| v.clamp(0.0, n - 1.0) as usize;
        Some((clamp(lo.x, columns), clamp(lo.y, rows), clamp(hi.x, columns), clamp(hi.y, rows)))
    }

    /// Calls `f` with every cell that `segment` (whose box is `bounds`) passes through.
    fn for_each_cell_crossed(&self, segment: &Segment, bounds: &Aabb, mut f: impl FnMut(usize)) {
        let Some((x0, y0, x1, y1)) = self.cell_range(bounds) else { return };
        let normal = (segment.b - segment.a).perp();
        let reach = normal.abs().dot(Vec2::splat(0.5 * self.cell + self.slack));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let centre = self.origin + (Vec2::new(x as f32, y as f32) + 0.5) * self.cell;
                // Separating axis: the box's own axes are settled by the cell range; what is
                // left is the segment's normal.
                if normal.dot(centre - segment.a).abs() <= reach {
                    f(y * self.columns + x);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Whether segment `s` meets box `b` (Liang–Barsky clipping, in `f64`).
    fn meets(s: &Segment, b: &Aabb) -> bool {
        let (a, d) = (s.a.as_dvec2(), (s.b - s.a).as_dvec2());
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for axis in 0..2 {
            let (lo, hi) = (f64::from(b.min[axis]), f64::from(b.max[axis]));
            if d[axis] == 0.0 {
                if a[axis] < lo || a[axis] > hi {
                    return false;
                }
                continue;
            }
            let (mut u, mut v) = ((lo - a[axis]) / d[axis], (hi - a[axis]) / d[axis]);
            if u > v {
                std::mem::swap(&mut u, &mut v);
            }
            t0 = t0.max(u);
            t1 = t1.min(v);
        }
        t0 <= t1
    }

    fn point(range: f32) -> impl Strategy<Value = Vec2> {
        (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
    }

    proptest! {
        /// Every segment that meets the query box is in the answer, which is increasing and
        /// without repeats; long, short, axis-parallel and far-off segments alike.
        #[test]
        fn near_lists_every_segment_that_meets_the_box(
            ends in prop::collection::vec((point(50.0), point(8.0), 0u8..4), 1..60),
            offset in point(1.0e4),
            queries in prop::collection::vec((point(60.0), point(6.0)), 1..20),
        ) {
            let segments: Vec<Segment> = ends
                .iter()
                .map(|&(a, d, kind)| {
                    // Some axis-parallel, some long.
                    let d = match kind {
                        0 => Vec2::new(d.x, 0.0),
                        1 => Vec2::new(0.0, d.y),
                        2 => d * 10.0,
                        _ => d,
                    };
                    Segment { a: a + offset, b: a + offset + d }
                })
                .filter(|s| s.a != s.b)
                .collect();
            let boxes: Vec<Aabb> = segments.iter().map(|s| Aabb { min: s.a.min(s.b), max: s.a.max(s.b) }).collect();
            let grid = SegmentGrid::build(&segments, &boxes);
            let mut out = Vec::new();
            for (centre, half) in queries {
                let query = Aabb { min: centre + offset - half.abs(), max: centre + offset + half.abs() };
                out.clear();
                grid.near(&query, &mut out);
                prop_assert!(out.windows(2).all(|w| w[0] < w[1]), "not increasing: {out:?}");
                for (s, segment) in segments.iter().enumerate() {
                    if meets(segment, &query) {
                        prop_assert!(out.contains(&(s as u32)), "segment {s} {segment:?} meets {query:?}, not listed");
                    }
                }
            }
        }
    }

    #[test]
    fn an_inverted_box_meets_nothing() {
        let segments: Vec<Segment> =
            (0..20).map(|k| Segment { a: Vec2::new(k as f32, 0.0), b: Vec2::new(k as f32, 20.0) }).collect();
        let boxes: Vec<Aabb> = segments.iter().map(|s| Aabb { min: s.a.min(s.b), max: s.a.max(s.b) }).collect();
        let grid = SegmentGrid::build(&segments, &boxes);
        let mut out = Vec::new();
        grid.near(&Aabb { min: Vec2::new(15.0, 15.0), max: Vec2::new(2.0, 3.0) }, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn no_segments_no_answer() {
        let grid = SegmentGrid::build(&[], &[]);
        let mut out = Vec::new();
        grid.near(&Aabb { min: Vec2::ZERO, max: Vec2::ONE }, &mut out);
        assert!(out.is_empty());
    }
}
