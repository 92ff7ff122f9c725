//! The fixed parts of the page: its style, its one small script, and the policy that lets
//! nothing else run or load.
//!
//! The Content-Security-Policy allows exactly this style and this script (by their SHA-256
//! hashes), images only from `data:` URLs, and nothing from the network or the disk:
//! `default-src 'none'`. The page reads fine without the script; the script only shows times
//! in the reader's zone and adds "expand all".

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The page's style.
pub(crate) const STYLE: &str = r#"
:root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--panel:#f6f8fa;--line:#d0d7de;--user:#ddf4ff;--accent:#0969da;--add:#dafbe1;--del:#ffebe9;--warn:#fff8c5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--panel:#161b22;--line:#30363d;--user:#0c2d6b;--accent:#4493f8;--add:#033a16;--del:#67060c;--warn:#3b2e00}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:980px;margin:0 auto;padding:24px 16px 80px}
h1{font-size:1.4em;margin:0 0 8px;word-break:break-all}
header dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0 16px;color:var(--muted)}
header dd{margin:0;color:var(--fg);word-break:break-all}
pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word;max-height:60vh}
nav.toc{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:0 0 16px}
nav.toc ol{margin:4px 0;padding-left:2.5em;max-height:40vh;overflow:auto}
nav.toc a{color:var(--accent);text-decoration:none}
section.turn{border-top:2px solid var(--line);padding:8px 0 4px;content-visibility:auto;contain-intrinsic-size:auto 400px}
section.turn>h2{font-size:1.1em;margin:8px 0;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
section.rolled-back{opacity:.6}
.badge{font-size:.75em;font-weight:600;border:1px solid var(--line);border-radius:10px;padding:0 8px;color:var(--muted)}
.badge.completed{color:#1a7f37}.badge.interrupted,.badge.rolled-back{color:#9a6700;background:var(--warn)}.badge.failed{color:#cf222e}
.entry{margin:10px 0}
.who{font-weight:600;font-size:.85em;color:var(--muted);display:flex;gap:8px;align-items:baseline}
.user .body{background:var(--user);border-radius:8px;padding:6px 12px}
.assistant.commentary .body{color:var(--muted)}
.body>:first-child{margin-top:4px}.body>:last-child{margin-bottom:4px}
time,.at{color:var(--muted);font-weight:400;font-size:.8em}
details{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--bg)}
details>summary{cursor:pointer;padding:4px 10px;list-style-position:inside;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
details[open]>summary{border-bottom:1px solid var(--line)}
details>.inner{padding:4px 10px}
.tool-name{font-weight:600}
.exit.ok{color:#1a7f37}.exit.bad{color:#cf222e}
.meta{color:var(--muted);font-size:.85em}
.cut{color:var(--muted);font-style:italic;margin:4px 0}
.diff .add{background:var(--add);display:block}.diff .del{background:var(--del);display:block}.diff .hunk{color:var(--accent);display:block}.diff .file{font-weight:700;display:block}
figure{margin:8px 0}figure img{max-width:100%;height:auto;border:1px solid var(--line);border-radius:4px}
figcaption,.missing-image{color:var(--muted);font-size:.85em}
.note{color:var(--muted);font-style:italic}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:2px 6px}
#expand-all{display:none;float:right}
"#;

/// The page's script: local times (UTC stays in the tooltip) and an expand-all button.
pub(crate) const SCRIPT: &str = r#"
(function(){
  var times=document.querySelectorAll('time[datetime]');
  for(var i=0;i<times.length;i++){
    var t=times[i],d=new Date(t.getAttribute('datetime'));
    if(isNaN(d.getTime()))continue;
    t.textContent=t.classList.contains('day')?d.toLocaleString():d.toLocaleTimeString();
  }
  var button=document.getElementById('expand-all');
  if(!button)return;
  button.style.display='inline-block';
  var open=false;
  button.addEventListener('click',function(){
    open=!open;
    var all=document.querySelectorAll('details.fold');
    for(var j=0;j<all.length;j++)all[j].open=open;
    button.textContent=open?'Collapse all':'Expand all';
  });
})();
"#;

/// The `Content-Security-Policy` of the page: only [`STYLE`] and [`SCRIPT`], images from
/// `data:` URLs, nothing else from anywhere.
pub(crate) fn content_security_policy() -> String {
    format!(
        "default-src 'none'; style-src '{}'; script-src '{}'; img-src data:; \
         base-uri 'none'; form-action 'none'",
        sha256_source(STYLE),
        sha256_source(SCRIPT)
    )
}

/// A CSP hash source (`sha256-<base64>`) of an inline block.
fn sha256_source(block: &str) -> String {
    format!(
        "sha256-{}",
        STANDARD.encode(Sha256::digest(block.as_bytes()))
    )
}
