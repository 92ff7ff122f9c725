//! A real headless browser for the export's safety tests: Chromium from Debian's packages,
//! run with no network of its own, giving back the page's DOM after scripts ran and every
//! URL it tried to load.
//!
//! The browser is a component these tests need, like the real fixtures: without it they say
//! loudly that they skipped, and with `CODEX_REQUIRE_BROWSER=1` (set by `cargo xtask ci`) a
//! missing browser fails them.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use scraper::{Html, Selector};

/// Set to `1` to make a missing browser a test failure instead of a loud skip.
pub(crate) const REQUIRE_BROWSER_ENV: &str = "CODEX_REQUIRE_BROWSER";

/// Where the browser is looked for (`CODEX_CHROMIUM` first).
const CANDIDATES: &[&str] = &[
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
];

/// The browser, or `None` after saying loudly that the test is skipped.
#[allow(clippy::print_stderr)] // The skip notice is the point.
pub(crate) fn chromium() -> Result<Option<PathBuf>, Box<dyn std::error::Error>> {
    let configured = std::env::var_os("CODEX_CHROMIUM").map(PathBuf::from);
    let found = configured
        .into_iter()
        .chain(CANDIDATES.iter().map(PathBuf::from))
        .find(|path| path.is_file());
    if found.is_some() {
        return Ok(found);
    }
    if std::env::var(REQUIRE_BROWSER_ENV).as_deref() == Ok("1") {
        return Err(format!(
            "{REQUIRE_BROWSER_ENV}=1 but no browser at CODEX_CHROMIUM or {CANDIDATES:?} \
             (install it: apt-get install chromium)"
        )
        .into());
    }
    eprintln!(
        "\n*** SKIPPED: no headless browser ({CANDIDATES:?}); install Chromium \
         (apt-get install chromium) or set {REQUIRE_BROWSER_ENV}=1 to fail instead ***\n"
    );
    Ok(None)
}

/// What the browser made of a page.
#[derive(Debug)]
pub(crate) struct Rendered {
    /// The DOM after the page's scripts ran.
    pub dom: String,
    /// Every URL the page made the browser request (from its network log; the browser's own
    /// background requests are not the page's).
    pub urls: Vec<String>,
}

/// Opens `page` in headless `browser`, isolated in a fresh profile under `scratch`.
pub(crate) fn render(
    browser: &Path,
    page: &Path,
    scratch: &Path,
) -> Result<Rendered, Box<dyn std::error::Error>> {
    let profile = scratch.join("profile");
    let net_log = scratch.join("net-log.json");
    let dom = scratch.join("dom.html");
    let url = format!("file://{}", page.canonicalize()?.display());
    let mut child = codex_test_support::headless_browser(browser, &profile)
        .arg("--virtual-time-budget=3000")
        .arg(format!("--log-net-log={}", net_log.display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdout(std::fs::File::create(&dom)?)
        .stderr(Stdio::null())
        .spawn()?;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(status) = child.try_wait()? {
            if !status.success() {
                return Err(format!("{} exited with {status}", browser.display()).into());
            }
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err("the browser did not finish within 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let log = std::fs::read_to_string(&net_log)?;
    Ok(Rendered {
        dom: std::fs::read_to_string(&dom)?,
        urls: page_requests(&log)?,
    })
}

/// The URL of every request a page made, from a net log: each `URL_REQUEST_START_JOB` whose
/// initiator is an origin (the browser's own background requests say "not an origin").
fn page_requests(log: &str) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let log: serde_json::Value = serde_json::from_str(log)
        .map_err(|err| format!("the browser's net log is not JSON: {err}"))?;
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        .as_u64()
        .ok_or("the net log names no URL_REQUEST_START_JOB events")?;
    let mut urls = Vec::new();
    for event in log["events"].as_array().into_iter().flatten() {
        if event["type"].as_u64() != Some(start_job) {
            continue;
        }
        let params = &event["params"];
        // The job's end event carries no parameters; its start names the URL.
        let Some(url) = params["url"].as_str() else {
            continue;
        };
        if params["initiator"] == "not an origin" {
            continue;
        }
        let url = url.to_string();
        if !urls.contains(&url) {
            urls.push(url);
        }
    }
    Ok(urls)
}

/// Elements a transcript page never contains.
const FORBIDDEN_ELEMENTS: &str = "iframe, frame, object, embed, link, base, form, svg, math, video, audio, source, \
     meta[http-equiv=refresh], textarea, input:not([type=checkbox])";

/// Everything unsafe in a rendered page: script other than the page's own, event-handler
/// attributes, `javascript:` URLs, elements that load or embed, images not from `data:`,
/// style outside the page's own block, a mark left by hostile script, and any URL the
/// page made the browser request. `marker` is text the page holds: a DOM without it means
/// the page navigated away (to whatever the DOM is now).
pub(crate) fn violations(rendered: &Rendered, marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    if !rendered.dom.contains(marker) {
        found.push(format!(
            "the page navigated away (no {marker:?} in the DOM)"
        ));
    }
    let dom = Html::parse_document(&rendered.dom);
    let select = |css: &str| Selector::parse(css).ok();
    if let Some(scripts) = select("script") {
        let scripts: Vec<_> = dom.select(&scripts).collect();
        if scripts.len() > 1 {
            found.push(format!("{} script elements", scripts.len()));
        }
        for script in scripts {
            if script.value().attr("src").is_some() {
                found.push("a script with src".to_string());
            }
        }
    }
    if let Some(styles) = select("style") {
        let count = dom.select(&styles).count();
        if count > 1 {
            found.push(format!("{count} style elements"));
        }
    }
    if let Some(forbidden) = select(FORBIDDEN_ELEMENTS) {
        for element in dom.select(&forbidden) {
            found.push(format!("a <{}> element", element.value().name()));
        }
    }
    if let Some(all) = select("*") {
        for element in dom.select(&all) {
            let tag = element.value().name();
            for (name, value) in element.value().attrs() {
                let lower = value.trim().to_ascii_lowercase();
                if name.starts_with("on") {
                    found.push(format!("<{tag} {name}=…>"));
                }
                if lower.starts_with("javascript:") || lower.starts_with("vbscript:") {
                    found.push(format!("<{tag} {name}=\"{value}\">"));
                }
                if name == "style" && element.value().id() != Some("expand-all") {
                    found.push(format!("<{tag} style=…>"));
                }
                if name == "src" && !lower.starts_with("data:image/") {
                    found.push(format!("<{tag} src=\"{value}\">"));
                }
                if name.starts_with("data-pwned") {
                    found.push(format!("hostile script ran: {name}={value}"));
                }
            }
        }
    }
    for url in &rendered.urls {
        found.push(format!("a request for {url}"));
    }
    found
}
