//! A seeded mutation fuzzer over the planner and the three renderers.
//!
//! Stable Rust has no coverage-guided fuzzer without a nightly toolchain (cargo-fuzz) or a
//! separately built AFL++, so this is a structure-aware mutation fuzzer: it starts from every
//! config of the snapshot, mutates the JSON tree (values set to extremes, keys removed, copied,
//! nested, renamed) or the raw bytes, plans the result with a tensor-name list that is mutated too,
//! and renders the HTML page, the Markdown twin and the JSON. It fails on a panic, on a refusal
//! that does not name the file, on output larger than [`MAX_OUTPUT`], and on a render that is not
//! deterministic. Each failing input is written to `target/test-output/fuzz/`.
//!
//! The test command runs it for a few seconds. A long run, in release mode:
//!
//!     MODELATLAS_FUZZ_SECONDS=1800 cargo test --release --test fuzz -- --nocapture
//!
//! `MODELATLAS_FUZZ_SEED` picks another seed (the default is fixed, so CI runs are repeatable).

mod common;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use modelatlas::model_id::ModelId;
use modelatlas::source::{ModelFiles, ModelSource};
use serde_json::{Value, json};

/// The most bytes one model's three files may take: the largest real page is well under 1 MB.
const MAX_OUTPUT: usize = 16 << 20;

/// splitmix64: a tiny, well-known generator, so a seed reproduces a run exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn interesting_value(rng: &mut Rng, keys: &[String]) -> Value {
    match rng.below(22) {
        0 => json!(0),
        1 => json!(1),
        2 => json!(-1),
        3 => json!(u64::MAX),
        4 => json!(i64::MIN),
        5 => json!(1u64 << 32),
        6 => json!((1u64 << 31) - 1),
        7 => json!(1e300),
        8 => json!(-1e300),
        9 => json!(1e-300),
        10 => json!(0.5),
        11 => json!(rng.below(70_000)),
        12 => json!(rng.below(17)),
        13 => Value::Null,
        14 => json!(true),
        15 => json!(""),
        16 => json!(*rng.pick(&[
            "<script>alert(1)</script>",
            "a|b`c#d\n# heading",
            "[x](javascript:alert(1))",
            "llama",
            "mixtral",
            "gelu_new",
            "not_an_activation",
            "LlamaForCausalLM",
            "Qwen2",
            "linear",
            "yarn",
            "dynamic",
        ])),
        17 => json!([]),
        18 => json!({}),
        19 => json!([rng.below(100), rng.below(100)]),
        20 => json!({ rng.pick(keys).clone(): rng.below(5000) }),
        _ => json!("x".repeat(rng.below(300))),
    }
}

