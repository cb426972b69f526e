//! `modelatlas mcp`: a Model Context Protocol server over stdio (JSON-RPC 2.0, one message per
//! line), with two tools:
//!
//! - `plan_model`: a Hub ID from the snapshot (`model`) or a config (`config`, as a JSON object or
//!   its text), with the training inputs; returns the Markdown twin and the model JSON;
//! - `what_if`: the same model arguments with `mode`, `card`, `batch`, `seq`; returns
//!   `modelatlas what-if`'s JSON.
//!
//! Written on serde_json rather than the official Rust SDK (rmcp), which brings an async runtime
//! and a schema generator for two tools on a line-based pipe (build cost in the README).

use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{Value, json};

use crate::api::{self, ApiError, Files, Inputs, WhatIfRequest};
use crate::model_id::ModelId;
use crate::render::{PlanFormat, Renderer};
use crate::source::hub_cache::HubCacheSource;
use crate::source::{ModelFiles, ModelSource};

/// The protocol revisions this server speaks, newest first; it answers a client with the
/// client's revision when it knows it, else with its newest.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    #[error("stdio: {0}")]
    Io(#[from] std::io::Error),
}

/// Serves requests from `input` until it ends, answering on `output`.
pub fn run(input: impl BufRead, mut output: impl Write, hub: &Path) -> Result<(), McpError> {
    let server = McpServer { renderer: Renderer::new(), hub: HubCacheSource::new(hub) };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(reply) = server.handle_line(&line) {
            writeln!(output, "{reply}")?;
            output.flush()?;
        }
    }
    Ok(())
}

pub struct McpServer {
    renderer: Renderer,
    hub: HubCacheSource,
}

fn rpc_error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

impl McpServer {
    pub fn new(hub: &Path) -> Self {
        McpServer { renderer: Renderer::new(), hub: HubCacheSource::new(hub) }
    }

    /// One message in, at most one message out (notifications get none).
    pub fn handle_line(&self, line: &str) -> Option<Value> {
        let msg: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return Some(rpc_error(Value::Null, -32700, format!("parse error: {e}"))),
        };
        let id = msg.get("id").cloned();
        let Some(method) = msg.get("method").and_then(Value::as_str) else {
            // A response from the client (this server sends no requests) or garbage.
            return id.map(|id| rpc_error(id, -32600, "invalid request: no method"));
        };
        let Some(id) = id else {
            return None; // notifications/initialized, notifications/cancelled, ...
        };
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let result = match method {
            "initialize" => Ok(self.initialize(&params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({"tools": tools()})),
            "tools/call" => self.call(&params),
            other => Err((-32601, format!("method not found: {other}"))),
        };
        Some(match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, message)) => rpc_error(id, code, message),
        })
    }

    fn initialize(&self, params: &Value) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str).unwrap_or("");
        let version = PROTOCOL_VERSIONS.iter().find(|v| **v == asked).unwrap_or(&PROTOCOL_VERSIONS[0]);
        json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": "modelatlas", "version": env!("CARGO_PKG_VERSION")},
            "instructions": "Plan Hugging Face models from config.json alone: exact parameter counts, memory to fine-tune and serve, fit per GPU. plan_model takes a Hub ID in the snapshot or a config; what_if evaluates one mode at a batch, length and card."
        })
    }

    fn call(&self, params: &Value) -> Result<Value, (i64, String)> {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .ok_or((-32602, "tools/call needs a tool name".to_string()))?;
        let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
        if !args.is_object() {
            return Err((-32602, "arguments must be an object".into()));
        }
        let outcome = match name {
            "plan_model" => self.plan_model(&args),
            "what_if" => self.what_if(&args),
            other => return Err((-32602, format!("unknown tool {other:?}; plan_model or what_if"))),
        };
        // A tool that fails answers with isError, so that the agent reads why (the MCP way to
        // report an execution error, as opposed to a protocol error).
        Ok(match outcome {
            Ok(v) => v,
            Err(e) => json!({
                "content": [{"type": "text", "text": format!("error ({}): {}", if e.field.is_empty() { "request" } else { &e.field }, e.message)}],
                "isError": true
            }),
        })
    }

    fn files(&self, args: &Value) -> Result<ModelFiles, ApiError> {
        let model = args.get("model").and_then(Value::as_str);
        let config = args.get("config");
        match (model, config) {
            (Some(_), Some(_)) => Err(ApiError::bad("model", "give either model or config, not both")),
            (None, None) => {
                Err(ApiError::bad("model", "give model (a Hub ID in the snapshot) or config (a config.json)"))
            }
            (Some(id), None) => {
                let id = ModelId::parse(id).map_err(|e| ApiError::bad("model", e.to_string()))?;
                self.hub.load(&id).map_err(|e| ApiError {
                    status: 404,
                    field: "model".into(),
                    message: e.to_string(),
                })
            }
            (None, Some(c)) => api::model_files(&Files {
                name: args.get("name").and_then(Value::as_str).unwrap_or("").to_string(),
                config: match c {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                },
                index: None,
                safetensors_header: None,
            }),
        }
    }

    fn inputs(args: &Value, with_run: bool) -> Result<Inputs, ApiError> {
        let text = |k: &str| -> Result<Option<String>, ApiError> {
            match args.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(Value::Array(a)) if k == "lora_targets" => Ok(Some(
                    a.iter()
                        .map(|v| {
                            v.as_str()
                                .map(str::to_string)
                                .ok_or_else(|| ApiError::bad(k, "a list of module names"))
                        })
                        .collect::<Result<Vec<_>, _>>()?
                        .join(","),
                )),
                Some(_) => Err(ApiError::bad(k, format!("{k} must be a string"))),
            }
        };
        let number = |k: &str| -> Result<Option<u64>, ApiError> {
            match args.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| ApiError::bad(k, format!("{k} must be a whole number"))),
            }
        };
        Ok(Inputs {
            recipe: text("recipe")?,
            attention: text("attention")?,
            checkpointing: match args.get("checkpointing") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    Some(v.as_bool().ok_or_else(|| {
                        ApiError::bad("checkpointing", "checkpointing must be true or false")
                    })?)
                }
            },
            lora_rank: number("lora_rank")?,
            lora_targets: text("lora_targets")?,
            transformers: text("transformers")?,
            epochs: if with_run { number("epochs")? } else { None },
            samples: if with_run { number("samples")? } else { None },
            batch: if with_run { number("batch")? } else { None },
        })
    }

    fn plan_model(&self, args: &Value) -> Result<Value, ApiError> {
        let page = api::plan_files(&self.files(args)?, &Self::inputs(args, true)?)?;
        let markdown = self.renderer.plan(&page, PlanFormat::Markdown)?;
        let json_text = self.renderer.plan(&page, PlanFormat::Json)?;
        Ok(
            json!({"content": [{"type": "text", "text": markdown}, {"type": "text", "text": json_text}], "isError": false}),
        )
    }

    fn what_if(&self, args: &Value) -> Result<Value, ApiError> {
        let s = |k: &str| {
            args.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| ApiError::bad(k, format!("{k} is required (a string)")))
        };
        let n = |k: &str| match args.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                v.as_u64().map(Some).ok_or_else(|| ApiError::bad(k, format!("{k} must be a whole number")))
            }
        };
        let q = WhatIfRequest {
            mode: s("mode")?,
            card: s("card")?,
            batch: n("batch")?.unwrap_or(1),
            seq: n("seq")?,
        };
        let page = api::plan_files(&self.files(args)?, &Self::inputs(args, false)?)?;
        let answer = api::what_if(&page, &q)?;
        let text = serde_json::to_string_pretty(&answer).map_err(|e| ApiError {
            status: 500,
            field: String::new(),
            message: e.to_string(),
        })?;
        Ok(
            json!({"content": [{"type": "text", "text": text}], "structuredContent": answer, "isError": false}),
        )
    }
}

