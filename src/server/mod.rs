//! The actix-web app: HTTP routes, the table page, and the WebSocket sessions.

mod caps;
mod client_address;
mod connection;
mod door;
mod guard;
mod http;
mod mine;
pub mod pages;
mod pairing;
mod registry;
mod request_clock;
mod session;
mod socket;
mod voice;
mod watch;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_http::error::DispatchError;
use actix_http::{HttpService, Protocol};
use actix_service::{fn_service, map_config, ServiceFactoryExt};
use actix_web::dev::AppConfig;
use actix_web::middleware::from_fn;
use actix_web::{web, App};

pub use registry::SessionRegistry;

use crate::routing::{self, Router};
use crate::settings::Settings;
use crate::table::Level;

/// What every request handler shares.
pub struct AppState {
    pub settings: Arc<Settings>,
    pub router: Arc<dyn Router>,
    pub registry: Arc<SessionRegistry>,
    /// Tables opened per client address this minute.
    /// Tables opened, and "Your games" asked, per client address a minute.
    pub quota: guard::MinuteQuota,
    pub games_quota: guard::MinuteQuota,
    /// Seats taken through tables' links per client address a minute.
    pub joins_quota: guard::MinuteQuota,
    /// "Your games" answered one at a time (`mine`).
    pub listings: mine::Listings,
    /// The games' open tables as last read (`pairing`).
    pub open_lists: pairing::Lists,
    /// Sockets held by the process and by each client address.
    pub sockets: Arc<caps::Caps>,
    /// Plain HTTP connections held by the process and by each client address, and the refusals
    /// being answered (`door`).
    pub door: door::Doorkeeper,
    /// Whose address a request is counted under, behind the trusted proxies.
    pub client_address: client_address::ClientAddress,
}

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    /// Where `/metrics`, `/healthz` and `/readyz` are served, when `ops_listen` gives them a port of
    /// their own (otherwise they are on `addr`).
    pub ops_addr: Option<SocketAddr>,
    pub handle: actix_web::dev::ServerHandle,
    pub router: Arc<dyn Router>,
    pub registry: Arc<SessionRegistry>,
    server: actix_rt::task::JoinHandle<std::io::Result<()>>,
}

/// How long a draining node waits for its tables to be handed over.
const HAND_OVER_LIMIT: Duration = Duration::from_secs(10);

impl Running {
    /// Serves until stopped.
    pub async fn wait(self) -> std::io::Result<()> {
        self.server.await.unwrap_or(Ok(()))
    }

