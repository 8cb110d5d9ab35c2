//! The HTTP and WebSocket server (axum): the embedded page, the frame stream, a small JSON
//! API for tools and tests, and 404 for everything else.

use crate::assets::ASSETS;
use crate::protocol::{self, ClientMessage, MAX_CLIENT_MESSAGE_BYTES};
use crate::runner::{Command, Published, Runner};
use crate::{LiveScene, ViewerError};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// Where and how the viewer runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewerConfig {
    /// The address to listen on. Loopback by default: the viewer has no authentication, so
    /// exposing it to a network must be asked for explicitly.
    pub host: IpAddr,
    /// The TCP port; 0 picks a free one (see [`Viewer::local_addr`]).
    pub port: u16,
    /// Target simulation rate (steps per wall-clock second; 0: as fast as possible).
    pub steps_per_second: f32,
    /// Start playing (true) or paused (false).
    pub playing: bool,
}

impl ViewerConfig {
    /// The port used unless another is given.
    pub const DEFAULT_PORT: u16 = 8080;
}

impl Default for ViewerConfig {
    /// 127.0.0.1:8080, 30 steps per second, playing.
    fn default() -> Self {
        ViewerConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: ViewerConfig::DEFAULT_PORT,
            steps_per_second: 30.0,
            playing: true,
        }
    }
}

/// Commands waiting for the simulation thread, at most.
const COMMAND_QUEUE: usize = 256;

/// State shared by every request handler.
struct Shared {
    /// Bounded, so a page flooding commands (each `step` costs a simulation step) cannot
    /// grow memory: when the queue is full, commands are dropped. `SyncSender` is `Sync`, so
    /// handlers send without a lock.
    commands: SyncSender<Command>,
    published: Published,
    next_connection: AtomicU64,
}

impl Shared {
    /// Asks the simulation thread something and waits (bounded) for the answer.
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.commands.try_send(make(reply)).ok()?;
        tokio::time::timeout(Duration::from_secs(5), answer).await.ok()?.ok()
    }
}

/// A bound but not yet running viewer: bind first to learn the port (useful with port 0),
/// then [`Viewer::run`].
#[derive(Debug)]
pub struct Viewer {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    config: ViewerConfig,
}

impl Viewer {
    /// Opens the listening socket.
    ///
    /// Errors: `steps_per_second` outside `0..=`[`protocol::MAX_STEPS_PER_SECOND`], or the
    /// address cannot be listened on.
    pub async fn bind(config: ViewerConfig) -> Result<Viewer, ViewerError> {
        if !(0.0..=protocol::MAX_STEPS_PER_SECOND).contains(&config.steps_per_second) {
            return Err(ViewerError::InvalidConfig(format!(
                "steps per second must be in 0..={}, got {}",
                protocol::MAX_STEPS_PER_SECOND,
                config.steps_per_second
            )));
        }
        let wanted = SocketAddr::new(config.host, config.port);
        let listener =
            tokio::net::TcpListener::bind(wanted).await.map_err(|source| ViewerError::Bind { addr: wanted, source })?;
        let addr = listener.local_addr().map_err(|source| ViewerError::Bind { addr: wanted, source })?;
        Ok(Viewer { listener, addr, config })
    }

