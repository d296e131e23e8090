//! Headless Chromium driven over WebDriver (Debian's `chromium` and `chromium-driver`, which
//! `.ci/run` installs): open a page, click, press keys, read the DOM, take a screenshot.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// WebDriver's codes for the keys the viewer listens to.
pub const ARROW_LEFT: &str = "\u{E012}";
pub const ARROW_RIGHT: &str = "\u{E014}";
pub const END: &str = "\u{E010}";

pub struct Browser {
    driver: Child,
    base: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Start chromedriver and a headless Chromium session. The flags keep Chromium from reaching
    /// for the network, which this machine refuses.
    pub fn start() -> Browser {
        for tool in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(tool).exists(),
                "{tool} is missing: install Debian's chromium and chromium-driver (.ci/run does)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().expect("a profile folder");
        let mut browser = Browser {
            driver,
            base: format!("http://127.0.0.1:{port}"),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(format!("{}/status", browser.base))
            .call()
            .is_err()
        {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1000",
            &format!("--user-data-dir={}", browser._profile.path().display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let session = browser.post("/session", caps);
        let id = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser.base = format!("{}/session/{id}", browser.base);
        browser
    }

    fn send(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let reply = match body {
            Some(b) => ureq::post(&url)
                .config()
                .http_status_as_error(false)
                .build()
                .send_json(b),
            None if method == "DELETE" => ureq::delete(&url).call(),
            None => ureq::get(&url)
                .config()
                .http_status_as_error(false)
                .build()
                .call(),
        };
        let mut reply = reply.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = reply.status();
        let v: Value = reply
            .body_mut()
            .read_json()
            .expect("WebDriver answers JSON");
        assert!(
            status.is_success(),
            "{method} {path}: {status}: {}",
            v["value"]
        );
        v["value"].clone()
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.send("POST", path, Some(body))
    }

    fn get(&self, path: &str) -> Value {
        self.send("GET", path, None)
    }

    /// Resize the browser window (the page's viewport follows), as a person narrowing it would.
    pub fn resize(&self, width: u32, height: u32) {
        self.post("/window/rect", json!({"width": width, "height": height}));
    }

    pub fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    /// The first element matching a CSS selector, waiting up to 10 s for it to appear.
    pub fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let found = self.post("/elements", json!({"using": "css selector", "value": css}));
            if let Some(e) = found.as_array().and_then(|a| a.first()) {
                return e[ELEMENT].as_str().expect("an element id").to_string();
            }
            assert!(Instant::now() < deadline, "no element matches {css}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn count(&self, css: &str) -> usize {
        self.post("/elements", json!({"using": "css selector", "value": css}))
            .as_array()
            .map_or(0, |a| a.len())
    }

    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.post(&format!("/element/{e}/click"), json!({}));
    }

    pub fn attr(&self, css: &str, name: &str) -> Option<String> {
        let e = self.find(css);
        self.get(&format!("/element/{e}/attribute/{name}"))
            .as_str()
            .map(String::from)
    }

    pub fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.get(&format!("/element/{e}/text"))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn enabled(&self, css: &str) -> bool {
        let e = self.find(css);
        self.get(&format!("/element/{e}/enabled")).as_bool() == Some(true)
    }

    /// Run a script in the page and return what it returns.
    pub fn script(&self, body: &str) -> Value {
        self.post("/execute/sync", json!({"script": body, "args": []}))
    }

    /// Press and release a key, as a person at the keyboard would (to the focused element).
    pub fn press(&self, key: &str) {
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        );
    }

    /// Wait until a script returns true.
    pub fn wait_for(&self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.script(&format!("return !!({condition});")) != json!(true) {
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn screenshot(&self, path: &Path) {
        let png = self.get("/screenshot");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().expect("base64"))
            .expect("a PNG");
        std::fs::create_dir_all(path.parent().expect("a folder")).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = ureq::delete(&self.base).call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