/// One mutation somewhere in the tree.
fn mutate_tree(v: &mut Value, rng: &mut Rng, keys: &[String], root: &Value, depth: usize) {
    match v {
        Value::Object(map) if !map.is_empty() && depth < 4 && rng.below(5) > 0 => {
            let names: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&names).clone();
            match rng.below(10) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    let other = rng.pick(keys).clone();
                    let val = interesting_value(rng, keys);
                    map.insert(other, val);
                }
                2 => {
                    // A composite config: the whole config again, nested.
                    map.insert(
                        (*rng.pick(&["text_config", "vision_config", "rope_scaling"])).into(),
                        root.clone(),
                    );
                }
                3 => {
                    let other = rng.pick(&names).clone();
                    if let Some(val) = map.get(&other).cloned() {
                        map.insert(key, val);
                    }
                }
                _ => {
                    if let Some(child) = map.get_mut(&key) {
                        mutate_tree(child, rng, keys, root, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() && rng.below(3) > 0 => {
            let i = rng.below(items.len());
            mutate_tree(&mut items[i], rng, keys, root, depth + 1);
        }
        Value::Number(n) if rng.below(2) == 0 => {
            // Near the value: off by one, doubled, halved, or times a large factor.
            let x = n.as_u64().unwrap_or(1);
            *v = json!(match rng.below(5) {
                0 => x.saturating_add(1),
                1 => x.saturating_sub(1),
                2 => x.saturating_mul(2),
                3 => x / 2,
                _ => x.saturating_mul(1 << rng.below(40)),
            });
        }
        _ => *v = interesting_value(rng, keys),
    }
}

fn mutate_bytes(text: &str, rng: &mut Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len());
        match rng.below(5) {
            0 => b[i] ^= 1 << rng.below(8),
            1 => {
                let end = (i + rng.below(16)).min(b.len());
                b.drain(i..end);
            }
            2 => {
                const TOKENS: [&str; 7] = ["1e999", "-0", "\"", "{", "]", "\\u0000", "99999999999999999999"];
                let token = rng.pick(&TOKENS).as_bytes();
                b.splice(i..i, token.iter().copied());
            }
            3 => b.truncate(i),
            _ => b[i] = b'9',
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The tensor names a checkpoint index would list, mutated: some dropped, some renamed, some
/// made up.
fn mutate_names(names: &[String], rng: &mut Rng) -> Option<Vec<String>> {
    if names.is_empty() || rng.below(3) == 0 {
        return None;
    }
    let mut out: Vec<String> = names.iter().filter(|_| rng.below(10) > 0).cloned().collect();
    for _ in 0..rng.below(4) {
        match rng.below(3) {
            0 => out.push(format!("model.layers.{}.mlp.up_proj.weight", rng.below(100_000))),
            1 => out.push("lm_head.weight".into()),
            _ => out.push(format!("{}.extra", rng.pick(names))),
        }
    }
    Some(out)
}

struct Seed {
    id: String,
    config: Value,
    names: Vec<String>,
}

fn seeds() -> Vec<Seed> {
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    manifest
        .models
        .iter()
        .map(|id| {
            let files = common::snapshot().load(&ModelId::parse(&id.to_string()).unwrap()).unwrap();
            Seed {
                id: id.to_string(),
                config: serde_json::from_str(&files.config_text).unwrap(),
                names: files.index_tensor_names.clone().unwrap_or_default(),
            }
        })
        .collect()
}

fn files(config_text: String, names: Option<Vec<String>>) -> ModelFiles {
    ModelFiles {
        label: "fuzz/model".into(),
        config_text,
        config_path: "fuzz/config.json".into(),
        commit: None,
        meta: None,
        index_tensor_names: names,
    }
}

enum Verdict {
    Rendered(usize),
    Refused(String),
}

fn plan_and_render(
    f: &ModelFiles,
    renderer: &modelatlas::render::Renderer,
    site: &modelatlas::manifest::SiteSettings,
) -> Result<Verdict, String> {
    match modelatlas::plan::plan(f, Some("model.html".into())) {
        Err(e) => {
            let msg = e.to_string();
            if !msg.contains("config.json") && !msg.contains("fuzz/model") {
                return Err(format!("a refusal that names neither the model nor the file: {msg}"));
            }
            Ok(Verdict::Refused(msg))
        }
        Ok(page) => {
            let out = renderer.model(&page, site, "../../").map_err(|e| format!("render error: {e}"))?;
            let bytes = out.html.len() + out.markdown.len() + out.json.len();
            if bytes > MAX_OUTPUT {
                return Err(format!("{bytes} bytes of output for one model"));
            }
            Ok(Verdict::Rendered(bytes))
        }
    }
}

#[test]
fn mutated_configs_plan_and_render_or_are_refused_by_name_never_panic_nor_explode() {
    let seconds: u64 =
        std::env::var("MODELATLAS_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
    let seed: u64 =
        std::env::var("MODELATLAS_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_203);
    let mut rng = Rng(seed);
    let seeds = seeds();
    let site = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap().site;
    let keys: Vec<String> = seeds
        .iter()
        .flat_map(|s| s.config.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let renderer = modelatlas::render::Renderer::new();
    let crashes = common::repo().join("target/test-output/fuzz");
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut runs, mut rendered, mut refused, mut largest) = (0u64, 0u64, 0u64, 0usize);
    let mut messages = BTreeSet::new();
    let mut failures: Vec<String> = vec![];
    // A panic is caught and reported with its input; keep the default hook quiet meanwhile.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    while Instant::now() < deadline && failures.len() < 5 {
        let s = &seeds[rng.below(seeds.len())];
        let text = if rng.below(8) == 0 {
            mutate_bytes(&s.config.to_string(), &mut rng)
        } else {
            let mut v = s.config.clone();
            for _ in 0..=rng.below(3) {
                mutate_tree(&mut v, &mut rng, &keys, &s.config, 0);
            }
            v.to_string()
        };
        let f = files(text, mutate_names(&s.names, &mut rng));
        runs += 1;
        let verdict = catch_unwind(AssertUnwindSafe(|| plan_and_render(&f, &renderer, &site)))
            .unwrap_or_else(|p| {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(format!("panic: {why}"))
            });
        match verdict {
            Ok(Verdict::Rendered(bytes)) => {
                rendered += 1;
                largest = largest.max(bytes);
                // Deterministic: one input in 64 is rendered again and must come out the same.
                if rng.below(64) == 0 {
                    let again = catch_unwind(AssertUnwindSafe(|| plan_and_render(&f, &renderer, &site)));
                    if !matches!(again, Ok(Ok(Verdict::Rendered(b))) if b == bytes) {
                        failures.push(format!("{}: a second render differs", s.id));
                    }
                }
            }
            Ok(Verdict::Refused(msg)) => {
                refused += 1;
                // Messages, without the numbers, show how many distinct refusals were reached.
                messages.insert(msg.chars().filter(|c| !c.is_ascii_digit()).collect::<String>());
            }
            Err(why) => {
                let _ = std::fs::create_dir_all(&crashes);
                let path = crashes.join(format!("case-{seed}-{runs}.json"));
                let _ = std::fs::write(&path, &f.config_text);
                failures.push(format!("{} (seed {}): {why}; input in {}", s.id, seed, path.display()));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "fuzz: seed {seed}, {runs} runs in {seconds} s ({:.0}/s): {rendered} rendered, {refused} refused \
         ({} distinct messages), largest output {largest} bytes",
        runs as f64 / seconds as f64,
        messages.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(runs > 50 && rendered > 0 && refused > 0, "the fuzzer barely ran: {runs} runs");
}