    /// The address actually listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, e.g. `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves `scene` until Ctrl-C.
    pub async fn run(self, scene: Box<dyn LiveScene>) -> Result<(), ViewerError> {
        self.run_until(scene, async {
            // If the signal handler cannot be installed, run until the process is killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    }

    /// Serves `scene` until `shutdown` completes.
    pub async fn run_until(
        self,
        scene: Box<dyn LiveScene>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ViewerError> {
        let (runner, published) = Runner::new(scene, self.config.steps_per_second, self.config.playing);
        let (commands, receiver) = std::sync::mpsc::sync_channel(COMMAND_QUEUE);
        let stop = published.stop.clone();
        let thread = std::thread::Builder::new()
            .name("swerve-viewer-sim".into())
            .spawn(move || runner.run(receiver))
            .map_err(ViewerError::Thread)?;
        let shared = Arc::new(Shared { commands, published, next_connection: AtomicU64::new(1) });
        let result = axum::serve(self.listener, router(shared)).with_graceful_shutdown(shutdown).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        // The thread sees `stop` within one wait (≤ 100 ms) or one step. A panic inside a
        // scene's step has already been reported by the panic hook; nothing more to add.
        let _ = thread.join();
        result.map_err(ViewerError::Serve)
    }
}

/// Binds to `config`'s address, prints the page's address on standard output, and serves
/// `scene` until Ctrl-C. This is what `swerve serve` calls.
pub async fn serve(scene: Box<dyn LiveScene>, config: ViewerConfig) -> Result<(), ViewerError> {
    let viewer = Viewer::bind(config).await?;
    println!("swerve viewer listening on {}", viewer.url());
    viewer.run(scene).await
}

/// [`serve`] on a new multi-threaded tokio runtime, for callers without one.
pub fn serve_blocking(scene: Box<dyn LiveScene>, config: ViewerConfig) -> Result<(), ViewerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ViewerError::Serve)?;
    runtime.block_on(serve(scene, config))
}

fn router(shared: Arc<Shared>) -> Router {
    let mut router = Router::new();
    for (path, content_type, body) in ASSETS {
        router = router.route(path, get(move || async move { asset(content_type, body) }));
    }
    router
        .route("/ws", get(websocket))
        .route("/api/state", get(api_state))
        .route("/api/agents", get(api_agents))
        .route("/api/inspect/{agent}", get(api_inspect))
        .fallback(not_found)
        .with_state(shared)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; \
                 base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            ),
        ],
        body,
    )
        .into_response()
}

async fn not_found(uri: Uri) -> Response {
    tracing::debug!(%uri, "404");
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

fn json_response<T: serde::Serialize>(value: Option<T>, missing: StatusCode) -> Response {
    match value {
        Some(v) => ([(header::CACHE_CONTROL, "no-store")], axum::Json(v)).into_response(),
        None => (missing, "not available\n").into_response(),
    }
}

async fn api_state(State(shared): State<Arc<Shared>>) -> Response {
    json_response(shared.ask(|reply| Command::State { reply }).await, StatusCode::SERVICE_UNAVAILABLE)
}

async fn api_agents(State(shared): State<Arc<Shared>>) -> Response {
    json_response(shared.ask(|reply| Command::Summary { reply }).await, StatusCode::SERVICE_UNAVAILABLE)
}

async fn api_inspect(State(shared): State<Arc<Shared>>, Path(agent): Path<u32>) -> Response {
    json_response(shared.ask(|reply| Command::Inspect { agent, reply }).await.flatten(), StatusCode::NOT_FOUND)
}

/// Refuses cross-site WebSocket connections: browsers let any page open a WebSocket to
/// 127.0.0.1, so a page from elsewhere could otherwise drive the viewer. Same-origin pages
/// send `Origin: http://<Host>`; non-browser clients send no Origin at all.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    origin.to_str().is_ok_and(|o| o.strip_prefix("http://") == Some(host))
}

async fn websocket(State(shared): State<Arc<Shared>>, headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    if !same_origin(&headers) {
        tracing::warn!(origin = ?headers.get(header::ORIGIN), "refused a cross-origin WebSocket");
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused\n").into_response();
    }
    let id = shared.next_connection.fetch_add(1, Ordering::Relaxed);
    upgrade
        .max_message_size(MAX_CLIENT_MESSAGE_BYTES)
        .max_frame_size(MAX_CLIENT_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, shared, id))
}

/// WebSocket close codes (RFC 6455 §7.4.1).
const CLOSE_UNSUPPORTED_DATA: u16 = 1003;
const CLOSE_POLICY_VIOLATION: u16 = 1008;

/// Why a connection ended.
enum Ending {
    /// The page closed it or went away.
    Closed,
    /// We closed it: the page broke the protocol.
    Refused(u16, String),
    /// The socket failed (includes messages over the size limit).
    Failed(String),
}

