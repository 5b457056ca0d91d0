//! `GET /api/ganjifa/staged`: the staged Ganjifa deal as a script of steps, worked out once by the
//! rules core and the computer players (`games::ganjifa::staged`) and kept for the life of the process.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use chaikhana_rules::games::ganjifa::staged::{script, STAGED_SEED};

/// The script's JSON and its ETag.
fn body() -> &'static (String, String) {
    static BODY: OnceLock<(String, String)> = OnceLock::new();
    BODY.get_or_init(|| {
        let json = serde_json::to_string(&script(STAGED_SEED))
            .unwrap_or_else(|e| format!("{{\"steps\":[],\"error\":\"{e}\"}}"));
        let tag = format!("\"staged-{STAGED_SEED}-{}\"", json.len());
        (json, tag)
    })
}

pub async fn staged_deal(req: HttpRequest) -> HttpResponse {
    let (json, tag) = body();
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == tag);
    let mut answer = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .insert_header((header::ETAG, tag.as_str()));
    if fresh {
        return answer.finish();
    }
    answer.content_type("application/json").body(json.as_str())
}
