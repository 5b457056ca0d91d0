//! `chaikhana-loadgen echo`: a bare actix-ws server that sends every text frame straight back. It
//! measures the physical cost of a WebSocket round trip on this machine, so that the game server's
//! figures can be given as a ratio to it (`chaikhana-loadgen run --game echo` times it).

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use actix_ws::Message;

/// Binds `listen`, prints the address it serves `GET /ws` at (the first line on standard output), and
/// serves until stopped (Ctrl-C or SIGTERM stop it).
pub async fn serve(listen: &str) -> std::io::Result<()> {
    let server = HttpServer::new(|| App::new().route("/ws", web::get().to(echo_socket)))
        .tcp_nodelay(true)
        .bind(listen)?;
    let addr = server
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| std::io::Error::other("bound to no address"))?;
    println!("echoing WebSocket frames at ws://{addr}/ws");
    server.run().await
}

async fn echo_socket(req: HttpRequest, body: web::Payload) -> HttpResponse {
    let (response, mut session, mut stream) = match actix_ws::handle(&req, body) {
        Ok(parts) => parts,
        Err(e) => return HttpResponse::BadRequest().body(e.to_string()),
    };
    actix_rt::spawn(async move {
        while let Some(Ok(message)) = stream.recv().await {
            let sent = match message {
                Message::Text(text) => session.text(text).await,
                Message::Binary(bytes) => session.binary(bytes).await,
                Message::Ping(bytes) => session.pong(&bytes).await,
                Message::Close(reason) => {
                    let _ = session.close(reason).await;
                    return;
                }
                _ => Ok(()),
            };
            if sent.is_err() {
                return;
            }
        }
    });
    response
}
