//! A uniform grid over the 3-D world's static triangles, so that a sphere looks only at the
//! triangles near it instead of at all of them.
//!
//! The planar `crate::physics::segment_grid`'s grid with a third index (seed 003 §6.1).
//! Triangles never move, so the grid is built once after they change. Each cell lists the
//! triangles that pass through it, by the separating-axis test of a triangle against a box
//! (Akenine-Möller, "Fast 3D triangle-box overlap testing", *Journal of Graphics Tools* 6(1),
//! 2001), not every cell of the triangle's bounding box: a large slanted floor crosses a layer
//! of cells, while its box holds a whole block of them. A query therefore returns every
//! triangle that meets its box, and a few that only come near (within a cell).
//!
//! The layout and the separating-axis test are in `f64`: corners and query boxes are `f32` and
//! convert exactly, and `f64` keeps the cell arithmetic exact enough at any `f32` coordinate
//! (`f32` cells far from the origin would round by more than a small cell's size).

use glam::DVec3;

use super::{Aabb3, Triangle};

/// A uniform grid over static triangles (built once after they change); the
/// [`TriangleGrid::default`] grid is empty (no triangles).
#[derive(Clone, Debug, Default)]
pub(crate) struct TriangleGrid {
    layout: Layout,
    /// Compressed rows: the triangles of cell `c` are `entries[starts[c]..starts[c + 1]]`, in
    /// increasing order. Cell `(x, y, z)` is `c = (z · rows + y) · columns + x`, so a run of
    /// cells along x is one contiguous run of entries.
    starts: Vec<u32>,
    entries: Vec<u32>,
}

/// Where the cells lie.
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    origin: DVec3,
    cell: f64,
    /// Cells along x, y and z (all 0 for the empty grid).
    columns: usize,
    rows: usize,
    layers: usize,
    /// Added to half a cell in the separating-axis test: rounding (of the cell centres, of a
    /// point's cell index, of the test's products) must not drop a cell the triangle touches.
    slack: f64,
}

/// A query box's cells, inclusive ranges along x, y and z.
type CellRange = [(usize, usize); 3];

impl TriangleGrid {
    /// How many cells the grid may have per triangle (plus [`TriangleGrid::MIN_CELLS`]): the
    /// bound on its memory, whatever the scene's extent.
    const CELLS_PER_TRIANGLE: usize = 8;
    /// Cells allowed on top of [`TriangleGrid::CELLS_PER_TRIANGLE`] per triangle, so that a
    /// scene of a few triangles still gets a few cells.
    const MIN_CELLS: usize = 64;

    /// Builds the grid over `triangles`. A triangle with a non-finite corner (possible only
    /// for one written out field by field) is listed in no cell.
    pub(crate) fn build(triangles: &[Triangle]) -> TriangleGrid {
        Self::build_with_cell(triangles, None)
    }

