use swerve::geom::Aabb;
use swerve::physics::scene::ball_pit;
use swerve::physics::BroadPhaseKind;
fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(1600);
    let scene = ball_pit(n, 0x0003_B411);
    let boxes: Vec<Aabb> = scene.balls.iter().map(|b| Aabb::around_disc(b.position, b.radius * 1.1)).collect();
    for kind in BroadPhaseKind::ALL {
        if kind == BroadPhaseKind::BruteForce && n > 20000 {
            continue;
        }
        let mut bp = kind.create();
        let mut pairs = Vec::new();
        bp.find_pairs(&boxes, &mut pairs);
        let t = std::time::Instant::now();
        let reps = 20;
        for _ in 0..reps {
            pairs.clear();
            bp.find_pairs(&boxes, &mut pairs);
        }
        println!("{kind:>20} n {n}: {:?} per call, {} pairs", t.elapsed() / reps, pairs.len());
    }
}
