//! Reading a 3-D crowd scenario (a `[crowd3d]` table) with the planar reader's checks,
//! collecting every problem with its line and key. What only the simulator knows (a box too
//! thin, a mesh triangle without area or an index beyond its vertices) is asked of
//! [`crate::orca3d`] itself, and its error becomes the entry's problem.

use super::crowd3d::{
    Agent3dSpec, BoxObstacleSpec, Crowd3dScenario, Crowd3dSpec, GoalRule3d, LatticeGenerator, MeshObstacleSpec,
    Random3dGenerator, Roadmap3dSpec, Spawn3dGenerator, SphereGenerator,
};
use super::document::{Node, Value};
use super::model::{GoalKeyword, MoverSpec, ParamOverrides, MAX_AGENTS};
use super::read::{
    describe, with_params, Header, Range, Reader, Table, AGENT_LIMIT, HEADER_KEYS, PARAM_KEYS, SCENARIO_KEYS,
};
use super::spheres::Point3;
use crate::orca3d::{AgentParams, Mover, Simulator, Triangle, Vec3};
use crate::Error;

/// The top-level keys of a 3-D crowd scenario besides [`HEADER_KEYS`].
const CROWD3D_TOP_KEYS: [&str; 5] = ["stop", "goal_tolerance", "navigation", "roadmap", "crowd3d"];

/// The keys of `[crowd3d]`.
const CROWD3D_KEYS: [&str; 10] =
    ["agent_defaults", "extensions", "agent", "sphere", "lattice", "random", "spawn", "box", "mesh", "mover"];

impl Reader {
    /// Reads a whole 3-D crowd scenario; `None` when any problem was found.
    pub(super) fn crowd3d_scenario(&mut self, root: &Node) -> Option<Crowd3dScenario> {
        let t = self.expect_table(root, "")?;
        self.check_crowd3d_top_level_keys(t);
        let Header { name, description, time_step, steps } = self.header(t);
        let stop = self.stop_rule(t);
        let goal_tolerance = self.opt_number(t, "goal_tolerance", Range::Positive);
        let navigation = self.navigation(t);
        let roadmap = match t.node.get("roadmap").and_then(|n| self.expect_table(n, "roadmap")) {
            Some(r) => {
                self.check_keys(r, &["margin", "edge_spacing", "vertices"]);
                let margin = self.opt_number(r, "margin", Range::NonNegative).unwrap_or(0.0);
                let edge_spacing = self.opt_number(r, "edge_spacing", Range::Positive);
                let vertices = self.point_list(r, "vertices", 0).unwrap_or_default();
                Roadmap3dSpec { margin, edge_spacing, vertices }
            }
            None => Roadmap3dSpec::default(),
        };
        let crowd3d = match t.node.get("crowd3d") {
            Some(node) => self.expect_table(node, "crowd3d").map(|c| self.crowd3d_table(c)),
            None => {
                self.missing(t, "crowd3d");
                None
            }
        };
        let scenario = Crowd3dScenario {
            name: name?,
            description,
            time_step: time_step?,
            steps: steps?,
            stop,
            goal_tolerance,
            navigation,
            roadmap,
            crowd3d: crowd3d?,
        };
        if !self.problems.is_empty() {
            return None;
        }
        let c = &scenario.crowd3d;
        if c.agent.is_empty()
            && c.sphere.is_empty()
            && c.lattice.is_empty()
            && c.random.is_empty()
            && c.spawn.is_empty()
        {
            let line = t.node.get("crowd3d").and_then(|n| n.line);
            let message = "no agents (add [[crowd3d.agent]], [[crowd3d.sphere]], [[crowd3d.lattice]], \
                           [[crowd3d.random]] or [[crowd3d.spawn]] entries)";
            self.problem(line, "crowd3d".into(), message);
            return None;
        }
        Some(scenario)
    }