    /// [`TriangleGrid::build`] with cells of about `cell` (m) instead of a typical triangle's
    /// size, for queries of a known size (the 3-D crowd's: an agent's obstacle reach): long
    /// triangles (a tower's walls) would otherwise make cells as large as the scene. The cell
    /// count bound still holds; `None`, or a `cell` that is not positive and finite, is
    /// [`TriangleGrid::build`].
    pub(crate) fn build_with_cell(triangles: &[Triangle], cell: Option<f64>) -> TriangleGrid {
        let boxes: Vec<Aabb3> = triangles.iter().map(Triangle::bounding_box).collect();
        let finite = |b: &Aabb3| b.min.is_finite() && b.max.is_finite();
        let Some(bounds) = boxes.iter().filter(|b| finite(b)).copied().reduce(|acc, b| acc.union(&b)) else {
            return TriangleGrid::default();
        };
        // A difference of finite `f32`s may overflow `f32` but not `f64`: one reason the layout
        // is `f64`.
        let (origin, size) = (bounds.min.as_dvec3(), bounds.max.as_dvec3() - bounds.min.as_dvec3());
        let n = boxes.iter().filter(|b| finite(b)).count();
        // About one triangle per cell: cells as large as a typical triangle. Unlike the planar
        // grid's segments, which fill an area, triangles mostly lie on surfaces of a volume
        // (floors, walls, meshes), so the volume per triangle would make cells far larger than
        // the triangles; the cell count bound below handles sparse scenes instead.
        let typical = boxes.iter().filter(|b| finite(b)).map(|b| (b.max - b.min).as_dvec3().max_element()).sum::<f64>()
            / n as f64;
        let wanted = cell.filter(|c| c.is_finite() && *c > 0.0).unwrap_or(typical);
        let mut cell = wanted.max(1e-6 * size.max_element()).max(f64::from(f32::MIN_POSITIVE));
        // `as` saturates: a huge count stays huge rather than wrapping.
        let counts = |cell: f64| size.to_array().map(|s| (s / cell) as usize + 1);
        let bound = Self::CELLS_PER_TRIANGLE.saturating_mul(n).saturating_add(Self::MIN_CELLS);
        while counts(cell).iter().fold(1usize, |acc, &k| acc.saturating_mul(k)) > bound {
            cell *= 2.0; // sparse or thin, long scenes: bound the cell count by the triangle count
        }
        let [columns, rows, layers] = counts(cell);
        let magnitude = bounds.min.abs().max(bounds.max.abs()).max_element();
        // Rounding is at most a few `f64` units of the coordinates (`10⁻¹⁶` relative) and of
        // the cell index (at most `bound` ≈ 10⁷ cells: `10⁻⁹` of a cell); this is far above
        // both and still far below a cell.
        let slack = 1e-6 * cell + 1e-12 * f64::from(magnitude);
        let layout = Layout { origin, cell, columns, rows, layers, slack };
        // Count each cell's triangles, turn the counts into starts, then fill with the starts as
        // cursors (which leaves each start at the next cell's) and shift them back.
        let total = columns * rows * layers;
        let mut starts = vec![0u32; total + 1];
        for (triangle, bounds) in triangles.iter().zip(&boxes) {
            layout.for_each_cell_crossed(triangle, bounds, |c| starts[c + 1] += 1);
        }
        for c in 0..total {
            starts[c + 1] += starts[c];
        }
        let mut entries = vec![0u32; starts[total] as usize];
        for (t, (triangle, bounds)) in triangles.iter().zip(&boxes).enumerate() {
            layout.for_each_cell_crossed(triangle, bounds, |c| {
                entries[starts[c] as usize] = t as u32;
                starts[c] += 1;
            });
        }
        for c in (1..=total).rev() {
            starts[c] = starts[c - 1];
        }
        starts[0] = 0;
        TriangleGrid { layout, starts, entries }
    }

    /// Calls `f` with every triangle listed in a cell that `query` overlaps, as often as it is
    /// listed there (a long triangle is listed in many cells): for callers that mark what they
    /// have seen instead of sorting. Never panics, whatever the box.
    pub(crate) fn for_each_listed(&self, query: &Aabb3, mut f: impl FnMut(u32)) {
        let Some([(x0, x1), (y0, y1), (z0, z1)]) = self.layout.cell_range(query) else { return };
        for z in z0..=z1 {
            for y in y0..=y1 {
                let row = (z * self.layout.rows + y) * self.layout.columns;
                let (s, e) = (self.starts[row + x0] as usize, self.starts[row + x1 + 1] as usize);
                self.entries[s..e].iter().for_each(|&t| f(t));
            }
        }
    }

    /// Writes into `out` (cleared first) every triangle index that meets `query`, each once, in
    /// increasing order; it may add a few that only come near (within about a cell). Never a
    /// false negative: a triangle touching the box counts.
    ///
    /// Does not allocate when `out.capacity()` is at least the number of triangles; never
    /// panics, whatever the box (NaN, infinite or inverted boxes give some answer, or none).
    pub(crate) fn near(&self, query: &Aabb3, out: &mut Vec<u32>) {
        out.clear();
        let Some([(x0, x1), (y0, y1), (z0, z1)]) = self.layout.cell_range(query) else { return };
        let columns = self.layout.columns;
        for z in z0..=z1 {
            for y in y0..=y1 {
                let row = (z * self.layout.rows + y) * columns;
                // A row's cells are contiguous in the compressed rows.
                let (s, e) = (self.starts[row + x0] as usize, self.starts[row + x1 + 1] as usize);
                if out.len() + (e - s) <= out.capacity() {
                    out.extend_from_slice(&self.entries[s..e]);
                } else {
                    for x in x0..=x1 {
                        let c = row + x;
                        add_without_growing(out, &self.entries[self.starts[c] as usize..self.starts[c + 1] as usize]);
                    }
                }
            }
        }
        // One cell: already increasing, each triangle listed once. Otherwise the lists of a
        // few cells (a sphere's swept box spans few): sorting them is cheaper than any set.
        if (x0, y0, z0) != (x1, y1, z1) {
            out.sort_unstable();
            out.dedup();
        }
    }
}