    /// Stops taking new tables and sockets, hands the tables to other nodes (with Redis), closes every
    /// socket with 1001, then stops.
    pub async fn shut_down(
        handle: actix_web::dev::ServerHandle,
        registry: Arc<SessionRegistry>,
        router: Arc<dyn Router>,
    ) {
        registry.refuse_new();
        // A hand-over that cannot finish (a table or Redis that does not answer) must not keep the
        // process from closing its sockets and stopping.
        if actix_rt::time::timeout(HAND_OVER_LIMIT, router.hand_over())
            .await
            .is_err()
        {
            tracing::warn!("handing the tables over took too long; closing the sockets anyway");
        }
        registry.drain();
        for _ in 0..50 {
            if registry.open() == 0 {
                break;
            }
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
        handle.stop(true).await;
        router.close().await;
    }
}

/// Every game of the catalog, at every level, has its series in the metrics from the start.
fn register_games_in_metrics() {
    let levels = Level::ALL.map(Level::as_str);
    for game in crate::catalog::names() {
        crate::metrics::metrics().register_game(game, &levels);
    }
}

/// Binds and starts the server on the current actix runtime; signals are left to the caller.
pub fn start(settings: Settings) -> std::io::Result<Running> {
    crate::settings::raise_open_file_limit();
    register_games_in_metrics();
    // The computers think on the pool's threads alone, made before any table is.
    crate::thinking::start(crate::thinking::Shape::from_settings(&settings));
    let settings = Arc::new(settings);
    let router = routing::from_settings(&settings).map_err(std::io::Error::other)?;
    let registry = Arc::new(SessionRegistry::default());
    let client_address = client_address::ClientAddress::new(&settings.trusted_proxies)
        .map_err(std::io::Error::other)?;
    // A node that only hosts tables serves no browser: health and metrics alone.
    let tables_only = !settings.role.serves_browsers();
    let state = web::Data::new(AppState {
        settings: settings.clone(),
        router: router.clone(),
        registry: registry.clone(),
        quota: guard::MinuteQuota::new(settings.tables_per_minute),
        games_quota: guard::MinuteQuota::new(settings.your_games_per_minute),
        joins_quota: guard::MinuteQuota::new(settings.joins_per_minute),
        listings: mine::Listings::default(),
        open_lists: pairing::Lists::default(),
        sockets: caps::Caps::new(settings.sockets_per_node(), settings.sockets_per_address),
        door: door::Doorkeeper::new(caps::Caps::new(
            settings.http_connections_per_node(),
            settings.http_connections_per_address,
        )),
        client_address,
    });
    let listener = std::net::TcpListener::bind(settings.listen.as_str())?;
    let addr = listener.local_addr()?;
    // Metrics and health on a port of their own keep them off the public address (the Ingress routes
    // only the site's port).
    let ops = match settings.ops_listen.trim() {
        "" => None,
        ops => Some(std::net::TcpListener::bind(ops)?),
    };
    let ops_addr = ops.as_ref().map(|l| l.local_addr()).transpose()?;
    let with_operations = ops.is_none();
    let workers = if settings.workers == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        settings.workers
    };
    let ops_state = state.clone();
    let pace = request_clock::Pace {
        deadline: settings.request_deadline(),
        min_bytes_per_second: settings.request_min_bytes_per_second,
        write_stall: settings.write_timeout(),
    };
    let server = actix_server::Server::build()
        .workers(workers)
        .disable_signals()
        .shutdown_timeout(5)
        .listen("chaikhana", listener, move || {
            // Run once by each worker, on its own thread.
            state.router.worker_started();
            actix_rt::spawn(crate::memory::give_back_freed_memory());
            let app = App::new()
                // Innermost: its refusals carry the security headers and are counted.
                .wrap(from_fn(door::at_the_door))
                .wrap(guard::security_headers())
                .wrap_fn(|req, srv| {
                    use actix_web::dev::Service;
                    let route = req.match_pattern().unwrap_or_else(|| "unmatched".into());
                    let answer = srv.call(req);
                    async move {
                        let response = answer.await?;
                        let status = response.status().as_u16().to_string();
                        crate::metrics::metrics()
                            .http_requests
                            .with_label_values(&[route.as_str(), status.as_str()])
                            .inc();
                        Ok(response)
                    }
                })
                .app_data(state.clone())
                .configure(|cfg| {
                    if tables_only {
                        if with_operations {
                            http::operations(cfg);
                        }
                    } else {
                        http::routes(cfg, with_operations);
                        voice::routes(cfg);
                        watch::routes(cfg);
                    }
                })
                .default_service(web::to(|| async { pages::not_found() }));
            let sockets = state.clone();
            let door = state.clone();
            // Every connection is read under its request clock (`request_clock`).
            let accept = fn_service(move |io: tokio::net::TcpStream| {
                // A page's small frames (a move's view, a seat's news) go out at once: without this,
                // Nagle's algorithm holds a second one back until the browser's delayed acknowledgement.
                if let Err(e) = io.set_nodelay(true) {
                    tracing::debug!(%e, "a connection keeps Nagle's algorithm");
                }
                let peer = io.peer_addr().ok();
                let io = request_clock::Clocked::new(io, pace);
                std::future::ready(Ok::<_, DispatchError>((io, Protocol::Http1, peer)))
            });
            let http = HttpService::build()
                .local_addr(addr)
                .client_disconnect_timeout(Duration::from_secs(1))
                // A connection that sends nothing, or sends slowly, is closed by its request clock
                // (`request_clock`); actix-http's timer on the first head stays as a backstop.
                .client_request_timeout(
                    pace.deadline.max(request_clock::FIRST_BYTE) + Duration::from_secs(1),
                )
                .on_connect_ext(move |io: &request_clock::Clocked, data| {
                    door::arrive(io, data, &door.door, &door.client_address)
                })
                // A WebSocket upgrade leaves the HTTP dispatcher: the socket is served on its stream.
                .upgrade(fn_service(move |(req, framed)| {
                    let state = sockets.clone();
                    async move {
                        socket::upgrade(state, req, framed).await;
                        Ok::<_, std::convert::Infallible>(())
                    }
                }))
                .finish(map_config(app, |_| AppConfig::default()));
            accept.and_then(http)
        })?;
    let server = match ops {
        Some(ops) => {
            let state = ops_state;
            server.listen("operations", ops, move || {
                let app = App::new()
                    .wrap(from_fn(door::at_the_door))
                    .wrap(guard::security_headers())
                    .app_data(state.clone())
                    .configure(http::operations)
                    .default_service(web::to(|| async { pages::not_found() }));
                HttpService::build()
                    .finish(map_config(app, |_| AppConfig::default()))
                    .tcp()
            })?
        }
        None => server,
    };
    let server = server.run();
    let handle = server.handle();
    Ok(Running {
        addr,
        ops_addr,
        handle,
        router,
        registry,
        server: actix_rt::spawn(server),
    })
}

/// Serves until SIGTERM or Ctrl-C, then shuts down cleanly.
pub async fn serve(settings: Settings) -> std::io::Result<()> {
    let running = start(settings)?;
    tracing::info!(addr = %running.addr, "serving http://{}", running.addr);
    let (handle, registry, router) = (
        running.handle.clone(),
        running.registry.clone(),
        running.router.clone(),
    );
    actix_rt::spawn(async move {
        wait_for_signal().await;
        tracing::info!("shutting down: no new tables, handing tables over, closing every socket");
        Running::shut_down(handle, registry, router).await;
    });
    running.wait().await
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