fn training_properties() -> Value {
    json!({
        "recipe": {"type": "string", "enum": crate::estimate::training::RECIPES.iter().map(|r| r.id).collect::<Vec<_>>(), "description": "precision recipe (default amp-adamw)"},
        "attention": {"type": "string", "enum": ["sdpa", "eager"]},
        "checkpointing": {"type": "boolean"},
        "lora_rank": {"type": "integer", "minimum": 1},
        "lora_targets": {"type": "string", "description": "comma-separated module names (q_proj,v_proj); empty: every linear of the layers"},
        "transformers": {"type": "string", "enum": ["4.46", "4.57", "5.x"], "description": "the transformers release whose saved tensors are counted (default 5.x)"}
    })
}

fn model_properties() -> Value {
    json!({
        "model": {"type": "string", "description": "a Hub ID in the server's snapshot, e.g. meta-llama/Llama-2-7b-hf"},
        "config": {"type": ["object", "string"], "description": "a config.json, as an object or its text (instead of model)"},
        "name": {"type": "string", "description": "how the plan names a config given inline"}
    })
}

fn merge(mut a: Value, b: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

fn tools() -> Value {
    let plan_props = merge(
        merge(model_properties(), training_properties()),
        json!({
            "epochs": {"type": "integer", "minimum": 1}, "samples": {"type": "integer", "minimum": 1},
            "batch": {"type": "integer", "minimum": 1, "description": "the priced training run's batch"}
        }),
    );
    let what_props = merge(
        merge(model_properties(), training_properties()),
        json!({
            "mode": {"type": "string", "enum": ["full", "lora", "qlora", "serve"]},
            "card": {"type": "string", "description": "a card id from the catalogue: t4-16gb, a100-40gb, a100-80gb, h100-80gb, h200-141gb, ..."},
            "batch": {"type": "integer", "minimum": 1}, "seq": {"type": "integer", "minimum": 1, "description": "tokens per sample (default: the plan's length)"}
        }),
    );
    json!([
        {
            "name": "plan_model",
            "title": "Plan a model from its config.json",
            "description": "Exact parameter count, memory to fine-tune (full, LoRA, QLoRA) and serve, fit per GPU card, cost, and the verifier's findings, from config.json alone. Returns the Markdown twin, then the model JSON (schema_version 7: per-card figures follow from its coefficients and the site's cards.json).",
            "inputSchema": {"type": "object", "properties": plan_props, "additionalProperties": false}
        },
        {
            "name": "what_if",
            "title": "Memory for one mode at a batch, a length and a card",
            "description": "The peak memory, the phase that sets it, the card's share and the verdict (comfortable, tight, does_not_fit), as `modelatlas what-if` prints it.",
            "inputSchema": {"type": "object", "properties": what_props, "required": ["mode", "card"], "additionalProperties": false}
        }
    ])
}
