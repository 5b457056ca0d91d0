//! Redis over TLS (`rediss://`): a certificate authority and a server certificate made at run time
//! with `openssl`, a `redis-server` that speaks only TLS, and `chaikhana serve` nodes reaching it with
//! `redis_ca_file`. A match is played with its seats on two nodes and its snapshot read back over TLS;
//! a node that does not trust the certificate (no CA given, or another CA) refuses it, takes no table
//! and says why in its log; a CA file that cannot be read stops the node at once.
//! Without redis-server or openssl these tests say why and pass, unless CHAIKHANA_TEST_REQUIRE_ALL=1.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::cluster::*;
use crate::support::*;
use chaikhana::settings::Settings;

/// redis-server and openssl; without one, says why and skips, unless everything is required.
fn have_tools() -> bool {
    have_redis()
        && have_program(
            "openssl",
            "it makes the test's certificates: apt-get install openssl",
        )
}

/// A folder of the test's own, emptied first and removed at the end.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("chaikhana-tls-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for the test");
        Folder(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `openssl req` with a new P-256 key, written to `key`: a self-signed certificate when `extra`
/// starts with `-x509`, else a signing request, written to `out` for `subject`.
fn new_key_and(dir: &Path, extra: &[&str], key: &str, out: &str, subject: &str) {
    let mut args = vec!["req", "-new", "-nodes", "-newkey", "ec"];
    args.extend(["-pkeyopt", "ec_paramgen_curve:prime256v1"]);
    args.extend(["-keyout", key, "-out", out, "-subj", subject]);
    args.extend_from_slice(extra);
    openssl(dir, &args);
}

/// A certificate authority of its own (P-256 keys, a day's validity).
fn make_ca(dir: &Path, name: &str) {
    let (key, cert) = (format!("{name}.key"), format!("{name}.crt"));
    let extra = [
        "-x509",
        "-days",
        "1",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ];
    new_key_and(
        dir,
        &extra,
        &key,
        &cert,
        &format!("/CN=chaikhana test {name}"),
    );
}

/// `ca.crt`, the authority the nodes are given; `server.crt` and `server.key`, Redis's certificate
/// for 127.0.0.1 signed by it; `stranger.crt`, another authority, which signed nothing here.
fn make_certificates(dir: &Path) {
    make_ca(dir, "ca");
    make_ca(dir, "stranger");
    new_key_and(dir, &[], "server.key", "server.csr", "/CN=127.0.0.1");
    std::fs::write(
        dir.join("server.ext"),
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n\
         extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .expect("the extensions file");
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.crt",
            "-days",
            "1",
            "-extfile",
            "server.ext",
        ],
    );
}

/// A redis-server that listens only for TLS, with the certificate of [`make_certificates`].
struct TlsRedis {
    child: Child,
    port: u16,
}