async fn connection(mut socket: WebSocket, shared: Arc<Shared>, id: u64) {
    tracing::info!(connection = id, "page connected");
    let mut frames = shared.published.frames.clone();
    let mut scene = shared.published.scene.clone();
    frames.mark_changed();
    scene.mark_changed();
    let mut selected: Option<u32> = None;
    let mut wants_links = false;
    let mut wants_structure = false;
    let ending = loop {
        tokio::select! {
            // Scene descriptions before frames, so a page never sees a frame of a scene it
            // does not know yet.
            biased;
            incoming = socket.recv() => match incoming {
                None | Some(Ok(Message::Close(_))) => break Ending::Closed,
                Some(Err(e)) => break Ending::Failed(e.to_string()),
                Some(Ok(Message::Binary(_))) => {
                    break Ending::Refused(CLOSE_UNSUPPORTED_DATA, "binary messages are not accepted".into())
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Text(text))) => match protocol::parse(text.as_str()) {
                    Err(e) => break Ending::Refused(CLOSE_POLICY_VIOLATION, e.to_string()),
                    Ok(message) => {
                        let command = match message {
                            ClientMessage::Play {} => Some(Command::Play),
                            ClientMessage::Pause {} => Some(Command::Pause),
                            ClientMessage::Step {} => Some(Command::Step),
                            ClientMessage::Reset {} => Some(Command::Reset),
                            ClientMessage::Speed { steps_per_second } => Some(Command::Speed(steps_per_second)),
                            ClientMessage::Inspect { agent } => {
                                selected = Some(agent);
                                if send_inspect(&mut socket, &shared, agent).await.is_err() {
                                    break Ending::Closed;
                                }
                                None
                            }
                            ClientMessage::Uninspect {} => {
                                selected = None;
                                None
                            }
                            ClientMessage::Links { on } => {
                                toggle(&mut wants_links, on, &shared.published.links_wanted);
                                None
                            }
                            ClientMessage::Structure { on } => {
                                toggle(&mut wants_structure, on, &shared.published.structure_wanted);
                                None
                            }
                            // The name was checked by `protocol::parse`.
                            ClientMessage::BroadPhase { name } => name.parse().ok().map(Command::BroadPhase),
                        };
                        if let Some(command) = command {
                            match shared.commands.try_send(command) {
                                Ok(()) => {}
                                Err(TrySendError::Full(_)) => {
                                    tracing::debug!(connection = id, "command queue full: command dropped");
                                }
                                Err(TrySendError::Disconnected(_)) => {
                                    break Ending::Failed("the simulation thread has stopped".into());
                                }
                            }
                        }
                    }
                },
            },
            Ok(()) = scene.changed() => {
                let text = scene.borrow_and_update().clone();
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                    break Ending::Closed;
                }
            }
            Ok(()) = frames.changed() => {
                let frame = frames.borrow_and_update().clone();
                if socket.send(Message::Binary(frame)).await.is_err() {
                    break Ending::Closed;
                }
                if let Some(agent) = selected {
                    if send_inspect(&mut socket, &shared, agent).await.is_err() {
                        break Ending::Closed;
                    }
                }
            }
        }
    };
    toggle(&mut wants_links, false, &shared.published.links_wanted);
    toggle(&mut wants_structure, false, &shared.published.structure_wanted);
    match ending {
        Ending::Closed => tracing::info!(connection = id, "page disconnected"),
        // `?reason`: Debug-escaped, since the reason may quote what the page sent.
        Ending::Failed(reason) => tracing::warn!(connection = id, ?reason, "connection dropped"),
        Ending::Refused(code, reason) => {
            tracing::warn!(connection = id, ?reason, "closing connection: invalid message from the page");
            // The close frame's reason is limited to 123 bytes (RFC 6455 §5.5).
            let mut short = reason;
            if short.len() > 120 {
                let mut cut = 120;
                while !short.is_char_boundary(cut) {
                    cut -= 1;
                }
                short.truncate(cut);
            }
            let _ = socket.send(Message::Close(Some(CloseFrame { code, reason: short.into() }))).await;
        }
    }
}

/// Records one connection's wish (links, structure) in the count the simulation thread reads.
fn toggle(wanted: &mut bool, on: bool, count: &AtomicUsize) {
    if on != *wanted {
        *wanted = on;
        if on {
            count.fetch_add(1, Ordering::Relaxed);
        } else {
            count.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Sends the inspector's report for `agent` (or `{"type":"inspect","agent":…,"missing":true}`
/// when there is no such agent). Errors only when the socket is gone.
async fn send_inspect(socket: &mut WebSocket, shared: &Shared, agent: u32) -> Result<(), axum::Error> {
    let report = shared.ask(|reply| Command::Inspect { agent, reply }).await.flatten();
    let text = match report {
        Some(report) => serde_json::to_string(&report).unwrap_or_default(),
        None => format!(r#"{{"type":"inspect","agent":{agent},"missing":true}}"#),
    };
    socket.send(Message::Text(text.into())).await
}