/// Appends the (increasing, distinct) triangles of one cell to `out`, without growing `out`
/// past the number of distinct triangles when its capacity runs short.
///
/// A big triangle is listed in many cells, so a query's cell lists can hold far more entries
/// than there are triangles. When they would overflow the capacity, the duplicates are
/// removed first, and if that is not enough only the cell's triangles not yet in `out` are
/// added: `out` then holds distinct triangles only, at most all of them.
fn add_without_growing(out: &mut Vec<u32>, cell: &[u32]) {
    if out.len() + cell.len() > out.capacity() {
        out.sort_unstable();
        out.dedup();
        if out.len() + cell.len() > out.capacity() {
            let known = out.len();
            for &t in cell {
                if out[..known].binary_search(&t).is_err() {
                    out.push(t);
                }
            }
            return;
        }
    }
    out.extend_from_slice(cell);
}

impl Layout {
    /// The cells (inclusive ranges along x, y and z) that `b` overlaps, or `None` when it lies
    /// outside the grid, is inverted or is not finite.
    ///
    /// A point's cell index, `⌊(x − origin) / cell⌋`, is a monotone function of `x` (rounded
    /// subtraction and division by a positive number are monotone), so a point lying in both
    /// a query box and a triangle's box has its cell in both ranges.
    fn cell_range(&self, b: &Aabb3) -> Option<CellRange> {
        if self.columns == 0 {
            return None; // the empty grid (its cell is 0)
        }
        let counts = [self.columns, self.rows, self.layers];
        let mut range = [(0, 0); 3];
        for axis in 0..3 {
            let n = counts[axis] as f64;
            let lo = (f64::from(b.min[axis]) - self.origin[axis]) / self.cell;
            let hi = (f64::from(b.max[axis]) - self.origin[axis]) / self.cell;
            // Also false for NaN (and for the empty grid, whose `n` is 0).
            if !(hi >= 0.0 && lo < n && lo <= hi) {
                return None;
            }
            // In range of `usize` by the clamps; `as` truncates towards zero, i.e. floors here.
            range[axis] = (lo.clamp(0.0, n - 1.0) as usize, hi.clamp(0.0, n - 1.0) as usize);
        }
        Some(range)
    }

    /// Calls `f` with every cell that `triangle` (whose box is `bounds`) passes through,
    /// in increasing order.
    fn for_each_cell_crossed(&self, triangle: &Triangle, bounds: &Aabb3, mut f: impl FnMut(usize)) {
        if !(bounds.min.is_finite() && bounds.max.is_finite()) {
            return;
        }
        let Some([(x0, x1), (y0, y1), (z0, z1)]) = self.cell_range(bounds) else { return };
        let overlap = BoxOverlap::new(triangle, 0.5 * self.cell + self.slack);
        for z in z0..=z1 {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let centre = self.origin + (DVec3::new(x as f64, y as f64, z as f64) + 0.5) * self.cell;
                    // The box's own axes are settled by the cell range (the triangle's box).
                    if overlap.meets_cube(centre) {
                        f((z * self.rows + y) * self.columns + x);
                    }
                }
            }
        }
    }
}

/// The separating-axis test of one triangle against cubes of one size (Akenine-Möller 2001),
/// with what does not depend on the cube computed once.
struct BoxOverlap {
    corners: [DVec3; 3],
    /// The axes that can separate a triangle from a box besides the box's own three: the
    /// triangle's normal, and each edge crossed with each of x, y and z.
    axes: [DVec3; 10],
    half: f64,
}

impl BoxOverlap {
    fn new(triangle: &Triangle, half: f64) -> BoxOverlap {
        let corners = [triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3()];
        let edges = [corners[1] - corners[0], corners[2] - corners[1], corners[0] - corners[2]];
        let mut axes = [edges[0].cross(edges[1]); 10];
        for (i, edge) in edges.iter().enumerate() {
            for (j, unit) in [DVec3::X, DVec3::Y, DVec3::Z].iter().enumerate() {
                axes[1 + 3 * i + j] = edge.cross(*unit);
            }
        }
        BoxOverlap { corners, axes, half }
    }

