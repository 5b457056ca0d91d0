//! `GET /api/voice`: the STUN and TURN servers the browsers use to reach each other for voice, from the
//! settings, in the shape `RTCPeerConnection` takes. Empty settings give an empty list: peers on one
//! machine or one network find each other without help.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::AppState;
use crate::settings::Settings;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(super::door::route(
        "/api/voice",
        web::get().to(voice_servers),
        0,
    ));
}

#[derive(Debug, PartialEq, Serialize)]
struct IceServer {
    urls: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    credential: Option<String>,
}

#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct VoiceServers {
    ice_servers: Vec<IceServer>,
}

/// The URLs of a comma-separated setting, without blanks.
fn url_list(setting: &str) -> Vec<String> {
    setting
        .split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(String::from)
        .collect()
}

fn servers(settings: &Settings) -> VoiceServers {
    let mut ice_servers = Vec::new();
    let stun = url_list(&settings.voice_stun_urls);
    if !stun.is_empty() {
        ice_servers.push(IceServer {
            urls: stun,
            username: None,
            credential: None,
        });
    }
    let turn = url_list(&settings.voice_turn_urls);
    if !turn.is_empty() {
        ice_servers.push(IceServer {
            urls: turn,
            username: Some(settings.voice_turn_username.clone()),
            credential: Some(settings.voice_turn_credential.clone()),
        });
    }
    VoiceServers { ice_servers }
}

async fn voice_servers(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(servers(&state.settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_settings_give_no_servers_and_filled_ones_give_both_kinds() {
        let mut settings = Settings::defaults();
        assert_eq!(
            serde_json::to_string(&servers(&settings)).unwrap(),
            r#"{"iceServers":[]}"#
        );
        settings.voice_stun_urls = "stun:a.example:3478, stun:b.example:3478,".into();
        settings.voice_turn_urls = "turn:t.example:3478?transport=udp".into();
        settings.voice_turn_username = "chaikhana".into();
        settings.voice_turn_credential = "s3cret".into();
        assert_eq!(
            serde_json::to_value(servers(&settings)).unwrap(),
            serde_json::json!({ "iceServers": [
                { "urls": ["stun:a.example:3478", "stun:b.example:3478"] },
                { "urls": ["turn:t.example:3478?transport=udp"], "username": "chaikhana", "credential": "s3cret" },
            ]})
        );
    }
}