impl TlsRedis {
    /// `None` (having said why) when this redis-server was built without TLS.
    async fn start(folder: &Folder) -> Option<TlsRedis> {
        let port = steady_port();
        let log = folder.file("redis.log");
        let mut child = Command::new("redis-server")
            .args([
                "--port",
                "0",
                "--tls-port",
                &port.to_string(),
                "--tls-cert-file",
                &folder.file("server.crt"),
                "--tls-key-file",
                &folder.file("server.key"),
                "--tls-ca-cert-file",
                &folder.file("ca.crt"),
                "--tls-auth-clients",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                &folder.file(""),
                "--logfile",
                &log,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let started = Instant::now();
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(TlsRedis { child, port });
            }
            if let Ok(Some(status)) = child.try_wait() {
                let said = std::fs::read_to_string(&log).unwrap_or_default();
                assert!(
                    !everything_required(),
                    "redis-server with TLS is required but it stopped ({status}): {said}"
                );
                eprintln!("skipping: this redis-server does not serve TLS ({status}): {said}");
                return None;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "redis-server listens for TLS"
            );
            actix_rt::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn url(&self) -> String {
        format!("rediss://127.0.0.1:{}", self.port)
    }

    /// A client of the test's own, made as the nodes make theirs.
    fn client(&self, ca_file: &str) -> redis::Client {
        let mut settings = Settings::defaults();
        settings.redis_url = self.url();
        settings.redis_ca_file = ca_file.to_string();
        chaikhana::routing::redis::client(&settings).expect("a TLS client")
    }
}

impl Drop for TlsRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The certificates and the TLS Redis, or `None` (having said why) without the tools.
async fn tls_redis(name: &str) -> Option<(Folder, TlsRedis)> {
    if !have_tools() {
        return None;
    }
    let folder = Folder::new(name);
    make_certificates(&folder.0);
    let redis = TlsRedis::start(&folder).await?;
    Some((folder, redis))
}

#[actix_rt::test]
async fn a_match_is_played_across_two_nodes_through_redis_over_tls() {
    let Some((folder, redis)) = tls_redis("played").await else {
        return;
    };
    let ca = folder.file("ca.crt");
    let trusting = [("CHAIKHANA_REDIS_CA_FILE", ca.as_str())];
    let a = Node::start_with(&redis.url(), "all", &trusting).await;
    let b = Node::start_with(&redis.url(), "all", &trusting).await;
    // Opened on a, joined through b: b finds the table through the TLS Redis.
    let (seated, mut clients) = friends_across(&a, &b).await;
    play_among_friends(&mut clients, &mut rng(22)).await;
    let last = clients[0]
        .received
        .iter()
        .rev()
        .find(|frame| frame["type"] == "view")
        .and_then(|view| view["version"].as_u64())
        .expect("the match's last view");

    let record = record_in(&redis.client(&ca), &seated[0].table)
        .expect("the snapshot is in the Redis reached over TLS");
    assert_eq!(record.game, "panjpar");
    assert_eq!(record.version, last, "every change was stored");
    assert!(!record.deals.is_empty());
    let metrics = b.metrics().await;
    assert!(
        Node::metric(&metrics, "chaikhana_router_frames_total{direction=\"in\"}") > 0.0,
        "b's player reached the table on a through Redis"
    );
    assert!(Node::metric(&a.metrics().await, "chaikhana_snapshots_written_total") > 0.0);
}

/// A `chaikhana serve` process whose log (standard output and error) goes to a file.
struct Served {
    child: Child,
    base: String,
    log: String,
}

impl Served {
    /// Starts it and waits until it listens, or until it has stopped (its exit status then).
    async fn start(
        redis_url: &str,
        ca_file: Option<&str>,
        log: String,
    ) -> Result<Served, std::process::ExitStatus> {
        let port = free_port();
        let file = std::fs::File::create(&log).expect("a log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_chaikhana"));
        command
            .arg("serve")
            .env("CHAIKHANA_LISTEN", format!("127.0.0.1:{port}"))
            .env("CHAIKHANA_REDIS_URL", redis_url)
            .env("CHAIKHANA_LOG_FILTER", "info")
            // The test clients add no number to the shuffles: deal at once.
            .env("CHAIKHANA_SHUFFLE_WAIT_MS", "0")
            .stdout(Stdio::from(file.try_clone().expect("the log file")))
            .stderr(Stdio::from(file));
        if let Some(ca_file) = ca_file {
            command.env("CHAIKHANA_REDIS_CA_FILE", ca_file);
        }
        let mut child = command.spawn().expect("the server starts");
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(status);
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(Served {
                    child,
                    base: format!("http://127.0.0.1:{port}"),
                    log,
                });
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the node listens or stops"
            );
            actix_rt::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Its log, once it holds `wanted` (or after 10 s, whatever it holds).
    async fn log_with(&self, wanted: &str) -> String {
        let started = Instant::now();
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            if text.contains(wanted) || started.elapsed() > Duration::from_secs(10) {
                return text;
            }
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[actix_rt::test]
async fn a_node_that_does_not_trust_redis_certificate_takes_no_table_and_says_why() {
    let Some((folder, redis)) = tls_redis("refused").await else {
        return;
    };
    let stranger = folder.file("stranger.crt");
    let cases = [
        (
            None,
            "no-ca.log",
            "give the CA certificate that did as redis_ca_file",
        ),
        (Some(stranger.as_str()), "stranger.log", "did not sign it"),
    ];
    for (ca_file, log, advice) in cases {
        let node = Served::start(&redis.url(), ca_file, folder.file(log))
            .await
            .expect("the node starts: Redis out of reach is retried, not fatal");
        let body = r#"{"game":"panjpar","opponents":"computer"}"#;
        let (status, answer) = post(&node.base, "/api/tables", body).await;
        assert_eq!(status, 503, "{ca_file:?}: {answer}");
        assert_eq!(answer["code"], "unavailable", "{answer}");
        let said = node.log_with(advice).await;
        assert!(
            said.contains("Redis's TLS certificate is refused") && said.contains(advice),
            "{ca_file:?}: the log says why: {said}"
        );
    }

    // A CA file that is not there stops the node before it serves anything.
    let missing = folder.file("missing.crt");
    let log = folder.file("missing.log");
    let stopped = Served::start(&redis.url(), Some(&missing), log.clone()).await;
    let status = stopped.err().expect("the node stops at once");
    assert!(!status.success());
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        said.contains("redis_ca_file") && said.contains("missing.crt"),
        "{said}"
    );
}