    /// Whether the triangle meets the cube of half-side `half` around `centre` (touching
    /// counts), given that it meets the cube's own axes' slabs.
    ///
    /// On each axis the triangle projects to an interval and the cube to `±half · Σ|axisᵢ|`
    /// around its centre; the shapes are disjoint exactly when some axis separates them.
    /// A zero axis (an edge parallel to a box axis, or the normal of a triangle without area)
    /// projects everything to 0 and separates nothing.
    fn meets_cube(&self, centre: DVec3) -> bool {
        let v = self.corners.map(|corner| corner - centre);
        self.axes.iter().all(|axis| {
            let p = v.map(|v| v.dot(*axis));
            let reach = self.half * axis.abs().element_sum();
            p[0].min(p[1]).min(p[2]) <= reach && p[0].max(p[1]).max(p[2]) >= -reach
        })
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use proptest::prelude::*;

    use super::*;

    /// Whether `triangle` meets `b` inflated by `margin` (touching counts): the triangle clipped
    /// by the box's six planes (Sutherland–Hodgman, in `f64`) is not empty. An oracle
    /// independent of the separating-axis test; it is exact up to `f64` rounding, which the
    /// `10⁻¹²` of the coordinates added to the margin covers.
    fn meets(triangle: &Triangle, b: &Aabb3, margin: f64) -> bool {
        let magnitude = b.min.abs().max(b.max.abs()).max_element().max(triangle.bounding_box().max.abs().max_element());
        let margin = margin + 1e-12 * (f64::from(magnitude) + 1.0);
        let mut polygon: Vec<DVec3> = vec![triangle.a.as_dvec3(), triangle.b.as_dvec3(), triangle.c.as_dvec3()];
        for axis in 0..3 {
            for (bound, sign) in [(f64::from(b.min[axis]) - margin, 1.0), (f64::from(b.max[axis]) + margin, -1.0)] {
                // Keep the part where `sign · (x − bound) ≥ 0`.
                let inside = |p: &DVec3| sign * (p[axis] - bound) >= 0.0;
                let mut clipped = Vec::with_capacity(polygon.len() + 1);
                for (k, p) in polygon.iter().enumerate() {
                    let q = polygon[(k + 1) % polygon.len()];
                    if inside(p) {
                        clipped.push(*p);
                    }
                    if inside(p) != inside(&q) {
                        let t = (bound - p[axis]) / (q[axis] - p[axis]);
                        let mut cut = *p + (q - *p) * t;
                        cut[axis] = bound; // exactly on the plane, whatever the rounding of `t`
                        clipped.push(cut);
                    }
                }
                polygon = clipped;
                if polygon.is_empty() {
                    return false;
                }
            }
        }
        true
    }

    fn vec3(range: f32) -> impl Strategy<Value = Vec3> {
        (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// Soups of ordinary, big slanted, tiny and flat axis-aligned triangles (zero thickness
    /// in one axis, on whole coordinates, which cell boundaries often are), around `offset`.
    fn soup(offset: Vec3, corners: Vec<(Vec3, Vec3, Vec3, u8)>) -> Vec<Triangle> {
        corners
            .into_iter()
            .filter_map(|(a, b, c, kind)| {
                let (a, b, c) = match kind {
                    0 => (a, a + (b - a) * 20.0, a + (c - a) * 20.0), // big, slanted
                    1 => (a, a + (b - a) * 1e-3, a + (c - a) * 1e-3), // tiny
                    2..=4 => {
                        // Flat in one axis, at a whole coordinate.
                        let axis = usize::from(kind - 2);
                        let (mut b, mut c, mut a) = (b, c, a);
                        a[axis] = a[axis].round();
                        b[axis] = a[axis];
                        c[axis] = a[axis];
                        (a, b, c)
                    }
                    _ => (a, b, c),
                };
                Triangle::new(a + offset, b + offset, c + offset).ok()
            })
            .collect()
    }

    /// Checks `near` on `query` against brute force over `triangles`.
    fn check(
        grid: &TriangleGrid,
        triangles: &[Triangle],
        query: &Aabb3,
        out: &mut Vec<u32>,
    ) -> Result<(), TestCaseError> {
        out.push(u32::MAX); // must be cleared
        grid.near(query, out);
        prop_assert!(out.windows(2).all(|w| w[0] < w[1]), "not increasing and unique: {out:?}");
        for (t, triangle) in triangles.iter().enumerate() {
            if meets(triangle, query, 0.0) {
                prop_assert!(out.contains(&(t as u32)), "triangle {t} {triangle:?} meets {query:?}, not listed");
            }
        }
        // Only near ones: a listed triangle passes through a cell the query overlaps.
        let near = 1.01 * grid.layout.cell + 2.0 * grid.layout.slack;
        for &t in out.iter() {
            prop_assert!((t as usize) < triangles.len(), "no triangle {t}");
            prop_assert!(meets(&triangles[t as usize], query, near), "triangle {t} is not near {query:?}");
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Every triangle that meets the query box (the exact test, not its bounding box) is in
        /// the answer, which is increasing, without repeats, and only holds triangles within
        /// about a cell of the box.
        #[test]
        fn near_lists_every_triangle_that_meets_the_box(
            corners in prop::collection::vec((vec3(30.0), vec3(5.0), vec3(5.0), 0u8..8), 1..50),
            far in prop::bool::ANY,
            offset in vec3(1.0e4),
            queries in prop::collection::vec((vec3(40.0), vec3(6.0), 0u8..4), 1..25),
        ) {
            let offset = if far { offset.round() } else { Vec3::ZERO };
            let corners = corners.into_iter().map(|(a, b, c, kind)| (a, a + b, a + c, kind)).collect();
            let triangles = soup(offset, corners);
            let grid = TriangleGrid::build(&triangles);
            prop_assert!(grid.starts.len() <= TriangleGrid::CELLS_PER_TRIANGLE * triangles.len() + TriangleGrid::MIN_CELLS + 1);
            let mut out = Vec::new();
            for (centre, half, kind) in queries {
                let mut half = half.abs();
                let centre = centre + offset;
                match kind {
                    0 => half[0] = 0.0, // a flat box
                    1 => half *= 1e-3,  // a small box
                    _ => {}
                }
                check(&grid, &triangles, &Aabb3 { min: centre - half, max: centre + half }, &mut out)?;
            }
            // Boxes around the triangles' own corners, and a point at each corner.
            for triangle in &triangles {
                check(&grid, &triangles, &Aabb3 { min: triangle.a, max: triangle.a }, &mut out)?;
                check(&grid, &triangles, &Aabb3::around_sphere(triangle.b, 0.5), &mut out)?;
            }
        }
    }

    #[test]
    fn a_big_slanted_triangle_crosses_far_fewer_cells_than_its_box() {
        // A 100 m slanted floor among 1,600 small triangles (cells of a few metres).
        let mut triangles =
            vec![Triangle::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(100.0, 0.0, 100.0), Vec3::new(0.0, 100.0, 100.0))
                .unwrap()];
        for i in 0..1600 {
            let corner = Vec3::new((i % 40) as f32 * 2.5, (i / 40) as f32 * 2.5, 50.0);
            triangles.push(Triangle::new(corner, corner + Vec3::X, corner + Vec3::Y).unwrap());
        }
        let grid = TriangleGrid::build(&triangles);
        let listed = grid.entries.iter().filter(|&&t| t == 0).count();
        let bounds = grid.layout.cell_range(&triangles[0].bounding_box()).unwrap();
        let in_box: usize = bounds.iter().map(|(lo, hi)| hi - lo + 1).product();
        assert!(listed * 5 < in_box, "the floor is in {listed} cells of the {in_box} of its box");
        let mut out = Vec::new();
        // Inside the floor's box, 78 m below the floor (z = x + y).
        grid.near(&Aabb3::around_sphere(Vec3::new(40.0, 40.0, 1.0), 1.0), &mut out);
        assert!(!out.contains(&0), "the floor is at z = 80 there: {out:?}");
    }

    #[test]
    fn boxes_that_are_not_finite_do_not_panic() {
        let triangles: Vec<Triangle> = (0..30)
            .map(|i| {
                let c = Vec3::new(i as f32, (i * 7 % 11) as f32, (i * 3 % 5) as f32);
                Triangle::new(c, c + Vec3::new(3.0, 0.5, 0.0), c + Vec3::new(0.0, 2.0, 1.0)).unwrap()
            })
            .collect();
        let grid = TriangleGrid::build(&triangles);
        let (nan, inf) = (f32::NAN, f32::INFINITY);
        let mut out = Vec::new();
        // Inverted boxes too (min above max), by a cell and by the whole grid.
        let values = [nan, inf, -inf, 0.0, 5.0, 30.0, -1.0e30, 1.0e30, f32::MAX, f32::MIN];
        for &a in &values {
            for &b in &values {
                for axis in 0..3 {
                    for query in [
                        Aabb3 { min: Vec3::splat(a), max: Vec3::splat(b) },
                        Aabb3 { min: Vec3::ZERO.with_x(a), max: Vec3::splat(10.0).with_y(b) },
                        {
                            let (mut min, mut max) = (Vec3::ZERO, Vec3::splat(10.0));
                            min[axis] = a;
                            max[axis] = b;
                            Aabb3 { min, max }
                        },
                    ] {
                        grid.near(&query, &mut out);
                        assert!(out.windows(2).all(|w| w[0] < w[1]), "{query:?}: {out:?}");
                        assert!(out.iter().all(|&t| (t as usize) < triangles.len()));
                    }
                }
            }
        }
        // The box of everything lists everything.
        grid.near(&Aabb3 { min: Vec3::splat(-inf), max: Vec3::splat(inf) }, &mut out);
        assert_eq!(out, (0..30).collect::<Vec<u32>>());
    }

    #[test]
    fn no_triangles_no_answer() {
        let mut out = vec![7];
        for grid in [TriangleGrid::default(), TriangleGrid::build(&[])] {
            for query in [
                Aabb3 { min: Vec3::ZERO, max: Vec3::ONE },
                Aabb3 { min: Vec3::splat(-1.0), max: Vec3::ONE },
                Aabb3 { min: Vec3::splat(f32::NEG_INFINITY), max: Vec3::splat(f32::INFINITY) },
                Aabb3 { min: Vec3::splat(f32::NAN), max: Vec3::splat(f32::NAN) },
            ] {
                grid.near(&query, &mut out);
                assert!(out.is_empty(), "{query:?}: {out:?}");
            }
        }
    }

    #[test]
    fn triangles_with_non_finite_corners_are_left_out() {
        // Only possible for triangles written out field by field (`Triangle::new` rejects them).
        let nan = Triangle { a: Vec3::NAN, b: Vec3::X, c: Vec3::Y };
        let good = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Z).unwrap();
        let everything = Aabb3 { min: Vec3::splat(f32::NEG_INFINITY), max: Vec3::splat(f32::INFINITY) };
        let mut out = Vec::new();
        TriangleGrid::build(&[nan, good, nan]).near(&everything, &mut out);
        assert_eq!(out, [1]);
        TriangleGrid::build(&[nan]).near(&everything, &mut out);
        assert!(out.is_empty());
    }

    /// With `out`'s capacity at the triangle count, `near` never grows it, even when the cells
    /// of a query list the big triangles many times over (more entries than triangles).
    ///
    /// `out` is the only allocation `near` could make (`sort_unstable` and `dedup` work in
    /// place), so an unchanged buffer (pointer and capacity) means no allocation; the library's
    /// unit tests have no counting allocator.
    #[test]
    fn near_does_not_grow_a_buffer_as_large_as_the_triangle_count() {
        let mut triangles = Vec::new();
        for i in 0..50 {
            let c = Vec3::new((i % 10) as f32 * 10.0, (i / 10) as f32 * 20.0, 0.0);
            triangles.push(Triangle::new(c, c + Vec3::new(90.0, 5.0, 30.0), c + Vec3::new(3.0, 95.0, 60.0)).unwrap());
            triangles.push(Triangle::new(c, c + Vec3::new(0.5, 0.0, 0.0), c + Vec3::new(0.0, 0.5, 0.0)).unwrap());
        }
        let grid = TriangleGrid::build(&triangles);
        let mut out = Vec::with_capacity(triangles.len());
        let (pointer, capacity) = (out.as_ptr(), out.capacity());
        let everything = Aabb3 { min: Vec3::splat(-1.0e3), max: Vec3::splat(1.0e3) };
        // The query's cells hold more entries than there are triangles: the path that
        // removes duplicates to make room runs.
        let (s, e) = (grid.layout.cell_range(&everything).unwrap(), grid.starts.last().copied().unwrap_or(0));
        assert!(e as usize > 2 * triangles.len(), "only {e} entries in {s:?}");
        for k in 0..200 {
            let centre = Vec3::new((k * 37 % 100) as f32, (k * 53 % 100) as f32, (k * 11 % 60) as f32);
            for query in [Aabb3::around_sphere(centre, (k % 30) as f32), everything] {
                grid.near(&query, &mut out);
                assert_eq!((out.as_ptr(), out.capacity()), (pointer, capacity), "grown by {query:?}");
                for (t, triangle) in triangles.iter().enumerate() {
                    assert!(!meets(triangle, &query, 0.0) || out.contains(&(t as u32)), "{t} missing");
                }
            }
        }
        grid.near(&everything, &mut out);
        assert_eq!(out, (0..triangles.len() as u32).collect::<Vec<u32>>());
    }
}
