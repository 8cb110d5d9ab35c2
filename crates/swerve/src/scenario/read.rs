//! Reading a [`Node`] tree into a [`Scenario`], collecting every problem instead of stopping at
//! the first: wrong types, unknown or missing keys, out-of-range numbers, bad polygons.

use super::document::{Node, Value};
use super::model::*;
use super::route::{Route, RouteRepeat};
use super::Problem;
use crate::geom::validate_polygon;
use crate::Vec2;

/// Collects problems while reading.
#[derive(Default)]
pub(crate) struct Reader {
    pub problems: Vec<Problem>,
    /// Agents the entries read so far create (saturating), to hold the file to [`MAX_AGENTS`].
    agents: usize,
    /// Balls the entries read so far create (saturating), to hold the file to [`MAX_BALLS`].
    balls: usize,
    /// Spheres the entries read so far create (saturating), for `MAX_SPHERES`.
    pub(super) spheres: usize,
}

/// A table being read: its node and its key path (`circle[0]`).
#[derive(Clone, Copy)]
pub(super) struct Table<'a> {
    pub node: &'a Node,
    pub path: &'a str,
}

/// The top-level keys of a (2-D) scenario; the first four ([`HEADER_KEYS`]) are every
/// scenario's.
pub(super) const SCENARIO_KEYS: [&str; 19] = [
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
    "movers",
    "balls",
    "extensions",
];

/// The keys of [`Reader::header`].
pub(super) const HEADER_KEYS: [&str; 4] = ["name", "description", "time_step", "steps"];

/// The keys every scenario starts with, as read (`None` where a problem was reported).
pub(super) struct Header {
    pub name: Option<String>,
    pub description: String,
    pub time_step: Option<f32>,
    pub steps: Option<usize>,
}

pub(super) const PARAM_KEYS: [&str; 9] = [
    "neighbor_dist",
    "max_neighbors",
    "time_horizon",
    "time_horizon_obst",
    "radius",
    "max_speed",
    "max_acceleration",
    "avoidance_layers",
    "avoidance_mask",
];

impl Reader {
    pub(super) fn problem(&mut self, line: Option<usize>, key: String, message: impl Into<String>) {
        self.problems.push(Problem { line, key, message: message.into() });
    }

    pub(super) fn join(path: &str, key: &str) -> String {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    }

