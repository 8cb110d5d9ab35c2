//! The server without a browser: only the embedded files are served, the stream carries the
//! library's own numbers, and bad WebSocket input closes only the connection that sent it.

use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::time::Duration;
use swerve_viewer::frame::decode;
use swerve_viewer::{scenes, LiveScene, Viewer, ViewerConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Starts a paused viewer of the obstacles scene on a free port; it stops when the returned
/// sender is dropped.
async fn start() -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    start_with(Box::new(scenes::obstacles().unwrap())).await
}

async fn start_with(scene: Box<dyn LiveScene>) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let config = ViewerConfig { port: 0, playing: false, ..ViewerConfig::default() };
    let viewer = Viewer::bind(config).await.unwrap();
    let addr = viewer.local_addr();
    assert!(addr.ip().is_loopback(), "the default must be loopback, got {addr}");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(viewer.run_until(scene, async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// Sends a raw HTTP/1.1 GET (no client-side path normalisation) and returns status and body.
async fn raw_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}

async fn connect(addr: SocketAddr) -> Socket {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap().0
}

async fn next(socket: &mut Socket) -> Option<Message> {
    match tokio::time::timeout(Duration::from_secs(10), socket.next()).await {
        Ok(Some(Ok(message))) => Some(message),
        Ok(_) => None,
        Err(_) => panic!("no message within 10 s"),
    }
}

/// Reads until a frame of step `step` arrives; returns its bytes.
async fn frame_of_step(socket: &mut Socket, step: u32) -> Vec<u8> {
    loop {
        match next(socket).await.expect("connection closed while waiting for a frame") {
            Message::Binary(bytes) if decode(&bytes).unwrap().0.step == step => return bytes.to_vec(),
            _ => {}
        }
    }
}

async fn send(socket: &mut Socket, text: &str) {
    socket.send(Message::Text(text.into())).await.unwrap();
}

/// Reads until the server closes; returns the close code if it sent a close frame.
async fn closed_with(socket: &mut Socket) -> Option<CloseCode> {
    loop {
        match next(socket).await {
            Some(Message::Close(frame)) => return frame.map(|f| f.code),
            Some(_) => {}
            None => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_embedded_files_are_served() {
    let (addr, _stop) = start().await;
    let (status, page) = raw_get(addr, "/").await;
    assert_eq!(status, 200);
    assert!(page.contains("<canvas id=\"scene\""));
    let (status, script) = raw_get(addr, "/viewer.js").await;
    assert_eq!(status, 200);
    assert!(script.contains("text/javascript") && script.contains("new WebSocket"));
    for path in [
        "/nope",
        "/index.html",
        "/web/viewer.js",
        "/src/lib.rs",
        "/Cargo.toml",
        "/../Cargo.toml",
        "/../../../../etc/passwd",
        "/..%2fCargo.toml",
        "/%2e%2e/%2e%2e/Cargo.toml",
        "/viewer.js/../../Cargo.toml",
        "/./viewer.css/..",
        "//etc/passwd",
        "/..\\Cargo.toml",
        "/api/inspect/999999",
    ] {
        let (status, body) = raw_get(addr, path).await;
        assert_eq!(status, 404, "{path} gave {status}");
        assert!(!body.contains("[package]") && !body.contains("root:"), "{path} leaked a file");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_and_inspector_carry_the_library_values() {
    let (addr, _stop) = start().await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(scene)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let scene: serde_json::Value = serde_json::from_str(&scene).unwrap();
    assert_eq!(scene["type"], "scene");
    assert_eq!(scene["ids"].as_array().unwrap().len(), 100);
    const STEPS: u32 = 5;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    let bytes = frame_of_step(&mut socket, STEPS).await;
    let (header, positions) = decode(&bytes).unwrap();
    assert!(!header.playing);

    // The oracle: the same scene stepped here, in this process.
    let mut oracle = scenes::obstacles().unwrap();
    for _ in 0..STEPS {
        oracle.step();
    }
    let sim = oracle.simulator().unwrap();
    assert_eq!(positions.len(), sim.num_agents());
    for (got, want) in positions.iter().zip(sim.positions()) {
        assert_eq!((got.x.to_bits(), got.y.to_bits()), (want.x.to_bits(), want.y.to_bits()));
    }

    // The agent with the most obstacle half-planes, so both kinds are checked.
    let id = *sim.agent_ids().iter().max_by_key(|id| sim.agent_obstacle_half_plane_count(**id).unwrap()).unwrap();
    assert!(sim.agent_obstacle_half_plane_count(id).unwrap() > 0);
    send(&mut socket, &format!(r#"{{"cmd":"inspect","agent":{}}}"#, id.0)).await;
    let report = loop {
        if let Some(Message::Text(text)) = next(&mut socket).await {
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "inspect" {
                break value;
            }
        }
    };
    assert_eq!(report["step"], STEPS);
    let planes = sim.agent_half_planes(id).unwrap();
    let sent = report["half_planes"].as_array().unwrap();
    assert_eq!(sent.len(), planes.len());
    assert_eq!(report["obstacle_half_planes"], sim.agent_obstacle_half_plane_count(id).unwrap());
    for (k, (json, plane)) in sent.iter().zip(planes).enumerate() {
        let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
        assert_eq!(f(&json["point"][0]).to_bits(), plane.point.x.to_bits(), "half-plane {k}");
        assert_eq!(f(&json["direction"][1]).to_bits(), plane.direction.y.to_bits(), "half-plane {k}");
        let kind = if k < sim.agent_obstacle_half_plane_count(id).unwrap() { "obstacle" } else { "agent" };
        assert_eq!(json["kind"], kind);
    }
    let velocity = sim.agent_velocity(id).unwrap();
    assert_eq!((report["velocity"][0].as_f64().unwrap() as f32).to_bits(), velocity.x.to_bits());
    let lp = match sim.agent_lp_outcome(id).unwrap() {
        swerve::orca::linear_program::LpOutcome::Feasible => "LP2",
        _ => "LP3",
    };
    assert_eq!(report["outcome"]["program"], lp);

    // The JSON API answers the same.
    let (status, body) = raw_get(addr, &format!("/api/inspect/{}", id.0)).await;
    assert_eq!(status, 200);
    let api: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(api["half_planes"], report["half_planes"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_close_only_their_connection() {
    let (addr, _stop) = start().await;
    let mut observer = connect(addr).await;
    let bad: [(Message, Option<CloseCode>); 6] = [
        (Message::Text("garbage".into()), Some(CloseCode::Policy)),
        (Message::Text(r#"{"cmd":"shutdown"}"#.into()), Some(CloseCode::Policy)),
        (Message::Text(r#"{"cmd":"speed","steps_per_second":-5}"#.into()), Some(CloseCode::Policy)),
        (Message::Text(r#"{"cmd":"inspect","agent":1,"path":"../x"}"#.into()), Some(CloseCode::Policy)),
        (Message::Binary(vec![0u8; 16].into()), Some(CloseCode::Unsupported)),
        // Over the 1 KiB limit: the server drops the connection (tungstenite may or may not
        // get a close frame out first).
        (Message::Text("x".repeat(64 * 1024).into()), None),
    ];
    for (step, (message, expected)) in bad.into_iter().enumerate() {
        let mut attacker = connect(addr).await;
        // Sending may fail if the server already dropped us; that is fine.
        let _ = attacker.send(message).await;
        let code = closed_with(&mut attacker).await;
        if expected.is_some() {
            assert_eq!(code, expected, "case {step}");
        }
        // The other connection still works: it can step and sees the new frame.
        send(&mut observer, r#"{"cmd":"step"}"#).await;
        let bytes = frame_of_step(&mut observer, step as u32 + 1).await;
        assert_eq!(decode(&bytes).unwrap().1.len(), 100);
    }
    // And new connections are still served.
    let mut late = connect(addr).await;
    assert!(matches!(next(&mut late).await, Some(Message::Text(_))));
    assert!(matches!(next(&mut late).await, Some(Message::Binary(_))));
    assert_eq!(raw_get(addr, "/").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_origin_websockets_are_refused() {
    let (addr, _stop) = start().await;
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a cross-origin WebSocket was accepted");
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    request.headers_mut().insert("origin", format!("http://{addr}").parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert!(matches!(next(&mut socket).await, Some(Message::Text(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_returns_to_the_initial_state_under_a_new_version() {
    let (addr, _stop) = start().await;
    let mut socket = connect(addr).await;
    let initial = frame_of_step(&mut socket, 0).await;
    send(&mut socket, r#"{"cmd":"step"}"#).await;
    let _ = frame_of_step(&mut socket, 1).await;
    send(&mut socket, r#"{"cmd":"reset"}"#).await;
    let after = frame_of_step(&mut socket, 0).await;
    let (h0, p0) = decode(&initial).unwrap();
    let (h1, p1) = decode(&after).unwrap();
    assert_eq!(h1.version, h0.version + 1);
    assert_eq!(p0, p1);
}

/// A crowd that loses its first agent at every step (as agents leaving at their goal do).
struct Shrinking {
    sim: swerve::Simulator,
}

impl LiveScene for Shrinking {
    fn name(&self) -> &str {
        "shrinking"
    }
    fn step(&mut self) {
        if let Some(first) = self.sim.agent_ids().first().copied() {
            self.sim.remove_agent(first).unwrap();
        }
        self.sim.step();
    }
    fn reset(&mut self) {}
    fn time(&self) -> f64 {
        f64::from(self.sim.global_time())
    }
    fn simulator(&self) -> Option<&swerve::Simulator> {
        Some(&self.sim)
    }
    fn goals(&self) -> &[swerve::Vec2] {
        &[]
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_population_gets_a_new_scene_description_before_its_frame() {
    let mut sim = swerve::Simulator::new(0.25, swerve::AgentParams::default()).unwrap();
    for i in 0..3 {
        sim.add_agent(swerve::Vec2::new(10.0 * i as f32, 0.0)).unwrap();
    }
    let (addr, _stop) = start_with(Box::new(Shrinking { sim })).await;
    let mut socket = connect(addr).await;
    send(&mut socket, r#"{"cmd":"step"}"#).await;
    let mut described: Option<(u64, Vec<u64>)> = None;
    loop {
        match next(&mut socket).await.expect("closed") {
            Message::Text(text) => {
                let scene: serde_json::Value = serde_json::from_str(&text).unwrap();
                let ids = scene["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
                described = Some((scene["version"].as_u64().unwrap(), ids));
            }
            Message::Binary(bytes) => {
                let (header, positions) = decode(&bytes).unwrap();
                let (version, ids) = described.clone().expect("a frame before any scene description");
                assert_eq!(u64::from(header.version), version, "frame of an undescribed scene version");
                assert_eq!(ids.len(), positions.len());
                if header.step == 1 {
                    assert_eq!(ids, vec![1, 2]);
                    break;
                }
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_commands_is_bounded_and_the_server_keeps_answering() {
    let (addr, _stop) = start().await;
    let mut flooder = connect(addr).await;
    const FLOOD: u32 = 5000;
    for _ in 0..FLOOD {
        send(&mut flooder, r#"{"cmd":"step"}"#).await;
    }
    // Another page still connects and gets the scene and a frame.
    let mut other = connect(addr).await;
    assert!(matches!(next(&mut other).await, Some(Message::Text(_))));
    assert!(matches!(next(&mut other).await, Some(Message::Binary(_))));
    // Once the queue drains, the API answers; at most every queued step ran.
    let mut state = None;
    for _ in 0..200 {
        let (status, body) = raw_get(addr, "/api/state").await;
        if status == 200 {
            state = Some(serde_json::from_str::<serde_json::Value>(body.split("\r\n\r\n").nth(1).unwrap()).unwrap());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let state = state.expect("the API never answered after the flood");
    let steps = state["step"].as_u64().unwrap();
    assert!(steps >= 1 && steps <= u64::from(FLOOD), "{steps} steps");
}

// ----- 3-D scenes -----

/// Reads until a 3-D frame of step `step` arrives; returns its header and positions.
async fn frame3d_of_step(
    socket: &mut Socket,
    step: u32,
) -> (swerve_viewer::frame::FrameHeader, Vec<swerve::orca3d::Vec3>) {
    loop {
        match next(socket).await.expect("connection closed while waiting for a frame") {
            Message::Binary(bytes) if swerve_viewer::frame::decode_header(&bytes).unwrap().step == step => {
                assert!(decode(&bytes).is_none(), "a 3-D frame must not parse as a planar one");
                return swerve_viewer::frame::decode_3d(&bytes).expect("a whole 3-D frame");
            }
            _ => {}
        }
    }
}

/// A small crowd in RVO2-3D's Sphere arrangement: `n` agents on a golden-angle spiral over a
/// sphere sized so that neighbours start about 10 m apart, each flying to its antipode.
fn sphere_crowd(n: usize) -> swerve_viewer::Orca3dScene {
    use swerve::orca3d::{AgentParams, Simulator, Vec3};
    let mut sim = Simulator::new(0.125, AgentParams::default()).unwrap();
    let radius = 10.0 * (n as f32 / (4.0 * std::f32::consts::PI)).sqrt();
    let mut goals = Vec::new();
    for i in 0..n {
        let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
        let angle = i as f32 * 2.399_963;
        let ring = (1.0 - z * z).sqrt();
        let p = Vec3::new(ring * angle.cos(), ring * angle.sin(), z) * radius;
        sim.add_agent(p).unwrap();
        goals.push(-p);
    }
    let toward = |goal: Vec3, position: Vec3| (goal - position).clamp_length_max(1.0);
    swerve_viewer::Orca3dScene::new("sphere crowd", sim, goals, toward).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sphere_frames_carry_the_worlds_positions_and_the_description_its_triangles() {
    let (addr, _stop) = start_with(swerve_viewer::scenes::by_name("hourglass3d", None).unwrap()).await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(scene)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let scene: serde_json::Value = serde_json::from_str(&scene).unwrap();
    assert_eq!(scene["dimensions"], 3);
    const STEPS: u32 = 4;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    let (header, positions) = frame3d_of_step(&mut socket, STEPS).await;
    assert!(header.three_d && !header.playing);

    // The oracle: the same scenario stepped here.
    let mut oracle = swerve_viewer::scenes::hourglass3d().unwrap();
    for _ in 0..STEPS {
        oracle.step();
    }
    let world = oracle.world3d().unwrap();
    assert_eq!((header.agents, header.balls as usize), (0, world.num_spheres()));
    assert_eq!(positions.len(), world.num_spheres());
    for (got, sphere) in positions.iter().zip(world.spheres()) {
        let want = sphere.position;
        assert_eq!(
            (got.x.to_bits(), got.y.to_bits(), got.z.to_bits()),
            (want.x.to_bits(), want.y.to_bits(), want.z.to_bits())
        );
    }
    let stats = world.last_step_stats();
    assert_eq!((header.candidate_pairs as usize, header.contacts as usize), (stats.candidate_pairs, stats.contacts));
    // The static triangles and the box are in the description, corner for corner.
    let triangles = scene["triangles"].as_array().unwrap();
    assert_eq!(triangles.len(), world.triangles().len());
    assert!(triangles.len() >= 9);
    for (json, t) in triangles.iter().zip(world.triangles()) {
        let corner = |k: usize, c: usize| json[k][c].as_f64().unwrap() as f32;
        assert_eq!((corner(0, 0), corner(1, 1), corner(2, 2)), (t.a.x, t.b.y, t.c.z));
    }
    let bounds = world.bounds().unwrap();
    assert_eq!(scene["box3"][2].as_f64().unwrap() as f32, bounds.min.z);
    assert_eq!(scene["ball_radii"].as_array().unwrap().len(), world.num_spheres());
    let radius = scene["ball_radii"][0].as_f64().unwrap() as f32;
    assert_eq!(radius, world.spheres()[0].radius);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crowd_frames_and_inspector_in_3d_carry_the_library_values() {
    let (addr, _stop) = start_with(Box::new(sphere_crowd(64))).await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(scene)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let scene: serde_json::Value = serde_json::from_str(&scene).unwrap();
    assert_eq!((scene["dimensions"].as_u64(), scene["ids"].as_array().unwrap().len()), (Some(3), 64));
    assert_eq!(scene["goals3"].as_array().unwrap().len(), 64);
    const STEPS: u32 = 6;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    let (header, positions) = frame3d_of_step(&mut socket, STEPS).await;

    let mut oracle = sphere_crowd(64);
    for _ in 0..STEPS {
        oracle.step();
    }
    let sim = oracle.simulator3d().unwrap();
    assert_eq!((header.agents as usize, header.balls), (sim.num_agents(), 0));
    for (got, want) in positions.iter().zip(sim.positions()) {
        assert_eq!(
            (got.x.to_bits(), got.y.to_bits(), got.z.to_bits()),
            (want.x.to_bits(), want.y.to_bits(), want.z.to_bits())
        );
    }

    // Every agent's report equals the library's planes, neighbours and outcome, bit for bit.
    let mut with_planes = 0;
    for id in sim.agent_ids() {
        let (status, body) = raw_get(addr, &format!("/api/inspect/{}", id.0)).await;
        assert_eq!(status, 200);
        let report: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!((report["dimensions"].as_u64(), report["step"].as_u64()), (Some(3), Some(u64::from(STEPS))));
        let planes = sim.agent_planes(*id).unwrap();
        let sent = report["planes"].as_array().unwrap();
        assert_eq!(sent.len(), planes.len(), "agent {}", id.0);
        with_planes += usize::from(!planes.is_empty());
        let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
        for (json, plane) in sent.iter().zip(planes) {
            for c in 0..3 {
                assert_eq!(f(&json["point"][c]).to_bits(), plane.point[c].to_bits());
                assert_eq!(f(&json["normal"][c]).to_bits(), plane.normal[c].to_bits());
            }
        }
        let lp = match sim.agent_lp_outcome(*id).unwrap() {
            swerve::orca::linear_program::LpOutcome::Feasible => serde_json::json!({"program": "LP3"}),
            swerve::orca::linear_program::LpOutcome::Fallback { first_infeasible } => {
                serde_json::json!({"program": "LP4", "first_infeasible": first_infeasible})
            }
        };
        assert_eq!(report["outcome"], lp);
        let neighbors: Vec<u64> = sim.agent_neighbors(*id).unwrap().map(|n| u64::from(n.0)).collect();
        let sent: Vec<u64> = report["neighbors"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(sent, neighbors);
        let velocity = sim.agent_velocity(*id).unwrap();
        assert_eq!(f(&report["velocity"][2]).to_bits(), velocity.z.to_bits());
    }
    assert!(with_planes > 32, "only {with_planes} of 64 agents had planes");

    // The per-agent summary counts the same planes; the WebSocket inspect message is the API's.
    let (_, body) = raw_get(addr, "/api/agents").await;
    let summary: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let first = &summary["agents"][0];
    assert_eq!(first[1].as_u64().unwrap() as usize, sim.agent_planes(sim.agent_ids()[0]).unwrap().len());
    send(&mut socket, r#"{"cmd":"inspect","agent":5}"#).await;
    let report = loop {
        if let Some(Message::Text(text)) = next(&mut socket).await {
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "inspect" {
                break value;
            }
        }
    };
    let (_, body) = raw_get(addr, "/api/inspect/5").await;
    let api: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(report, api);
    assert_eq!(raw_get(addr, "/api/inspect/64").await.0, 404);
}

/// The towers: the description carries the crowd's obstacle triangles corner for corner, and
/// the inspector and the per-agent summary tell the obstacle planes from the agents' as the
/// library counts them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn towers_describe_their_triangles_and_the_inspector_tells_obstacle_planes_apart() {
    let (addr, _stop) = start_with(swerve_viewer::scenes::by_name("towers3d", Some(40)).unwrap()).await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(scene)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let scene: serde_json::Value = serde_json::from_str(&scene).unwrap();
    assert_eq!(scene["dimensions"], 3);
    let mut oracle = swerve_viewer::scenes::towers3d(40).unwrap();
    let sim = oracle.simulator3d().unwrap();
    let triangles: Vec<swerve::orca3d::Triangle> = sim.obstacles().flat_map(|(_, mesh)| mesh.iter().copied()).collect();
    let sent = scene["triangles"].as_array().unwrap();
    assert_eq!(sent.len(), triangles.len());
    assert!(sent.len() > 100, "{} triangles", sent.len());
    for (json, t) in sent.iter().zip(&triangles) {
        let corner = |k: usize, c: usize| json[k][c].as_f64().unwrap() as f32;
        assert_eq!((corner(0, 0), corner(1, 1), corner(2, 2)), (t.a.x, t.b.y, t.c.z));
    }
    // The bounds hold the towers' tops and the floor.
    let top = triangles.iter().map(|t| t.a.z.max(t.b.z).max(t.c.z)).fold(0.0, f32::max);
    assert_eq!(scene["bounds3"][5].as_f64().unwrap() as f32, top);

    const STEPS: u32 = 240;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    frame3d_of_step(&mut socket, STEPS).await;
    for _ in 0..STEPS {
        oracle.step();
    }
    let sim = oracle.simulator3d().unwrap();
    let (_, body) = raw_get(addr, "/api/agents").await;
    let summary: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let mut with_obstacle_planes = 0;
    for (row, id) in summary["agents"].as_array().unwrap().iter().zip(sim.agent_ids()) {
        let obstacle = sim.agent_obstacle_plane_count(*id).unwrap();
        assert_eq!((row[0].as_u64(), row[2].as_u64()), (Some(u64::from(id.0)), Some(obstacle as u64)));
        if obstacle == 0 {
            continue;
        }
        with_obstacle_planes += 1;
        let (_, body) = raw_get(addr, &format!("/api/inspect/{}", id.0)).await;
        let report: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        let planes = sim.agent_planes(*id).unwrap();
        assert_eq!(report["obstacle_planes"].as_u64(), Some(obstacle as u64));
        assert_eq!(report["agent_planes"].as_u64(), Some((planes.len() - obstacle) as u64));
        assert_eq!(
            report["obstacle_time_horizon"].as_f64(),
            Some(f64::from(swerve_viewer::scenes::TOWERS_OBSTACLE_HORIZON))
        );
        let kinds: Vec<&str> =
            report["planes"].as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
        assert!(kinds[..obstacle].iter().all(|k| *k == "obstacle") && kinds[obstacle..].iter().all(|k| *k == "agent"));
        let normal_z = report["planes"][0]["normal"][2].as_f64().unwrap() as f32;
        assert_eq!(normal_z.to_bits(), planes[0].normal.z.to_bits());
    }
    assert!(with_obstacle_planes > 0, "no drone near a tower or the floor after {STEPS} steps");
}

#[test]
fn bad_3d_scene_names_and_counts_are_one_line_errors() {
    for (name, count) in [
        ("pit3d", Some(0)),
        ("pit3d", Some(swerve_viewer::scenes::MAX_PIT3D_SPHERES + 1)),
        ("pit3d", Some(usize::MAX)),
        ("hourglass3d", Some(600)),
        ("towers3d", Some(1)),
        ("towers3d", Some(swerve_viewer::scenes::MAX_TOWERS_AGENTS + 1)),
        ("pit2d", None),
        ("sphere3", None),
    ] {
        let Err(error) = swerve_viewer::scenes::by_name(name, count) else { panic!("{name} {count:?} was built") };
        let message = error.to_string();
        assert!(!message.contains('\n') && message.contains(name.split('d').next().unwrap()), "{message}");
    }
}

// ----- scenario files -----

/// Two thin walls; the second goes at 0.2 s (step 2 of 0.1 s steps).
const DOOR: &str = r#"
name = "door-test"
time_step = 0.1
steps = 100
[[agents]]
position = [-3.0, 0.0]
goal = [3.0, 0.0]
[[obstacles]]
vertices = [[-5.0, 5.0], [5.0, 5.0]]
[[obstacles]]
vertices = [[0.0, -2.0], [0.0, 2.0]]
remove_at = 0.2
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_obstacle_leaves_the_scene_description_under_a_new_version() {
    let scenario = swerve::scenario::Scenario::from_toml_str(DOOR, "door").unwrap();
    let scene = swerve_viewer::ScenarioScene::new(scenario).unwrap();
    let (addr, _stop) = start_with(Box::new(scene)).await;
    let mut socket = connect(addr).await;
    // The obstacles of the latest description, by its version.
    let mut described: Option<(u64, usize)> = None;
    // (step, version, obstacles described for that version) of every frame seen.
    let mut seen: Vec<(u32, u64, usize)> = Vec::new();
    let mut wanted = 0;
    while wanted <= 4 {
        match next(&mut socket).await.expect("closed") {
            Message::Text(text) => {
                let scene: serde_json::Value = serde_json::from_str(&text).unwrap();
                let obstacles = scene["obstacles"].as_array().unwrap().len();
                described = Some((scene["version"].as_u64().unwrap(), obstacles));
            }
            Message::Binary(bytes) => {
                let (header, _) = decode(&bytes).unwrap();
                let (version, obstacles) = described.expect("a frame before any scene description");
                assert_eq!(u64::from(header.version), version, "frame of an undescribed scene version");
                seen.push((header.step, version, obstacles));
                if header.step == wanted {
                    wanted += 1;
                    if wanted <= 4 {
                        send(&mut socket, r#"{"cmd":"step"}"#).await;
                    }
                }
            }
            _ => {}
        }
    }
    let at = |step: u32| *seen.iter().rev().find(|s| s.0 == step).unwrap();
    assert_eq!((at(0).2, at(1).2), (2, 2), "both walls stand before 0.2 s");
    assert_eq!((at(2).2, at(3).2, at(4).2), (1, 1, 1), "the door is gone from frame 2 on");
    assert_eq!(at(1).1, at(0).1, "nothing changed: the same description");
    assert_eq!(at(2).1, at(1).1 + 1, "the removal publishes a new version");
    assert_eq!(at(4).1, at(2).1);
    // Reset brings the door back, under yet another version.
    send(&mut socket, r#"{"cmd":"reset"}"#).await;
    loop {
        match next(&mut socket).await.expect("closed") {
            Message::Text(text) => {
                let scene: serde_json::Value = serde_json::from_str(&text).unwrap();
                described = Some((scene["version"].as_u64().unwrap(), scene["obstacles"].as_array().unwrap().len()));
            }
            Message::Binary(bytes) => {
                let (header, _) = decode(&bytes).unwrap();
                if header.step == 0 {
                    let (version, obstacles) = described.unwrap();
                    assert_eq!(u64::from(header.version), version);
                    assert!(version > at(4).1);
                    assert_eq!(obstacles, 2);
                    break;
                }
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_3d_crowd_scenario_file_is_served_as_its_runner_steps_it() {
    use swerve::scenario::{AnyScenario, Crowd3dRunner, Crowd3dScenario};
    let scenario = Crowd3dScenario::builtin("window3d").unwrap();
    let scene = swerve_viewer::scenario_scene::scene_of(AnyScenario::Crowd3d(scenario.clone())).unwrap();
    let (addr, _stop) = start_with(scene).await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(description)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let description: serde_json::Value = serde_json::from_str(&description).unwrap();
    assert_eq!(description["dimensions"], 3);
    assert_eq!(description["ids"].as_array().unwrap().len(), 128);
    assert_eq!(description["goals3"].as_array().unwrap().len(), 128);
    // Four boxes of 12 triangles and a floor of 2.
    assert_eq!(description["triangles"].as_array().unwrap().len(), 4 * 12 + 2);
    const STEPS: u32 = 5;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    let (header, positions) = frame3d_of_step(&mut socket, STEPS).await;
    // The oracle: the library's runner, stepped here (its mover and goals included).
    let mut oracle = Crowd3dRunner::new(&scenario).unwrap();
    for _ in 0..STEPS {
        oracle.step();
    }
    // The agents, then the mover, which travels as a sphere of the description's radius.
    assert_eq!((header.agents, header.balls), (128, 1));
    let movers: Vec<_> = oracle.movers().collect();
    let want: Vec<_> =
        oracle.simulator().positions().iter().copied().chain(movers.iter().map(|m| m.position)).collect();
    assert_eq!(positions.len(), want.len());
    for (got, want) in positions.iter().zip(&want) {
        assert_eq!(got.to_array().map(f32::to_bits), want.to_array().map(f32::to_bits));
    }
    assert_eq!(description["ball_radii"][0].as_f64(), Some(f64::from(movers[0].radius)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planar_scenario_s_movers_travel_after_the_balls() {
    use swerve::scenario::{AnyScenario, Runner, Scenario};
    let scenario = Scenario::builtin("patrol").unwrap();
    let scene = swerve_viewer::scenario_scene::scene_of(AnyScenario::Plane(scenario.clone())).unwrap();
    let (addr, _stop) = start_with(scene).await;
    let mut socket = connect(addr).await;
    let Some(Message::Text(description)) = next(&mut socket).await else { panic!("first message is not the scene") };
    let description: serde_json::Value = serde_json::from_str(&description).unwrap();
    // No balls: the two "balls" are the robots, which the description says are movers.
    assert_eq!(description["movers"], 2);
    assert_eq!(description["ball_radii"], serde_json::json!([1.0, 1.5]));
    const STEPS: u32 = 7;
    for _ in 0..STEPS {
        send(&mut socket, r#"{"cmd":"step"}"#).await;
    }
    let (header, positions) = decode(&frame_of_step(&mut socket, STEPS).await).unwrap();
    // The oracle: the library's runner, stepped here.
    let mut oracle = Runner::new(&scenario).unwrap();
    for _ in 0..STEPS {
        oracle.step();
    }
    assert_eq!((header.agents, header.balls), (48, 2));
    let want: Vec<_> =
        oracle.simulator().positions().iter().copied().chain(oracle.movers().map(|m| m.position)).collect();
    assert_eq!(positions.len(), want.len());
    for (got, want) in positions.iter().zip(&want) {
        assert_eq!(got.to_array().map(f32::to_bits), want.to_array().map(f32::to_bits));
    }
}
