//! The node's Redis client, the one place it is made: `redis://` in the clear, or `rediss://` over
//! TLS (rustls), trusting the system's certificate authorities or only the one in `redis_ca_file`.
//! Every connection, pipe and subscription of the node is opened from this client.

use std::time::Duration;

use crate::settings::Settings;

/// The client `settings` ask for. Refused: a URL that is not Redis's, a CA file with a URL in the
/// clear (the operator believes the link is encrypted while it is not), a CA file that cannot be read
/// or holds no certificate.
pub fn client(settings: &Settings) -> Result<redis::Client, String> {
    // The TLS code asks rustls for the process's crypto provider; ours is ring. Installing it a second
    // time (another node of this process, a test) is refused and changes nothing.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let url = settings.redis_url.as_str();
    let plain =
        redis::Client::open(url).map_err(|e| format!("redis_url is not a Redis URL: {e}"))?;
    let ca_file = settings.redis_ca_file.trim();
    if ca_file.is_empty() {
        return Ok(plain);
    }
    if !over_tls(&plain) {
        return Err(
            "redis_ca_file is set but redis_url does not start with rediss://: the link \
                    to Redis would not be encrypted (use rediss:// or leave redis_ca_file empty)"
                .to_string(),
        );
    }
    let pem = std::fs::read(ca_file).map_err(|e| format!("redis_ca_file {ca_file}: {e}"))?;
    let certificates =
        certificates_in(&pem).map_err(|e| format!("redis_ca_file {ca_file}: {e}"))?;
    if certificates == 0 {
        return Err(format!(
            "redis_ca_file {ca_file} holds no certificate (PEM, -----BEGIN CERTIFICATE-----)"
        ));
    }
    redis::Client::build_with_tls(
        url,
        redis::TlsCertificates {
            client_tls: None,
            root_cert: Some(pem),
        },
    )
    .map_err(|e| format!("redis_ca_file {ca_file}: {e}"))
}

fn over_tls(client: &redis::Client) -> bool {
    matches!(
        client.get_connection_info().addr(),
        redis::ConnectionAddr::TcpTls { .. }
    )
}

/// How many certificates a PEM text holds.
fn certificates_in(pem: &[u8]) -> Result<usize, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    CertificateDer::pem_slice_iter(pem)
        .map(|certificate| certificate.map_err(|e| format!("not a PEM certificate: {e}")))
        .try_fold(0, |count, certificate| certificate.map(|_| count + 1))
}

/// Connects once to a `rediss://` Redis, and logs in plain words when its certificate is not trusted:
/// the node otherwise only retries and counts errors, and a wrong or missing CA never heals by itself.
pub async fn check_tls(client: redis::Client, ca_file: String) {
    if !over_tls(&client) {
        return;
    }
    let connected = tokio::time::timeout(
        Duration::from_secs(5),
        client.get_multiplexed_async_connection(),
    )
    .await;
    let error = match connected {
        Ok(Ok(_)) => {
            tracing::info!("reached Redis over TLS");
            return;
        }
        Ok(Err(error)) => error,
        Err(_) => return,
    };
    // The redis crate keeps rustls's error inside an `io::Error`, whose `source()` skips it: only its
    // words (rustls's own, "invalid peer certificate: ...") tell a refused certificate apart.
    let said = error.to_string();
    if !said.contains("invalid peer certificate") {
        // Anything else (Redis down, not speaking TLS) the pipes report as they retry.
        return;
    }
    let advice = match (said.contains("UnknownIssuer"), ca_file.is_empty()) {
        (true, true) => {
            "; no certificate authority of this system signed it: give the CA certificate that did \
             as redis_ca_file (CHAIKHANA_REDIS_CA_FILE)"
                .to_string()
        }
        (true, false) => format!("; the CA in redis_ca_file {ca_file} did not sign it"),
        (false, _) => String::new(),
    };
    tracing::error!(
        "Redis's TLS certificate is refused ({said}){advice}; every command to Redis fails until \
         this is fixed"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(url: &str, ca_file: &str) -> Settings {
        let mut settings = Settings::defaults();
        settings.redis_url = url.to_string();
        settings.redis_ca_file = ca_file.to_string();
        settings
    }

    #[test]
    fn plain_and_tls_urls_make_clients() {
        assert!(!over_tls(
            &client(&settings("redis://127.0.0.1:6379", "")).unwrap()
        ));
        assert!(over_tls(
            &client(&settings("rediss://127.0.0.1:6380", "")).unwrap()
        ));
        assert!(client(&settings("http://127.0.0.1", "")).is_err());
    }

    #[test]
    fn a_ca_file_needs_tls_and_a_certificate() {
        let empty = crate::settings::scratch_file("ca", "empty.pem", "not a certificate\n");
        let dir = empty.parent().unwrap();
        let refused =
            client(&settings("redis://127.0.0.1:6379", empty.to_str().unwrap())).unwrap_err();
        assert!(refused.contains("rediss://"), "{refused}");
        let refused = client(&settings(
            "rediss://127.0.0.1:6380",
            empty.to_str().unwrap(),
        ))
        .unwrap_err();
        assert!(refused.contains("holds no certificate"), "{refused}");
        let missing = dir.join("missing.pem");
        let refused = client(&settings(
            "rediss://127.0.0.1:6380",
            missing.to_str().unwrap(),
        ))
        .unwrap_err();
        assert!(refused.contains("missing.pem"), "{refused}");
        std::fs::remove_dir_all(dir).ok();
    }
}