    /// Reports keys not in `known` (typos would otherwise be silently ignored).
    pub(super) fn check_keys(&mut self, t: Table, known: &[&str]) {
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

    pub(super) fn expect_table<'a>(&mut self, node: &'a Node, path: &'a str) -> Option<Table<'a>> {
        if let Value::Table(_) = node.value {
            Some(Table { node, path })
        } else {
            self.problem(node.line, path.to_string(), format!("expected a table, found {}", node.value.kind()));
            None
        }
    }

    pub(super) fn number(&mut self, node: &Node, path: &str) -> Option<f32> {
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

    pub(super) fn opt_number(&mut self, t: Table, key: &str, check: Range) -> Option<f32> {
        let node = t.node.get(key)?;
        let path = Self::join(t.path, key);
        let value = self.number(node, &path)?;
        if let Err(requirement) = check.test(value) {
            self.problem(node.line, path, format!("must be {requirement}, got {value}"));
            return None;
        }
        Some(value)
    }

    pub(super) fn missing(&mut self, t: Table, key: &str) {
        self.problem(t.node.line, Self::join(t.path, key), "missing key");
    }

    pub(super) fn req_number(&mut self, t: Table, key: &str, check: Range) -> Option<f32> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_number(t, key, check)
    }

    pub(super) fn opt_integer(&mut self, t: Table, key: &str, min: i64) -> Option<i64> {
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

    /// A 32-bit mask of avoidance layers: an integer from 0 to `u32::MAX` (TOML's `0b101` and
    /// `0x5` are integers too). A float, even a whole one, is refused: a mask is bits, not a
    /// quantity.
    pub(super) fn opt_bitmask(&mut self, t: Table, key: &str) -> Option<u32> {
        let node = t.node.get(key)?;
        let path = Self::join(t.path, key);
        match node.value {
            Value::Integer(i) => match u32::try_from(i) {
                Ok(mask) => Some(mask),
                Err(_) => {
                    let message = format!("must be between 0 and {} (a 32-bit mask of layers), got {i}", u32::MAX);
                    self.problem(node.line, path, message);
                    None
                }
            },
            _ => {
                let message = format!("expected an integer bitmask (0 to {}), found {}", u32::MAX, describe(node));
                self.problem(node.line, path, message);
                None
            }
        }
    }

    pub(super) fn req_count(&mut self, t: Table, key: &str, min: i64) -> Option<usize> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_integer(t, key, min).map(|i| i as usize)
    }

    /// `value` (read from `key`) when at most `max`; otherwise a problem that names `limit`,
    /// the reason for the maximum.
    pub(super) fn at_most(
        &mut self,
        t: Table,
        key: &str,
        value: Option<usize>,
        max: usize,
        limit: &str,
    ) -> Option<usize> {
        let value = value?;
        if value > max {
            let line = t.node.get(key).and_then(|n| n.line);
            self.problem(line, Self::join(t.path, key), format!("must be at most {max} ({limit}), got {value}"));
            return None;
        }
        Some(value)
    }

    /// Adds `count` agents made by `key` of `t` to the file's total; the entry that takes the
    /// total past [`MAX_AGENTS`] is reported (once: later entries only add to the excess).
    pub(super) fn count_agents(&mut self, t: Table, key: &str, count: usize) {
        self.agents = self.add_to_limit(t, key, self.agents, count, MAX_AGENTS, "agents");
    }

    /// [`Reader::count_agents`] for balls and [`MAX_BALLS`].
    fn count_balls(&mut self, t: Table, key: &str, count: usize) {
        self.balls = self.add_to_limit(t, key, self.balls, count, MAX_BALLS, "balls");
    }

    /// `before + count` (saturating), reporting `key` of `t` if that is what passes `max`.
    pub(super) fn add_to_limit(
        &mut self,
        t: Table,
        key: &str,
        before: usize,
        count: usize,
        max: usize,
        noun: &str,
    ) -> usize {
        let total = before.saturating_add(count);
        if before <= max && total > max {
            let line = t.node.get(key).and_then(|n| n.line).or(t.node.line);
            let path = if key.is_empty() { t.path.to_string() } else { Self::join(t.path, key) };
            let message = format!("brings the file's {noun} to {total}, more than the limit of {max} per file");
            self.problem(line, path, message);
        }
        total
    }

    pub(super) fn opt_seed(&mut self, t: Table, key: &str) -> Option<u64> {
        self.opt_integer(t, key, 0).map(|i| i as u64)
    }

    pub(super) fn opt_string(&mut self, t: Table, key: &str) -> Option<String> {
        let node = t.node.get(key)?;
        match &node.value {
            Value::String(s) => Some(s.clone()),
            other => {
                self.problem(node.line, Self::join(t.path, key), format!("expected a string, found {}", other.kind()));
                None
            }
        }
    }

    pub(super) fn opt_bool(&mut self, t: Table, key: &str) -> Option<bool> {
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

    /// `N` numbers (`[x, y]` or `[x, y, z]`), each checked by [`Reader::number`]; `what` names
    /// the expected shape in the problem (`"a point [x, y]"`).
    pub(super) fn numbers<const N: usize>(&mut self, node: &Node, path: &str, what: &str) -> Option<[f32; N]> {
        if let Value::Array(items) = &node.value {
            if items.len() == N {
                // Every item is checked (and reported) before giving up on the array.
                let mut values = [0.0; N];
                let mut all_read = true;
                for (i, item) in items.iter().enumerate() {
                    match self.number(item, &format!("{path}[{i}]")) {
                        Some(v) => values[i] = v,
                        None => all_read = false,
                    }
                }
                return all_read.then_some(values);
            }
        }
        self.problem(node.line, path.to_string(), format!("expected {what}, found {}", describe(node)));
        None
    }

    /// A point of `N` coordinates (`[x, y]` in the plane, `[x, y, z]` in space).
    pub(super) fn vector<const N: usize>(&mut self, node: &Node, path: &str) -> Option<[f32; N]> {
        self.numbers(node, path, &format!("a point {}", coordinates(N)))
    }

    fn point(&mut self, node: &Node, path: &str) -> Option<Point> {
        self.vector(node, path)
    }

    pub(super) fn opt_vector<const N: usize>(&mut self, t: Table, key: &str) -> Option<[f32; N]> {
        let node = t.node.get(key)?;
        self.vector(node, &Self::join(t.path, key))
    }

    pub(super) fn req_vector<const N: usize>(&mut self, t: Table, key: &str) -> Option<[f32; N]> {
        if t.node.get(key).is_none() {
            self.missing(t, key);
        }
        self.opt_vector(t, key)
    }

    fn opt_point(&mut self, t: Table, key: &str) -> Option<Point> {
        self.opt_vector(t, key)
    }

    fn req_point(&mut self, t: Table, key: &str) -> Option<Point> {
        self.req_vector(t, key)
    }

    /// An array of tables (`[[circle]]`), each handed to `read` with its path.
    pub(super) fn tables<T>(
        &mut self,
        t: Table,
        key: &str,
        mut read: impl FnMut(&mut Self, Table) -> Option<T>,
    ) -> Vec<T> {
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

    pub(super) fn params(&mut self, t: Table) -> ParamOverrides {
        ParamOverrides {
            neighbor_dist: self.opt_number(t, "neighbor_dist", Range::NonNegative),
            max_neighbors: {
                let value = self.opt_integer(t, "max_neighbors", 0).map(|i| i as usize);
                self.at_most(t, "max_neighbors", value, MAX_NEIGHBORS, "a count of nearest agents")
            },
            time_horizon: self.opt_number(t, "time_horizon", Range::Positive),
            time_horizon_obst: self.opt_number(t, "time_horizon_obst", Range::Positive),
            radius: self.opt_number(t, "radius", Range::Positive),
            max_speed: self.opt_number(t, "max_speed", Range::NonNegative),
            max_acceleration: self.opt_number(t, "max_acceleration", Range::Positive),
            avoidance_layers: self.opt_bitmask(t, "avoidance_layers"),
            avoidance_mask: self.opt_bitmask(t, "avoidance_mask"),
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

    /// The box `min`–`max` of `t` (`N` coordinates each); with `allow_empty`, `min = max` is
    /// allowed (a point).
    pub(super) fn region<const N: usize>(&mut self, t: Table, allow_empty: bool) -> Option<([f32; N], [f32; N])> {
        let min = self.req_vector(t, "min");
        let max = self.req_vector(t, "max");
        let (min, max): ([f32; N], [f32; N]) = (min?, max?);
        let ok = (0..N).all(|i| if allow_empty { min[i] <= max[i] } else { min[i] < max[i] });
        if !ok {
            let line = t.node.get("max").and_then(|n| n.line);
            let relation = if allow_empty { "at least" } else { "greater than" };
            self.problem(line, Self::join(t.path, "max"), format!("each coordinate must be {relation} min's"));
            return None;
        }
        // Random points are drawn from max − min, which must not overflow to infinity (the
        // random number generator refuses an infinite range: it would panic).
        if (0..N).any(|i| !(max[i] - min[i]).is_finite()) {
            let line = t.node.get("max").and_then(|n| n.line);
            self.problem(line, Self::join(t.path, "max"), "the region's size (max − min) must be finite");
            return None;
        }
        Some((min, max))
    }

    /// The keys every scenario starts with (`name`, `description`, `time_step`, `steps`).
    pub(super) fn header(&mut self, t: Table) -> Header {
        let name = self.opt_string(t, "name");
        if name.is_none() && t.node.get("name").is_none() {
            self.missing(t, "name");
        }
        if let Some(message) = name.as_deref().and_then(name_problem) {
            let line = t.node.get("name").and_then(|n| n.line);
            self.problem(line, "name".into(), message);
        }
        let description = self.opt_string(t, "description").unwrap_or_default();
        let time_step = self.req_number(t, "time_step", Range::Positive);
        let steps = self.req_count(t, "steps", 1);
        Header { name, description, time_step, steps }
    }

    /// The extensions table at `path` (`key` of `t`): every switch off when absent.
    pub(super) fn extensions(&mut self, t: Table, path: &str) -> ExtensionsSpec {
        let Some(e) = t.node.get("extensions").and_then(|n| self.expect_table(n, path)) else {
            return ExtensionsSpec::default();
        };
        self.check_keys(e, &["symmetry_breaking", "safe_mode", "strict_speed_limit"]);
        ExtensionsSpec {
            symmetry_breaking: self.opt_bool(e, "symmetry_breaking").unwrap_or(false),
            safe_mode: self.opt_bool(e, "safe_mode").unwrap_or(false),
            strict_speed_limit: self.opt_bool(e, "strict_speed_limit").unwrap_or(false),
        }
    }

    /// The top-level `navigation` key (planar and 3-D crowds): `"straight"` (the default) or
    /// `"roadmap"`.
    pub(super) fn navigation(&mut self, t: Table) -> Navigation {
        match self.opt_string(t, "navigation").as_deref() {
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
        }
    }

    /// A `[[movers]]` (planar, `N` = 2) or `[[crowd3d.mover]]` (`N` = 3) entry: its radius,
    /// and a route or a straight motion. The caller asks its simulator about the rest.
    pub(super) fn mover<const N: usize>(&mut self, m: Table) -> Option<MoverSpec<[f32; N]>>
    where
        [f32; N]: Waypoint,
    {
        self.check_keys(m, &["position", "velocity", "radius", "route", "speed", "repeat"]);
        let radius = self.req_number(m, "radius", Range::Positive);
        let motion = if m.node.get("route").is_some() { self.mover_route(m) } else { self.straight_mover(m) };
        Some(MoverSpec { motion: motion?, radius: radius? })
    }

    /// A mover's `route`, `speed` and `repeat` (`position` and `velocity` are the route's).
    fn mover_route<const N: usize>(&mut self, m: Table) -> Option<MoverMotion<[f32; N]>>
    where
        [f32; N]: Waypoint,
    {
        for key in ["position", "velocity"] {
            if let Some(line) = m.node.get(key).map(|n| n.line) {
                let message = "a mover with a route starts at its first waypoint and flies along it at its speed";
                self.problem(line, Reader::join(m.path, key), message.to_string());
            }
        }
        let route: Option<Vec<[f32; N]>> = self.point_list(m, "route", 2);
        let speed = self.req_number(m, "speed", Range::Positive);
        let repeat = match self.opt_string(m, "repeat").as_deref() {
            None | Some("cycle") => Some(RouteRepeat::Cycle),
            Some("back-and-forth") => Some(RouteRepeat::BackAndForth),
            Some("once") => Some(RouteRepeat::Once),
            Some(other) => {
                let line = m.node.get("repeat").and_then(|n| n.line);
                let message = format!("expected \"cycle\", \"back-and-forth\" or \"once\", got \"{other}\"");
                self.problem(line, Reader::join(m.path, "repeat"), message);
                None
            }
        };
        let (route, speed, repeat) = (route?, speed?, repeat?);
        let points: Vec<glam::Vec3> = route.iter().map(|&p| p.to_vec3()).collect();
        if let Err(e) = Route::new(&points, speed, repeat) {
            let line = m.node.get("route").and_then(|n| n.line);
            self.problem(line, Reader::join(m.path, "route"), e.to_string());
            return None;
        }
        Some(MoverMotion::Route { route, speed, repeat })
    }

    /// A straight mover's `position` and `velocity` (`speed` and `repeat` belong to routes).
    fn straight_mover<const N: usize>(&mut self, m: Table) -> Option<MoverMotion<[f32; N]>> {
        for key in ["speed", "repeat"] {
            if let Some(line) = m.node.get(key).map(|n| n.line) {
                self.problem(line, Reader::join(m.path, key), "only with a route".to_string());
            }
        }
        let position = self.req_vector(m, "position");
        let velocity = self.opt_vector(m, "velocity").unwrap_or([0.0; N]);
        Some(MoverMotion::Straight { position: position?, velocity })
    }

    /// The `stop` key of a scenario (`"steps"` when absent).
    pub(super) fn stop_rule(&mut self, t: Table) -> StopRule {
        match self.opt_string(t, "stop").as_deref() {
            None | Some("steps") => StopRule::Steps,
            Some("all-at-goal") => StopRule::AllAtGoal,
            Some(other) => {
                let line = t.node.get("stop").and_then(|n| n.line);
                self.problem(line, "stop".into(), format!("expected \"steps\" or \"all-at-goal\", got \"{other}\""));
                StopRule::Steps
            }
        }
    }

    /// Reads the whole scenario; `None` when any problem was found.
    pub fn scenario(&mut self, root: &Node) -> Option<Scenario> {
        let t = self.expect_table(root, "")?;
        self.check_keys(t, &SCENARIO_KEYS);
        let Header { name, description, time_step, steps } = self.header(t);
        let stop = self.stop_rule(t);
        let goal_tolerance = self.opt_number(t, "goal_tolerance", Range::Positive);
        let navigation = self.navigation(t);
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
            r.count_agents(a, "", 1);
            Some(AgentSpec { position: position?, goal, group, params })
        });
        let circle = self.tables(t, "circle", |r, c| {
            r.check_keys(c, &with_params(&["count", "center", "ring_radius", "goal", "group"]));
            let count = r.req_count(c, "count", 1);
            let count = r.at_most(c, "count", count, MAX_AGENTS, AGENT_LIMIT);
            if let Some(n) = count {
                r.count_agents(c, "count", n);
            }
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
            let columns = r.at_most(g, "columns", columns, MAX_AGENTS, AGENT_LIMIT);
            let rows = r.req_count(g, "rows", 1);
            let rows = r.at_most(g, "rows", rows, MAX_AGENTS, AGENT_LIMIT);
            if let (Some(columns), Some(rows)) = (columns, rows) {
                // Each factor is at most MAX_AGENTS, so the product fits in u64.
                let agents = columns as u64 * rows as u64;
                if agents > MAX_AGENTS as u64 {
                    let line = g.node.get("rows").and_then(|n| n.line);
                    r.problem(
                        line,
                        Reader::join(g.path, "rows"),
                        format!("columns × rows = {agents} agents, more than the limit of {MAX_AGENTS} per file"),
                    );
                } else {
                    r.count_agents(g, "rows", agents as usize);
                }
            }
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
            let count = r.at_most(g, "count", count, MAX_AGENTS, AGENT_LIMIT);
            if let Some(n) = count {
                r.count_agents(g, "count", n);
            }
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
            // Spawned agents keep their slots (ids are never reused), so they count in full.
            let limit = r.at_most(s, "limit", limit, MAX_AGENTS, AGENT_LIMIT);
            if let Some(n) = limit {
                r.count_agents(s, "limit", n);
            }
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
            r.check_keys(o, &["vertices", "remove_at"]);
            let remove_at = r.opt_number(o, "remove_at", Range::NonNegative);
            let vertices = r.point_list(o, "vertices", 2)?;
            let as_vec: Vec<Vec2> = vertices.iter().map(|p| Vec2::from(*p)).collect();
            if let Err(e) = validate_polygon(&as_vec) {
                let line = o.node.get("vertices").and_then(|n| n.line);
                r.problem(line, Self::join(o.path, "vertices"), e.to_string());
                return None;
            }
            Some(ObstacleSpec { vertices, remove_at })
        });
        let movers = self.tables(t, "movers", |r, m| {
            let spec: MoverSpec<Point> = r.mover(m)?;
            // The simulator's own rules, from a scratch one.
            let mut scratch = crate::Simulator::new(1.0, crate::AgentParams::default()).ok()?;
            let (position, velocity) = spec.start(spec.route().as_ref(), 1.0);
            let mover = crate::orca::Mover {
                position: position.truncate(),
                velocity: velocity.truncate(),
                radius: spec.radius,
            };
            if let Err(e) = scratch.add_mover(mover) {
                r.problem(m.node.line, m.path.to_string(), e.to_string());
                return None;
            }
            Some(spec)
        });
        let balls = t.node.get("balls").and_then(|n| self.expect_table(n, "balls")).and_then(|b| self.balls(b));
        let extensions = self.extensions(t, "extensions");

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
            movers,
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
        self.problems.is_empty().then_some(scenario)
    }

    /// A list of points of `N` coordinates (`[[x, y], ...]`), at least `min_len` of them.
    pub(super) fn point_list<const N: usize>(&mut self, t: Table, key: &str, min_len: usize) -> Option<Vec<[f32; N]>> {
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
                format!("expected a list of points [{}, ...], found {}", coordinates(N), node.value.kind()),
            );
            return None;
        };
        if items.len() < min_len {
            self.problem(node.line, path.clone(), format!("needs at least {min_len} points, got {}", items.len()));
        }
        let points: Vec<Option<[f32; N]>> =
            items.iter().enumerate().map(|(i, item)| self.vector(item, &format!("{path}[{i}]"))).collect();
        if items.len() < min_len {
            return None;
        }
        points.into_iter().collect()
    }

    /// `radius` when its area π r² is finite: the physics world refuses larger balls (their
    /// area, and so a random ball's mass, would be infinite).
    fn area_finite(&mut self, t: Table, key: &str, radius: f32) -> Option<f32> {
        if (std::f32::consts::PI * radius * radius).is_finite() {
            return Some(radius);
        }
        let line = t.node.get(key).and_then(|n| n.line);
        self.problem(
            line,
            Self::join(t.path, key),
            format!("must be below 1.04e19 (its area π r² must be finite), got {radius}"),
        );
        None
    }

    fn balls(&mut self, b: Table) -> Option<BallsSpec> {
        self.check_keys(
            b,
            &[
                "broad_phase",
                "bounds",
                "ball",
                "random",
                "agents_avoid",
                "linear_damping",
                "gravity",
                "solver_iterations",
                "substeps",
            ],
        );
        let agents_avoid = self.opt_bool(b, "agents_avoid").unwrap_or(true);
        let linear_damping = self.opt_number(b, "linear_damping", Range::NonNegative).unwrap_or(0.0);
        let gravity = self.opt_point(b, "gravity").unwrap_or([0.0, 0.0]);
        let solver_iterations = self.opt_integer(b, "solver_iterations", 1).map(|i| i as usize);
        let solver_iterations = self
            .at_most(b, "solver_iterations", solver_iterations, 1_000, "the solver's limit")
            .unwrap_or(crate::physics::World::DEFAULT_SOLVER_ITERATIONS);
        let substeps = self.opt_integer(b, "substeps", 1).map(|i| i as usize);
        let max_substeps = crate::physics::World::MAX_SUBSTEPS;
        let substeps = self.at_most(b, "substeps", substeps, max_substeps, "the world's limit").unwrap_or(1);
        let broad_phase = match self.opt_string(b, "broad_phase") {
            Some(name) if BROAD_PHASE_NAMES.contains(&name.as_str()) => name,
            Some(name) => {
                let line = b.node.get("broad_phase").and_then(|n| n.line);
                self.problem(
                    line,
                    "balls.broad_phase".into(),
                    format!("unknown broad phase \"{name}\" (expected one of: {})", BROAD_PHASE_NAMES.join(", ")),
                );
                // Keep reading: the problem already fails the file, and the rest of
                // `[balls]` may have problems of its own to report.
                "sort-and-sweep".to_string()
            }
            None => "sort-and-sweep".to_string(),
        };
        let bounds = b.node.get("bounds").and_then(|n| self.expect_table(n, "balls.bounds")).and_then(|bt| {
            self.check_keys(bt, &["min", "max"]);
            self.region(bt, false).map(|(min, max)| BoundsSpec { min, max })
        });
        let ball = self.tables(b, "ball", |r, t| {
            r.check_keys(
                t,
                &[
                    "position",
                    "velocity",
                    "radius",
                    "mass",
                    "restitution",
                    "friction",
                    "rolling_resistance",
                    "angular_velocity",
                    "kinematic",
                ],
            );
            let position = r.req_point(t, "position");
            let velocity = r.opt_point(t, "velocity").unwrap_or([0.0, 0.0]);
            let radius = r.req_number(t, "radius", Range::Positive);
            let mass = r.opt_number(t, "mass", Range::Positive).unwrap_or(1.0);
            let restitution = r.opt_number(t, "restitution", Range::Unit).unwrap_or(1.0);
            let friction = r.opt_number(t, "friction", Range::NonNegative).unwrap_or(0.0);
            let rolling_resistance = r.opt_number(t, "rolling_resistance", Range::NonNegative).unwrap_or(0.0);
            let angular_velocity = r.opt_number(t, "angular_velocity", Range::Any).unwrap_or(0.0);
            let kinematic = r.opt_bool(t, "kinematic").unwrap_or(false);
            let radius = radius.and_then(|radius| r.area_finite(t, "radius", radius));
            r.count_balls(t, "", 1);
            let ball = BallSpec {
                position: position?,
                velocity,
                radius: radius?,
                mass,
                restitution,
                friction,
                rolling_resistance,
                angular_velocity,
                kinematic,
            };
            // The physics world refuses a ball that does not fit inside its walls (the run
            // would fail without a line); a kinematic ball passes through walls, so it may.
            if let (Some(bounds), false) = (bounds, kinematic) {
                if !fits_inside(&ball, &bounds) {
                    let [x, y] = ball.position;
                    r.problem(
                        t.node.line,
                        t.path.to_string(),
                        format!(
                            "a ball of radius {} at ({x}, {y}) does not fit inside balls.bounds (only a \
                             kinematic ball may be outside)",
                            ball.radius
                        ),
                    );
                    return None;
                }
            }
            Some(ball)
        });
        let random = self.tables(b, "random", |r, t| {
            let kind = RandomKind {
                bounds: bounds.map(|b| (b.min, b.max)),
                bounds_key: "balls.bounds",
                limit: (MAX_BALLS, BALL_LIMIT),
                count: Reader::count_balls,
                interval: Reader::req_point,
                largest_radius: |r, t, key, radius| r.area_finite(t, key, radius),
            };
            let e = r.random_entry(t, kind)?;
            Some(RandomBalls {
                count: e.count,
                min: e.min,
                max: e.max,
                radius: e.radius,
                speed: e.speed,
                restitution: e.restitution,
                friction: e.friction,
                rolling_resistance: e.rolling_resistance,
                seed: e.seed,
            })
        });
        Some(BallsSpec {
            broad_phase,
            bounds,
            ball,
            random,
            agents_avoid,
            linear_damping,
            gravity,
            solver_iterations,
            substeps,
        })
    }
}

/// The values of a `[[balls.random]]` or `[[spheres.random]]` entry, in `N` dimensions.
pub(super) struct RandomEntry<const N: usize> {
    pub count: usize,
    pub min: [f32; N],
    pub max: [f32; N],
    pub radius: [f32; 2],
    pub speed: [f32; 2],
    pub restitution: f32,
    pub friction: f32,
    pub rolling_resistance: f32,
    pub seed: u64,
}

/// What the planar and the 3-D random entries do differently.
pub(super) struct RandomKind<const N: usize> {
    /// The world's walls, if any (the region must lie inside them), and their key.
    pub bounds: Option<([f32; N], [f32; N])>,
    pub bounds_key: &'static str,
    /// The most bodies one file may create, and the reason its problem gives.
    pub limit: (usize, &'static str),
    /// Adds `count` bodies to the file's total (reporting `key` past the limit).
    pub count: fn(&mut Reader, Table, &str, usize),
    /// Reads `[low, high]` at `key`.
    pub interval: fn(&mut Reader, Table, &str) -> Option<[f32; 2]>,
    /// Checks the largest radius the world must take (`None`: reported).
    pub largest_radius: fn(&mut Reader, Table, &str, f32) -> Option<f32>,
}

impl Reader {
    /// One random entry: `count` bodies in the region `min`–`max` (inside the walls), radii
    /// and speeds uniform in `[low, high]`, and the bodies' material.
    pub(super) fn random_entry<const N: usize>(&mut self, t: Table, kind: RandomKind<N>) -> Option<RandomEntry<N>> {
        self.check_keys(
            t,
            &["count", "min", "max", "radius", "speed", "restitution", "friction", "rolling_resistance", "seed"],
        );
        let count = self.req_count(t, "count", 1);
        let count = self.at_most(t, "count", count, kind.limit.0, kind.limit.1);
        if let Some(n) = count {
            (kind.count)(self, t, "count", n);
        }
        let region = self.region(t, false);
        // Bodies lie wholly inside their region, so a region inside the walls keeps them
        // inside too; one reaching past the walls could place a body the world refuses.
        if let (Some((low, high)), Some((min, max))) = (kind.bounds, region) {
            for (key, corner) in [("min", min), ("max", max)] {
                if !(0..N).all(|i| low[i] <= corner[i] && corner[i] <= high[i]) {
                    let line = t.node.get(key).and_then(|n| n.line);
                    self.problem(line, Reader::join(t.path, key), format!("must lie inside {}", kind.bounds_key));
                }
            }
        }
        let radius = (kind.interval)(self, t, "radius");
        let speed = (kind.interval)(self, t, "speed");
        let restitution = self.opt_number(t, "restitution", Range::Unit).unwrap_or(1.0);
        let friction = self.opt_number(t, "friction", Range::NonNegative).unwrap_or(0.0);
        let rolling_resistance = self.opt_number(t, "rolling_resistance", Range::NonNegative).unwrap_or(0.0);
        if t.node.get("seed").is_none() {
            self.missing(t, "seed");
        }
        let seed = self.opt_seed(t, "seed");
        if let Some([low, high]) = radius {
            if !(low > 0.0 && low <= high) {
                let line = t.node.get("radius").and_then(|n| n.line);
                self.problem(line, Reader::join(t.path, "radius"), "needs 0 < low ≤ high");
                return None;
            }
            (kind.largest_radius)(self, t, "radius", high)?;
        }
        if let Some([low, high]) = speed {
            if !(low >= 0.0 && low <= high) {
                let line = t.node.get("speed").and_then(|n| n.line);
                self.problem(line, Reader::join(t.path, "speed"), "needs 0 ≤ low ≤ high");
                return None;
            }
        }
        let (min, max) = region?;
        Some(RandomEntry {
            count: count?,
            min,
            max,
            radius: radius?,
            speed: speed?,
            restitution,
            friction,
            rolling_resistance,
            seed: seed?,
        })
    }
}

/// The line of `key` inside element `index` of the array of tables `array`.
pub(super) fn line_in(root: &Node, array: &str, index: usize, key: &str) -> Option<usize> {
    let Value::Array(items) = &root.get(array)?.value else { return None };
    let item = items.get(index)?;
    item.get(key).and_then(|n| n.line).or(item.line)
}

/// Allowed ranges of numbers.
#[derive(Clone, Copy)]
pub(super) enum Range {
    Any,
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

/// Why the counts of generators are limited, as their problems say.
pub(super) const AGENT_LIMIT: &str = "the limit of agents per file";
/// Why the counts of random balls are limited.
const BALL_LIMIT: &str = "the limit of balls per file";

/// Whether a ball lies inside `bounds` by the physics world's rule (`World::add_ball`: in f32,
/// min + r ≤ position ≤ max − r on both axes).
fn fits_inside(ball: &BallSpec, bounds: &BoundsSpec) -> bool {
    let r = ball.radius;
    (0..2).all(|i| bounds.min[i] + r <= ball.position[i] && ball.position[i] <= bounds.max[i] - r)
}

/// Why `name` cannot be a scenario name, if it cannot. `swerve run` writes to `out/NAME`, so
/// a name must be one plain path component: nothing that climbs out of the output folder
/// (`..`, separators, an absolute path), hides the folder (a leading dot) or cannot be a file
/// name at all (NUL; other control characters garble listings).
fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("must not be empty")
    } else if name.starts_with('.') {
        Some("must not start with '.' (it names the output folder out/NAME)")
    } else if name.contains(['/', '\\']) {
        Some("must not contain '/' or '\\' (it names the output folder out/NAME)")
    } else if name.chars().any(char::is_control) {
        Some("must not contain control characters such as NUL or a line break")
    } else {
        None
    }
}

pub(super) fn with_params(keys: &[&'static str]) -> Vec<&'static str> {
    keys.iter().copied().chain(PARAM_KEYS).collect()
}

/// How a problem writes a point of `n` coordinates: `[x, y]` or `[x, y, z]`.
fn coordinates(n: usize) -> &'static str {
    if n == 3 {
        "[x, y, z]"
    } else {
        "[x, y]"
    }
}

pub(super) fn describe(node: &Node) -> String {
    match &node.value {
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::String(s) => format!("\"{s}\""),
        other => other.kind().to_string(),
    }
}
