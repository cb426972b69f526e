//! `modelatlas mcp` in a scripted client session over stdio, as an agent runs it: initialize,
//! the initialized notification, tools/list, tools/call of each tool, and bad calls.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs one session: every message in order, then closes stdin; returns the replies by id.
fn session(messages: &[Value], raw: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(repo())
        .args(["mcp", "--hub", "hub"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for m in messages {
            writeln!(stdin, "{m}").unwrap();
        }
        for line in raw {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let replies: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "the server exits 0 when its input ends");
    replies
}

fn by_id(replies: &[Value], id: i64) -> &Value {
    replies.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("no reply to {id}: {replies:?}"))
}

fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_modelatlas")).current_dir(repo()).args(args).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_scripted_session_initializes_lists_the_tools_and_calls_them() {
    let replies = session(
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "plan_model", "arguments": {"model": "meta-llama/Llama-2-7b-hf"}}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "what_if", "arguments": {"model": "meta-llama/Llama-2-7b-hf", "mode": "lora", "card": "a100-40gb", "batch": 4, "seq": 1024}}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "plan_model", "arguments": {"name": "tiny", "config": {"model_type": "gpt2", "n_layer": 2, "n_embd": 64, "n_head": 4, "vocab_size": 1000, "n_positions": 128}, "recipe": "amp-sgd-momentum"}}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}),
        ],
        &[],
    );
    assert_eq!(replies.len(), 6, "one reply per request, none to the notification");
    let init = &by_id(&replies, 1)["result"];
    assert_eq!(init["protocolVersion"], "2025-06-18");
    assert_eq!(init["serverInfo"]["name"], "modelatlas");
    assert!(init["capabilities"]["tools"].is_object());

    let tools = by_id(&replies, 2)["result"]["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["plan_model", "what_if"]);
    assert!(tools.iter().all(|t| t["inputSchema"]["type"] == "object"));

    // plan_model: the Markdown twin, then the model JSON, as `modelatlas plan` prints them.
    let plan = &by_id(&replies, 3)["result"];
    assert_eq!(plan["isError"], false);
    let content = plan["content"].as_array().unwrap();
    assert!(
        content[0]["text"] == cli(&["plan", "meta-llama/Llama-2-7b-hf", "--format", "md"]),
        "the Markdown twin differs"
    );
    assert!(
        content[1]["text"] == cli(&["plan", "meta-llama/Llama-2-7b-hf", "--format", "json"]),
        "the JSON differs"
    );
    // Llama-2-7B written out: 32 layers of q, k, v, o (4096^2 each), gate, up, down (4096 x 11008)
    // and two RMSNorms; untied embeddings and head of 32000 x 4096; a final norm.
    let layer = 4 * 4096u64 * 4096 + 3 * 4096 * 11008 + 2 * 4096;
    let expected = 32 * layer + 2 * 32_000 * 4096 + 4096;
    assert_eq!(expected, 6_738_415_616);
    let page: Value = serde_json::from_str(content[1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(page["params"]["derived"], expected);

    // what_if: the command's JSON, also as structured content.
    let what = &by_id(&replies, 4)["result"];
    let expected: Value = serde_json::from_str(&cli(&[
        "what-if",
        "meta-llama/Llama-2-7b-hf",
        "--mode",
        "lora",
        "--card",
        "a100-40gb",
        "--batch",
        "4",
        "--seq",
        "1024",
    ]))
    .unwrap();
    assert_eq!(what["structuredContent"], expected);

    // A config given inline, with a training input.
    let tiny = &by_id(&replies, 5)["result"];
    assert_eq!(tiny["isError"], false, "{tiny}");
    let page: Value = serde_json::from_str(tiny["content"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(page["id"], "tiny");
    assert_eq!(page["training"]["options"]["recipe"], "amp-sgd-momentum");
    // GPT-2 at n_embd 64, 2 layers, vocab 1000, 128 positions (the same sum as GPT-2 small).
    let h = 64u64;
    let layer = 2 * (2 * h) + (h * 3 * h + 3 * h) + (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h);
    assert_eq!(page["params"]["derived"], 1000 * h + 128 * h + 2 * layer + 2 * h);
    assert_eq!(by_id(&replies, 6)["result"], json!({}));
}

#[test]
fn bad_calls_get_protocol_errors_or_tool_errors_that_name_the_field() {
    let replies = session(
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "1999-01-01"}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "plan_model", "arguments": {"config": {"model_type": "llama", "hidden_size": "big"}}}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "plan_model", "arguments": {"model": "nobody/nothing"}}}),
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "what_if", "arguments": {"model": "openai-community/gpt2", "card": "t4-16gb"}}}),
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "plan_model", "arguments": {"model": "openai-community/gpt2", "lora_rank": "big"}}}),
        ],
        &["{not json"],
    );
    // An unknown protocol revision is answered with the server's newest.
    assert_eq!(by_id(&replies, 1)["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(by_id(&replies, 2)["error"]["code"], -32602);
    assert_eq!(by_id(&replies, 3)["error"]["code"], -32601);
    let tool_error = |id: i64| {
        let r = &by_id(&replies, id)["result"];
        assert_eq!(r["isError"], true, "{r}");
        r["content"][0]["text"].as_str().unwrap().to_string()
    };
    assert!(tool_error(4).contains("config.hidden_size"));
    assert!(tool_error(5).contains("(model)"));
    assert!(tool_error(6).contains("(mode)"));
    assert!(tool_error(7).contains("(lora_rank)"));
    let parse = replies.iter().find(|r| r["id"].is_null()).unwrap();
    assert_eq!(parse["error"]["code"], -32700);
}