    /// Like [`Reader::check_keys`], but a planar scenario's key gets its own message: the
    /// file mixes two kinds of scenario.
    fn check_crowd3d_top_level_keys(&mut self, t: Table) {
        let Value::Table(entries) = &t.node.value else { return };
        let known: Vec<&str> = HEADER_KEYS.iter().chain(&CROWD3D_TOP_KEYS).copied().collect();
        for (key, node) in entries {
            if known.contains(&key.as_str()) {
                continue;
            }
            let message = if key == "spheres" {
                "a 3-D ball scenario's table: a file is either a crowd ([crowd3d]) or a ball world ([spheres])"
                    .to_string()
            } else if SCENARIO_KEYS.contains(&key.as_str()) {
                format!(
                    "a 2-D scenario's key: a file with [crowd3d] is a 3-D crowd, whose {} go inside [crowd3d]",
                    if key == "agents" { "agents ([[crowd3d.agent]])" } else { "settings and entries" }
                )
            } else {
                format!("unknown key (expected one of: {})", known.join(", "))
            };
            self.problem(node.line, key.clone(), message);
        }
    }

    fn crowd3d_table(&mut self, c: Table) -> Crowd3dSpec {
        self.check_keys(c, &CROWD3D_KEYS);
        let agent_defaults =
            match c.node.get("agent_defaults").and_then(|n| self.expect_table(n, "crowd3d.agent_defaults")) {
                Some(d) => {
                    self.check_keys(d, &PARAM_KEYS);
                    self.params(d)
                }
                None => ParamOverrides::default(),
            };
        let extensions = self.extensions(c, "crowd3d.extensions");
        let agent = self.tables(c, "agent", |r, a| {
            r.check_keys(a, &with_params(&["position", "goal", "group"]));
            let position = r.req_vector(a, "position");
            let goal = r.opt_vector(a, "goal");
            let group = r.opt_string(a, "group");
            let params = r.params(a);
            r.count_agents(a, "", 1);
            Some(Agent3dSpec { position: position?, goal, group, params })
        });
        let sphere = self.tables(c, "sphere", |r, s| {
            r.check_keys(s, &with_params(&["count", "center", "sphere_radius", "goal", "group"]));
            let count = r.agent_count(s, "count");
            let center = r.opt_vector(s, "center").unwrap_or([0.0; 3]);
            let sphere_radius = r.req_number(s, "sphere_radius", Range::Positive);
            let goal = r.goal3d(s, false).unwrap_or(GoalRule3d::Keyword(GoalKeyword::Opposite));
            let group = r.opt_string(s, "group");
            let params = r.params(s);
            Some(SphereGenerator { count: count?, center, sphere_radius: sphere_radius?, goal, group, params })
        });
        let lattice = self.tables(c, "lattice", |r, l| {
            r.check_keys(l, &with_params(&["origin", "columns", "rows", "layers", "spacing", "goal", "group"]));
            let origin = r.req_vector(l, "origin");
            let mut sides = ["columns", "rows", "layers"].map(|key| {
                let value = r.req_count(l, key, 1);
                r.at_most(l, key, value, MAX_AGENTS, AGENT_LIMIT)
            });
            if let [Some(columns), Some(rows), Some(layers)] = sides {
                // Each factor is at most MAX_AGENTS, so the product fits in u128.
                let agents = columns as u128 * rows as u128 * layers as u128;
                if agents > MAX_AGENTS as u128 {
                    let line = l.node.get("layers").and_then(|n| n.line);
                    r.problem(
                        line,
                        Reader::join(l.path, "layers"),
                        format!(
                            "columns × rows × layers = {agents} agents, more than the limit of {MAX_AGENTS} per file"
                        ),
                    );
                    sides = [None; 3];
                } else {
                    r.count_agents(l, "layers", agents as usize);
                }
            }
            let spacing = r.req_vector(l, "spacing");
            let goal = r.goal3d(l, true);
            let group = r.opt_string(l, "group");
            let params = r.params(l);
            let [columns, rows, layers] = sides;
            Some(LatticeGenerator {
                origin: origin?,
                columns: columns?,
                rows: rows?,
                layers: layers?,
                spacing: spacing?,
                goal: goal?,
                group,
                params,
            })
        });
        let random = self.tables(c, "random", |r, g| {
            r.check_keys(g, &with_params(&["count", "min", "max", "seed", "goal", "group"]));
            let count = r.agent_count(g, "count");
            let region = r.region::<3>(g, false);
            if g.node.get("seed").is_none() {
                r.missing(g, "seed");
            }
            let seed = r.opt_seed(g, "seed");
            let goal = r.goal3d(g, true);
            let group = r.opt_string(g, "group");
            let params = r.params(g);
            let (min, max) = region?;
            Some(Random3dGenerator { count: count?, min, max, seed: seed?, goal: goal?, group, params })
        });
        let spawn = self.tables(c, "spawn", |r, s| {
            r.check_keys(
                s,
                &with_params(&["rate", "limit", "min", "max", "start", "seed", "goal", "remove_at_goal", "group"]),
            );
            let rate = r.req_number(s, "rate", Range::Positive);
            // Spawned agents keep their ids (never reused), so they count in full.
            let limit = r.agent_count(s, "limit");
            let region = r.region::<3>(s, true);
            let start = r.opt_number(s, "start", Range::NonNegative).unwrap_or(0.0);
            let seed = r.opt_seed(s, "seed").unwrap_or(0);
            let goal = r.goal3d(s, true);
            if goal == Some(GoalRule3d::Keyword(GoalKeyword::Opposite)) {
                let line = s.node.get("goal").and_then(|n| n.line);
                let message = "\"opposite\" needs a centre; use { through = [x, y, z] } here";
                r.problem(line, Reader::join(s.path, "goal"), message);
            }
            let remove_at_goal = r.opt_bool(s, "remove_at_goal").unwrap_or(false);
            let group = r.opt_string(s, "group");
            let params = r.params(s);
            let (min, max) = region?;
            Some(Spawn3dGenerator {
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
        let boxes = self.tables(c, "box", |r, b| {
            r.check_keys(b, &["min", "max", "remove_at"]);
            let remove_at = r.opt_number(b, "remove_at", Range::NonNegative);
            let (min, max) = r.region::<3>(b, false)?;
            // The simulator's own rule (a box at least 1e-4 m thick), from a scratch one.
            let mut scratch = Simulator::new(1.0, AgentParams::default()).ok()?;
            if let Err(e) = scratch.add_box_obstacle(Vec3::from(min), Vec3::from(max)) {
                r.problem(b.node.line, b.path.to_string(), e.to_string());
                return None;
            }
            Some(BoxObstacleSpec { min, max, remove_at })
        });
        let mesh = self.tables(c, "mesh", |r, m| r.obstacle_mesh(m));
        let mover = self.tables(c, "mover", |r, m| {
            let spec: MoverSpec = r.mover(m)?;
            // The simulator's own rules, from a scratch one.
            let mut scratch = Simulator::new(1.0, AgentParams::default()).ok()?;
            let (position, velocity) = spec.start(spec.route().as_ref(), 1.0);
            if let Err(e) = scratch.add_mover(Mover { position, velocity, radius: spec.radius }) {
                r.problem(m.node.line, m.path.to_string(), e.to_string());
                return None;
            }
            Some(spec)
        });
        Crowd3dSpec { agent_defaults, extensions, agent, sphere, lattice, random, spawn, boxes, mesh, mover }
    }

    /// A generator's agent count at `key` (≥ 1, within the file's limit), added to the total.
    fn agent_count(&mut self, t: Table, key: &str) -> Option<usize> {
        let count = self.req_count(t, key, 1);
        let count = self.at_most(t, key, count, MAX_AGENTS, AGENT_LIMIT);
        if let Some(n) = count {
            self.count_agents(t, key, n);
        }
        count
    }

    /// One `[[crowd3d.mesh]]`: vertices and index triangles ([`Triangle::mesh`] decides).
    fn obstacle_mesh(&mut self, m: Table) -> Option<MeshObstacleSpec> {
        self.check_keys(m, &["vertices", "triangles", "remove_at"]);
        let remove_at = self.opt_number(m, "remove_at", Range::NonNegative);
        let vertices: Option<Vec<Point3>> = self.point_list(m, "vertices", 3);
        let triangles = self.index_triangles(m, "triangles");
        let (vertices, triangles) = (vertices?, triangles?);
        let as_vec: Vec<Vec3> = vertices.iter().map(|&v| Vec3::from(v)).collect();
        if let Err(e) = Triangle::mesh(&as_vec, &triangles) {
            let line = m.node.get("triangles").and_then(|n| n.line);
            let message = match e {
                Error::DegenerateTriangle { triangle } => {
                    format!("triangle {triangle} has no area (its corners are repeated or in a line)")
                }
                other => other.to_string(),
            };
            self.problem(line, Reader::join(m.path, "triangles"), message);
            return None;
        }
        Some(MeshObstacleSpec { vertices, triangles, remove_at })
    }

    /// `[[i, j, k], ...]` at `key` of `t`: at least one triangle of vertex indices.
    fn index_triangles(&mut self, t: Table, key: &str) -> Option<Vec<[u32; 3]>> {
        let Some(node) = t.node.get(key) else {
            self.missing(t, key);
            return None;
        };
        let path = Reader::join(t.path, key);
        let expected = "a list of triangles [[i, j, k], ...] of vertex indices (integers from 0)";
        let Value::Array(items) = &node.value else {
            self.problem(node.line, path, format!("expected {expected}, found {}", describe(node)));
            return None;
        };
        if items.is_empty() {
            self.problem(node.line, path, "needs at least one triangle");
            return None;
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let indices = match &item.value {
                Value::Array(corners) if corners.len() == 3 => corners
                    .iter()
                    .map(|c| match c.value {
                        Value::Integer(v) => u32::try_from(v).ok(),
                        _ => None,
                    })
                    .collect::<Option<Vec<u32>>>(),
                _ => None,
            };
            match indices {
                Some(v) => out.push([v[0], v[1], v[2]]),
                None => {
                    let message =
                        format!("expected [i, j, k] of vertex indices (integers from 0), found {}", describe(item));
                    self.problem(item.line.or(node.line), format!("{path}[{i}]"), message);
                }
            }
        }
        (out.len() == items.len()).then_some(out)
    }

    /// The `goal` of a 3-D entry (`required`: a problem when absent).
    fn goal3d(&mut self, t: Table, required: bool) -> Option<GoalRule3d> {
        let Some(node) = t.node.get("goal") else {
            if required {
                self.missing(t, "goal");
            }
            return None;
        };
        let path = Reader::join(t.path, "goal");
        match &node.value {
            Value::Array(_) => Some(GoalRule3d::Point(self.vector(node, &path)?)),
            Value::String(s) if s == "opposite" => Some(GoalRule3d::Keyword(GoalKeyword::Opposite)),
            Value::Table(entries) if entries.len() == 1 && entries[0].0 == "through" => {
                Some(GoalRule3d::Through { through: self.vector(&entries[0].1, &format!("{path}.through"))? })
            }
            Value::Table(entries) if entries.len() == 1 && entries[0].0 == "offset" => {
                Some(GoalRule3d::Offset { offset: self.vector(&entries[0].1, &format!("{path}.offset"))? })
            }
            _ => {
                let message = format!(
                    "expected [x, y, z], \"opposite\", {{ through = [x, y, z] }} or {{ offset = [dx, dy, dz] }}, found {}",
                    describe(node)
                );
                self.problem(node.line, path, message);
                None
            }
        }
    }
}
