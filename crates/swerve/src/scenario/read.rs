//! Reading a [`Node`] tree into a [`Scenario`], collecting every problem instead of stopping at
//! the first: wrong types, unknown or missing keys, out-of-range numbers, bad polygons.

use super::document::{Node, Value};
use super::model::*;
use super::Problem;
use crate::geom::validate_polygon;
use crate::Vec2;

/// Collects problems while reading.
pub(crate) struct Reader {
    pub problems: Vec<Problem>,
}

/// A table being read: its node and its key path (`circle[0]`).
#[derive(Clone, Copy)]
struct Table<'a> {
    node: &'a Node,
    path: &'a str,
}

const PARAM_KEYS: [&str; 6] =
    ["neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "radius", "max_speed"];

impl Reader {
    fn problem(&mut self, line: Option<usize>, key: String, message: impl Into<String>) {
        self.problems.push(Problem { line, key, message: message.into() });
    }

    fn join(path: &str, key: &str) -> String {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    }

    /// Reports keys not in `known` (typos would otherwise be silently ignored).
    fn check_keys(&mut self, t: Table, known: &[&str]) {
        if let Value::Table(entries) = &t.node.value {
            for (k, v) in entries {
                if !known.contains(&k.as_str()) {
                    self.problem(
                        v.line,
                        Self::join(t.path, k),
                        format!("unknown key (expected one of: {})", known.join(", ")),
                    );
                }
            }
        }
    }

    fn expect_table<'a>(&mut self, node: &'a Node, path: &'a str) -> Option<Table<'a>> {
        if let Value::Table(_) = node.value {
            Some(Table { node, path })
        } else {
            self.problem(node.line, path.to_string(), format!("expected a table, found {}", node.value.kind()));
            None
        }
    }

    fn number(&mut self, node: &Node, path: &str) -> Option<f32> {
        let value = match node.value {
            Value::Float(f) => f,
            // Integers are accepted where numbers are expected (`radius = 2`).
            Value::Integer(i) => i as f64,
            ref other => {
                self.problem(node.line, path.to_string(), format!("expected a number, found {}", other.kind()));
                return None;
            }
        };
        // f64 → f32 rounds like RVO2's float literals; out-of-range values become infinite
        // and are rejected just below.
        let value = value as f32;
        if !value.is_finite() {
            self.problem(node.line, path.to_string(), format!("must be a finite number, got {value}"));
            return None;
        }
        Some(value)
    }

    fn opt_number(&mut self, t: Table, key: &str, check: Range) -> Option<f32> {
        let node = t.node.get(key)?;
        let path = Self::join(t.path, key);
        let value = self.number(node, &path)?;
        if let Err(requirement) = check.test(value) {
            self.problem(node.line, path, format!("must be {requirement}, got {value}"));
            return None;
        }
        Some(value)
    }

    fn missing(&mut self, t: Table, key: &str) {
        self.problem(t.node.line, Self::join(t.path, key), "missing key");
    }

    fn req_number(&mut self, t: Table, key: &str, check: Range) -> Option<f32> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_number(t, key, check)
    }

    fn opt_integer(&mut self, t: Table, key: &str, min: i64) -> Option<i64> {
        let node = t.node.get(key)?;
        let path = Self::join(t.path, key);
        match node.value {
            Value::Integer(i) if i >= min => Some(i),
            Value::Integer(i) => {
                self.problem(node.line, path, format!("must be at least {min}, got {i}"));
                None
            }
            ref other => {
                self.problem(node.line, path, format!("expected an integer, found {}", other.kind()));
                None
            }
        }
    }

    fn req_count(&mut self, t: Table, key: &str, min: i64) -> Option<usize> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_integer(t, key, min).map(|i| i as usize)
    }

    fn opt_seed(&mut self, t: Table, key: &str) -> Option<u64> {
        self.opt_integer(t, key, 0).map(|i| i as u64)
    }

    fn opt_string(&mut self, t: Table, key: &str) -> Option<String> {
        let node = t.node.get(key)?;
        match &node.value {
            Value::String(s) => Some(s.clone()),
            other => {
                self.problem(node.line, Self::join(t.path, key), format!("expected a string, found {}", other.kind()));
                None
            }
        }
    }

    fn opt_bool(&mut self, t: Table, key: &str) -> Option<bool> {
        let node = t.node.get(key)?;
        match node.value {
            Value::Boolean(b) => Some(b),
            ref other => {
                self.problem(
                    node.line,
                    Self::join(t.path, key),
                    format!("expected true or false, found {}", other.kind()),
                );
                None
            }
        }
    }

    fn point(&mut self, node: &Node, path: &str) -> Option<Point> {
        if let Value::Array(items) = &node.value {
            if items.len() == 2 {
                let x = self.number(&items[0], &format!("{path}[0]"));
                let y = self.number(&items[1], &format!("{path}[1]"));
                return Some([x?, y?]);
            }
        }
        self.problem(node.line, path.to_string(), format!("expected a point [x, y], found {}", describe(node)));
        None
    }

    fn opt_point(&mut self, t: Table, key: &str) -> Option<Point> {
        let node = t.node.get(key)?;
        self.point(node, &Self::join(t.path, key))
    }

    fn req_point(&mut self, t: Table, key: &str) -> Option<Point> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_point(t, key)
    }

    /// An array of tables (`[[circle]]`), each handed to `read` with its path.
    fn tables<T>(&mut self, t: Table, key: &str, mut read: impl FnMut(&mut Self, Table) -> Option<T>) -> Vec<T> {
        let Some(node) = t.node.get(key) else { return Vec::new() };
        let path = Self::join(t.path, key);
        let Value::Array(items) = &node.value else {
            self.problem(node.line, path, format!("expected an array of tables, found {}", node.value.kind()));
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let item_path = format!("{path}[{i}]");
            if let Some(table) = self.expect_table(item, &item_path) {
                if let Some(value) = read(self, table) {
                    out.push(value);
                }
            }
        }
        out
    }

    fn params(&mut self, t: Table) -> ParamOverrides {
        ParamOverrides {
            neighbor_dist: self.opt_number(t, "neighbor_dist", Range::NonNegative),
            max_neighbors: self.opt_integer(t, "max_neighbors", 0).map(|i| i as usize),
            time_horizon: self.opt_number(t, "time_horizon", Range::Positive),
            time_horizon_obst: self.opt_number(t, "time_horizon_obst", Range::Positive),
            radius: self.opt_number(t, "radius", Range::Positive),
            max_speed: self.opt_number(t, "max_speed", Range::NonNegative),
        }
    }

    fn goal(&mut self, t: Table, required: bool, opposite_allowed: bool) -> Option<GoalRule> {
        let Some(node) = t.node.get("goal") else {
            if required {
                self.missing(t, "goal");
            }
            return None;
        };
        let path = Self::join(t.path, "goal");
        let rule = match &node.value {
            Value::Array(_) => GoalRule::Point(self.point(node, &path)?),
            Value::String(s) if s == "opposite" => GoalRule::Keyword(GoalKeyword::Opposite),
            Value::Table(entries) if entries.len() == 1 && entries[0].0 == "through" => {
                GoalRule::Through { through: self.point(&entries[0].1, &format!("{path}.through"))? }
            }
            Value::Table(entries) if entries.len() == 1 && entries[0].0 == "offset" => {
                GoalRule::Offset { offset: self.point(&entries[0].1, &format!("{path}.offset"))? }
            }
            _ => {
                self.problem(
                    node.line,
                    path,
                    format!(
                        "expected [x, y], \"opposite\", {{ through = [x, y] }} or {{ offset = [dx, dy] }}, found {}",
                        describe(node)
                    ),
                );
                return None;
            }
        };
        if !opposite_allowed && rule == GoalRule::Keyword(GoalKeyword::Opposite) {
            self.problem(node.line, path, "\"opposite\" needs a centre; use { through = [x, y] } here");
            return None;
        }
        Some(rule)
    }

    fn region(&mut self, t: Table, allow_empty: bool) -> Option<(Point, Point)> {
        let min = self.req_point(t, "min");
        let max = self.req_point(t, "max");
        let (min, max) = (min?, max?);
        let ok = if allow_empty { min[0] <= max[0] && min[1] <= max[1] } else { min[0] < max[0] && min[1] < max[1] };
        if !ok {
            let line = t.node.get("max").and_then(|n| n.line);
            let relation = if allow_empty { "at least" } else { "greater than" };
            self.problem(line, Self::join(t.path, "max"), format!("each coordinate must be {relation} min's"));
            return None;
        }
        Some((min, max))
    }

    /// Reads the whole scenario; `None` when any problem was found.
    pub fn scenario(&mut self, root: &Node) -> Option<Scenario> {
        let t = self.expect_table(root, "")?;
        self.check_keys(
            t,
            &[
                "name",
                "description",
                "time_step",
                "steps",
                "stop",
                "goal_tolerance",
                "navigation",
                "roadmap",
                "perturbation",
                "agent_defaults",
                "agents",
                "circle",
                "grid",
                "random",
                "spawn",
                "obstacles",
                "balls",
                "extensions",
            ],
        );
        let name = self.opt_string(t, "name");
        if name.is_none() && t.node.get("name").is_none() {
            self.missing(t, "name");
        }
        let description = self.opt_string(t, "description").unwrap_or_default();
        let time_step = self.req_number(t, "time_step", Range::Positive);
        let steps = self.req_count(t, "steps", 1);
        let stop = match self.opt_string(t, "stop").as_deref() {
            None | Some("steps") => StopRule::Steps,
            Some("all-at-goal") => StopRule::AllAtGoal,
            Some(other) => {
                let line = t.node.get("stop").and_then(|n| n.line);
                self.problem(line, "stop".into(), format!("expected \"steps\" or \"all-at-goal\", got \"{other}\""));
                StopRule::Steps
            }
        };
        let goal_tolerance = self.opt_number(t, "goal_tolerance", Range::Positive);
        let navigation = match self.opt_string(t, "navigation").as_deref() {
            None | Some("straight") => Navigation::Straight,
            Some("roadmap") => Navigation::Roadmap,
            Some(other) => {
                let line = t.node.get("navigation").and_then(|n| n.line);
                self.problem(
                    line,
                    "navigation".into(),
                    format!("expected \"straight\" or \"roadmap\", got \"{other}\""),
                );
                Navigation::Straight
            }
        };
        let roadmap = match t.node.get("roadmap").and_then(|n| self.expect_table(n, "roadmap")) {
            Some(r) => {
                self.check_keys(r, &["margin", "vertices"]);
                let margin = self.opt_number(r, "margin", Range::NonNegative).unwrap_or(0.0);
                let vertices = self.point_list(r, "vertices", 0).unwrap_or_default();
                RoadmapSpec { margin, vertices }
            }
            None => RoadmapSpec::default(),
        };
        let perturbation =
            t.node.get("perturbation").and_then(|n| self.expect_table(n, "perturbation")).and_then(|p| {
                self.check_keys(p, &["magnitude", "seed"]);
                let magnitude = self.req_number(p, "magnitude", Range::NonNegative);
                if p.node.get("seed").is_none() {
                    self.missing(p, "seed");
                }
                let seed = self.opt_seed(p, "seed");
                Some(Perturbation { magnitude: magnitude?, seed: seed? })
            });
        let agent_defaults = match t.node.get("agent_defaults").and_then(|n| self.expect_table(n, "agent_defaults")) {
            Some(d) => {
                self.check_keys(d, &PARAM_KEYS);
                self.params(d)
            }
            None => ParamOverrides::default(),
        };
        let agents = self.tables(t, "agents", |r, a| {
            r.check_keys(a, &with_params(&["position", "goal", "group"]));
            let position = r.req_point(a, "position");
            let goal = r.opt_point(a, "goal");
            let group = r.opt_string(a, "group");
            let params = r.params(a);
            Some(AgentSpec { position: position?, goal, group, params })
        });
        let circle = self.tables(t, "circle", |r, c| {
            r.check_keys(c, &with_params(&["count", "center", "ring_radius", "goal", "group"]));
            let count = r.req_count(c, "count", 1);
            let center = r.opt_point(c, "center").unwrap_or([0.0, 0.0]);
            let ring_radius = r.req_number(c, "ring_radius", Range::Positive);
            let goal = r.goal(c, false, true).unwrap_or(GoalRule::Keyword(GoalKeyword::Opposite));
            let group = r.opt_string(c, "group");
            let params = r.params(c);
            Some(CircleGenerator { count: count?, center, ring_radius: ring_radius?, goal, group, params })
        });
        let grid = self.tables(t, "grid", |r, g| {
            r.check_keys(g, &with_params(&["origin", "columns", "rows", "spacing", "goal", "group"]));
            let origin = r.req_point(g, "origin");
            let columns = r.req_count(g, "columns", 1);
            let rows = r.req_count(g, "rows", 1);
            let spacing = r.req_point(g, "spacing");
            let goal = r.goal(g, true, true);
            let group = r.opt_string(g, "group");
            let params = r.params(g);
            Some(GridGenerator {
                origin: origin?,
                columns: columns?,
                rows: rows?,
                spacing: spacing?,
                goal: goal?,
                group,
                params,
            })
        });
        let random = self.tables(t, "random", |r, g| {
            r.check_keys(g, &with_params(&["count", "min", "max", "seed", "goal", "group"]));
            let count = r.req_count(g, "count", 1);
            let region = r.region(g, false);
            if g.node.get("seed").is_none() {
                r.missing(g, "seed");
            }
            let seed = r.opt_seed(g, "seed");
            let goal = r.goal(g, true, true);
            let group = r.opt_string(g, "group");
            let params = r.params(g);
            let (min, max) = region?;
            Some(RandomGenerator { count: count?, min, max, seed: seed?, goal: goal?, group, params })
        });
        let spawn = self.tables(t, "spawn", |r, s| {
            r.check_keys(
                s,
                &with_params(&["rate", "limit", "min", "max", "start", "seed", "goal", "remove_at_goal", "group"]),
            );
            let rate = r.req_number(s, "rate", Range::Positive);
            let limit = r.req_count(s, "limit", 1);
            let region = r.region(s, true);
            let start = r.opt_number(s, "start", Range::NonNegative).unwrap_or(0.0);
            let seed = r.opt_seed(s, "seed").unwrap_or(0);
            let goal = r.goal(s, true, false);
            let remove_at_goal = r.opt_bool(s, "remove_at_goal").unwrap_or(false);
            let group = r.opt_string(s, "group");
            let params = r.params(s);
            let (min, max) = region?;
            Some(SpawnGenerator {
                rate: rate?,
                limit: limit?,
                min,
                max,
                start,
                seed,
                goal: goal?,
                remove_at_goal,
                group,
                params,
            })
        });
        let obstacles = self.tables(t, "obstacles", |r, o| {
            r.check_keys(o, &["vertices"]);
            let vertices = r.point_list(o, "vertices", 2)?;
            let as_vec: Vec<Vec2> = vertices.iter().map(|p| Vec2::from(*p)).collect();
            if let Err(e) = validate_polygon(&as_vec) {
                let line = o.node.get("vertices").and_then(|n| n.line);
                r.problem(line, Self::join(o.path, "vertices"), e.to_string());
                return None;
            }
            Some(ObstacleSpec { vertices })
        });
        let balls = t.node.get("balls").and_then(|n| self.expect_table(n, "balls")).and_then(|b| self.balls(b));
        let extensions = match t.node.get("extensions").and_then(|n| self.expect_table(n, "extensions")) {
            Some(e) => {
                self.check_keys(e, &["symmetry_breaking", "safe_mode", "strict_speed_limit"]);
                ExtensionsSpec {
                    symmetry_breaking: self.opt_bool(e, "symmetry_breaking").unwrap_or(false),
                    safe_mode: self.opt_bool(e, "safe_mode").unwrap_or(false),
                    strict_speed_limit: self.opt_bool(e, "strict_speed_limit").unwrap_or(false),
                }
            }
            None => ExtensionsSpec::default(),
        };

        // Cross-key checks, once each part read cleanly.
        let scenario = Scenario {
            name: name?,
            description,
            time_step: time_step?,
            steps: steps?,
            stop,
            goal_tolerance,
            navigation,
            roadmap,
            perturbation,
            agent_defaults,
            agents,
            circle,
            grid,
            random,
            spawn,
            obstacles,
            balls,
            extensions,
        };
        if !self.problems.is_empty() {
            return None;
        }
        let total = scenario.agents.len()
            + scenario.circle.len()
            + scenario.grid.len()
            + scenario.random.len()
            + scenario.spawn.len()
            + scenario.balls.as_ref().map_or(0, |b| b.ball.len() + b.random.len());
        if total == 0 {
            self.problem(None, String::new(), "the scenario has no agents and no balls");
        }
        if scenario.stop == StopRule::AllAtGoal
            && total == scenario.balls.as_ref().map_or(0, |b| b.ball.len() + b.random.len())
        {
            let line = t.node.get("stop").and_then(|n| n.line);
            self.problem(
                line,
                "stop".into(),
                "\"all-at-goal\" needs agents (a scene of balls only would stop at once)",
            );
        }
        if scenario.navigation == Navigation::Roadmap {
            for (k, s) in scenario.spawn.iter().enumerate() {
                if !matches!(s.goal, GoalRule::Point(_)) {
                    let line = line_in(t.node, "spawn", k, "goal");
                    self.problem(line, format!("spawn[{k}].goal"), "must be a point [x, y] with roadmap navigation");
                }
            }
        }
        if scenario.name.is_empty() {
            let line = t.node.get("name").and_then(|n| n.line);
            self.problem(line, "name".into(), "must not be empty");
        }
        self.problems.is_empty().then_some(scenario)
    }

    fn point_list(&mut self, t: Table, key: &str, min_len: usize) -> Option<Vec<Point>> {
        let Some(node) = t.node.get(key) else {
            if min_len > 0 {
                self.missing(t, key);
            }
            return None;
        };
        let path = Self::join(t.path, key);
        let Value::Array(items) = &node.value else {
            self.problem(
                node.line,
                path,
                format!("expected a list of points [[x, y], ...], found {}", node.value.kind()),
            );
            return None;
        };
        if items.len() < min_len {
            self.problem(node.line, path.clone(), format!("needs at least {min_len} points, got {}", items.len()));
        }
        let points: Vec<Option<Point>> =
            items.iter().enumerate().map(|(i, item)| self.point(item, &format!("{path}[{i}]"))).collect();
        if items.len() < min_len {
            return None;
        }
        points.into_iter().collect()
    }

    fn balls(&mut self, b: Table) -> Option<BallsSpec> {
        self.check_keys(b, &["broad_phase", "bounds", "ball", "random", "agents_avoid", "linear_damping"]);
        let agents_avoid = self.opt_bool(b, "agents_avoid").unwrap_or(true);
        let linear_damping = self.opt_number(b, "linear_damping", Range::NonNegative).unwrap_or(0.0);
        let broad_phase = match self.opt_string(b, "broad_phase") {
            Some(name) if BROAD_PHASE_NAMES.contains(&name.as_str()) => name,
            Some(name) => {
                let line = b.node.get("broad_phase").and_then(|n| n.line);
                self.problem(
                    line,
                    "balls.broad_phase".into(),
                    format!("unknown broad phase \"{name}\" (expected one of: {})", BROAD_PHASE_NAMES.join(", ")),
                );
                return None;
            }
            None => "sort-and-sweep".to_string(),
        };
        let bounds = b.node.get("bounds").and_then(|n| self.expect_table(n, "balls.bounds")).and_then(|bt| {
            self.check_keys(bt, &["min", "max"]);
            self.region(bt, false).map(|(min, max)| BoundsSpec { min, max })
        });
        let ball = self.tables(b, "ball", |r, t| {
            r.check_keys(t, &["position", "velocity", "radius", "mass", "restitution", "kinematic"]);
            let position = r.req_point(t, "position");
            let velocity = r.opt_point(t, "velocity").unwrap_or([0.0, 0.0]);
            let radius = r.req_number(t, "radius", Range::Positive);
            let mass = r.opt_number(t, "mass", Range::Positive).unwrap_or(1.0);
            let restitution = r.opt_number(t, "restitution", Range::Unit).unwrap_or(1.0);
            let kinematic = r.opt_bool(t, "kinematic").unwrap_or(false);
            Some(BallSpec { position: position?, velocity, radius: radius?, mass, restitution, kinematic })
        });
        let random = self.tables(b, "random", |r, t| {
            r.check_keys(t, &["count", "min", "max", "radius", "speed", "restitution", "seed"]);
            let count = r.req_count(t, "count", 1);
            let region = r.region(t, false);
            let radius = r.req_point(t, "radius");
            let speed = r.req_point(t, "speed");
            let restitution = r.opt_number(t, "restitution", Range::Unit).unwrap_or(1.0);
            if t.node.get("seed").is_none() {
                r.missing(t, "seed");
            }
            let seed = r.opt_seed(t, "seed");
            if let Some([lo, hi]) = radius {
                if !(lo > 0.0 && lo <= hi) {
                    let line = t.node.get("radius").and_then(|n| n.line);
                    r.problem(line, Reader::join(t.path, "radius"), "needs 0 < low ≤ high");
                    return None;
                }
            }
            if let Some([lo, hi]) = speed {
                if !(lo >= 0.0 && lo <= hi) {
                    let line = t.node.get("speed").and_then(|n| n.line);
                    r.problem(line, Reader::join(t.path, "speed"), "needs 0 ≤ low ≤ high");
                    return None;
                }
            }
            let (min, max) = region?;
            Some(RandomBalls { count: count?, min, max, radius: radius?, speed: speed?, restitution, seed: seed? })
        });
        Some(BallsSpec { broad_phase, bounds, ball, random, agents_avoid, linear_damping })
    }
}

/// The line of `key` inside element `index` of the array of tables `array`.
fn line_in(root: &Node, array: &str, index: usize, key: &str) -> Option<usize> {
    let Value::Array(items) = &root.get(array)?.value else { return None };
    let item = items.get(index)?;
    item.get(key).and_then(|n| n.line).or(item.line)
}

/// Allowed ranges of numbers.
#[derive(Clone, Copy)]
enum Range {
    Positive,
    NonNegative,
    Unit,
}

impl Range {
    fn test(self, v: f32) -> Result<(), &'static str> {
        match self {
            Range::Positive if v <= 0.0 => Err("greater than 0"),
            Range::NonNegative if v < 0.0 => Err("at least 0"),
            Range::Unit if !(0.0..=1.0).contains(&v) => Err("between 0 and 1"),
            _ => Ok(()),
        }
    }
}

fn with_params(keys: &[&'static str]) -> Vec<&'static str> {
    keys.iter().copied().chain(PARAM_KEYS).collect()
}

fn describe(node: &Node) -> String {
    match &node.value {
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::String(s) => format!("\"{s}\""),
        other => other.kind().to_string(),
    }
}
