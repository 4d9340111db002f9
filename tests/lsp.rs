//! `pld-lsp-server` driven as an editor drives it: a small JSON-RPC client
//! over the server's stdin/stdout (LSP base protocol: `Content-Length`
//! headers). One session: initialize, didOpen a file with a pld verifier
//! error (a publishDiagnostics with the message at the op's line), didChange
//! to a valid file (no diagnostics), hover, definition of a `pl.submit`
//! callee, references, documentSymbol, op-name completion, shutdown and exit within a bound.

use std::{
    io::{BufRead, BufReader, Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, RecvTimeoutError, channel},
    thread,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

/// The bound on every answer (a cold debug binary answers in milliseconds).
const TIMEOUT: Duration = Duration::from_secs(20);

const URI: &str = "file:///tmp/pld-lsp-test/orch.mlir";

/// A valid module: an AIV kernel, an orchestration that submits it and a
/// barrier on an i32 signal window.
const VALID: &str = r#"func.func private @kernel(!pl.tensor<16x4xf32> {pl.direction = "in"},
                          !pl.tensor<16x4xf32> {pl.direction = "out"}) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv"}

func.func @orch(%a: !pl.tensor<16x4xf32>, %b: !pl.tensor<16x4xf32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pl.submit @kernel(%a, %b) : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  %1 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return
}
"#;

/// 0-based lines of `VALID`.
const KERNEL_LINE: u64 = 0;
const SUBMIT_LINE: u64 = 6;
const BARRIER_LINE: u64 = 7;

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    /// Notifications read while waiting for a response.
    pending: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pld-lsp-server"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pld-lsp-server starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return; // the server closed its stdout
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length:") {
                        length = n.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                reader.read_exact(&mut body).expect("a whole message");
                let message: Value = serde_json::from_slice(&body).expect("JSON");
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next_message(&mut self, what: &str) -> Value {
        match self.messages.recv_timeout(TIMEOUT) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no {what} within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server exited before {what}"),
        }
    }

    /// Sends a request and returns its `result` (notifications that arrive
    /// first are kept for [`Client::diagnostics`]).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next_message(&format!("response to {method}"));
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.pending.push(message);
        }
    }

    /// The next `textDocument/publishDiagnostics` for `URI` at `version`.
    fn diagnostics(&mut self, version: u64) -> Vec<Value> {
        loop {
            let message = if self.pending.is_empty() {
                self.next_message("publishDiagnostics")
            } else {
                self.pending.remove(0)
            };
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == URI
                && message["params"]["version"] == json!(version)
            {
                return message["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
    }
}

fn position(line: u64, character: u64) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

#[test]
fn lsp_session() {
    let started = Instant::now();
    let mut client = Client::start();

    let init = client.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    let capabilities = &init["capabilities"];
    for capability in [
        "hoverProvider",
        "definitionProvider",
        "documentSymbolProvider",
        "completionProvider",
    ] {
        assert!(
            !capabilities[capability].is_null(),
            "no {capability}: {init}"
        );
    }
    client.notify("initialized", json!({}));

    // A pld verifier error: the barrier's signal is not an i32 window.
    let invalid = VALID.replace("4xi32", "4xf32");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "mlir", "version": 1, "text": invalid}}),
    );
    let diagnostics = client.diagnostics(1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let error = &diagnostics[0];
    assert_eq!(error["severity"], 1, "an error: {error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("signal must be an i32 [NR] or [NR, S] window")
            && message.contains("!pld.dtensor<4xf32>"),
        "{message}"
    );
    assert_eq!(
        error["range"]["start"]["line"], BARRIER_LINE,
        "at the barrier: {error}"
    );
    assert_eq!(
        error["range"]["start"]["character"], 7,
        "at the op name: {error}"
    );

    // The fix: no diagnostics.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": VALID}]}),
    );
    assert_eq!(client.diagnostics(2), Vec::<Value>::new());

    // Hover on the barrier's op name: the op, from the registered dialect.
    let hover = client.request("textDocument/hover", position(BARRIER_LINE, 10));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("pld.tensor.barrier"), "hover: {hover}");

    // Go to the definition of the pl.submit callee: the kernel's declaration.
    let submit = VALID.lines().nth(SUBMIT_LINE as usize).unwrap();
    let callee = submit.find("@kernel").unwrap() as u64 + 2;
    let definition = client.request("textDocument/definition", position(SUBMIT_LINE, callee));
    let location = match &definition {
        Value::Array(locations) => locations.first().cloned().unwrap_or(Value::Null),
        other => other.clone(),
    };
    assert_eq!(location["uri"], URI, "definition: {definition}");
    assert_eq!(
        location["range"]["start"]["line"], KERNEL_LINE,
        "definition: {definition}"
    );

    // References of the kernel: its declaration and the pl.submit.
    let mut params = position(KERNEL_LINE, "func.func private @ke".len() as u64);
    params["context"] = json!({"includeDeclaration": true});
    let references = client.request("textDocument/references", params);
    let lines: Vec<u64> = references
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|l| l["range"]["start"]["line"].as_u64())
                .collect()
        })
        .unwrap_or_default();
    assert!(lines.contains(&SUBMIT_LINE), "references: {references}");

    // Document symbols: both functions.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let text = symbols.to_string();
    for name in ["kernel", "orch"] {
        assert!(text.contains(&format!("\"{name}\"")), "symbols: {symbols}");
    }

    // Op-name completion where an op is being typed after `pld.`.
    let typing = VALID.replace(
        "  %1 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>",
        "  %1 = pld.",
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": typing}]}),
    );
    let completion = client.request(
        "textDocument/completion",
        position(BARRIER_LINE, "  %1 = pld.".len() as u64),
    );
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for op in ["tensor.barrier", "tensor.all_to_all_v", "window"] {
        assert!(labels.contains(&op), "no {op} in {labels:?}");
    }

    // shutdown, exit: the process ends, successfully, within the bound.
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = client.child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            client.child.kill().ok();
            panic!("pld-lsp-server still running {TIMEOUT:?} after exit");
        }
        thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status}");
    eprintln!("lsp session: {:?}", started.elapsed());
}
