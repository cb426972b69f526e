//! schema_version 4 left the per-card rows, the multi-card plans, the cost per card and the
//! repeated summaries out of the model JSON: a script computes them from the model's coefficients
//! and the site's `cards.json`. These tests evaluate the formulas the README gives, written out
//! here from the JSON text alone, and require them to give what the fit, cost and training code
//! put on the page (the Rust structs the pages render), for every card of the catalogue. The
//! formulas hold unchanged under schema_version 5, which folds runs of like layers (the structure
//! and the activation rows are read as the README's "schema_version 5" section says).

mod common;

use modelatlas::estimate::cards;
use modelatlas::estimate::fit::Verdict;
use modelatlas::page::ModelPage;
use serde_json::Value;

/// Models with every kind of term: dense (Llama-2), mixture of experts (Mixtral), sliding windows
/// (Mistral-7B, gpt-oss), an encoder (xlm-roberta), an encoder-decoder with eager attention and a
/// cross-attention cache (T5), a state-space hybrid (Jamba), multi-query attention with a 256k vocabulary (Gemma).
const MODELS: &[&str] = &[
    "meta-llama/Llama-2-7b-hf",
    "mistralai/Mixtral-8x7B-v0.1",
    "mistralai/Mistral-7B-v0.1",
    "openai/gpt-oss-20b",
    "FacebookAI/xlm-roberta-base",
    "google-t5/t5-small",
    "ai21labs/AI21-Jamba-1.5-Mini",
    "alpindale/gemma-2b-it",
];

/// The model's JSON and the site's `cards.json`, as a script reads them: parsed from their text.
fn documents(page: &ModelPage) -> (Value, Value) {
    let json = serde_json::to_string(&page.json()).unwrap();
    let cards = serde_json::to_string(&modelatlas::model_json::cards_json(cards::builtin())).unwrap();
    (serde_json::from_str(&json).unwrap(), serde_json::from_str(&cards).unwrap())
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// `[fixed, per_sample, per_token, per_token_sq, windowed_per_token, window]`, trailing zeros
/// left out.
fn term(terms: &[Value], i: usize) -> f64 {
    terms.get(i).map_or(0.0, f)
}

/// What one sample of `s` tokens adds: per_sample + s x per_token + s^2 x per_token_sq +
/// min(s, window) x windowed_per_token (the last only where window > 0).
fn growth(terms: &[Value], s: f64) -> f64 {
    let window = term(terms, 5);
    let windowed = if window > 0.0 { s.min(window) * term(terms, 4) } else { 0.0 };
    term(terms, 1) + s * term(terms, 2) + s * s * term(terms, 3) + windowed
}

/// Allocated bytes at batch b: fixed + b x growth.
fn allocated(terms: &[Value], b: f64, s: f64) -> f64 {
    term(terms, 0) + b * growth(terms, s)
}

/// A mode's phases' terms (each phase is `[name, terms...]`).
fn phases(mode: &Value) -> Vec<Vec<Value>> {
    mode["phases"].as_array().unwrap().iter().map(|p| p.as_array().unwrap()[1..].to_vec()).collect()
}

struct Card<'a> {
    json: &'a Value,
    bytes: f64,
    /// The runtime's fixed bytes on this card for a mode: workspaces x workspace_bytes +
    /// context_bytes.
    runtime_training: f64,
    runtime_serving: f64,
}

fn card_list(cards: &Value) -> Vec<Card<'_>> {
    let w = f(&cards["training_workspaces"]);
    cards["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let rt = &c["runtime"];
            Card {
                json: c,
                bytes: f(&c["memory_gb"]) * 1e9,
                runtime_training: w * f(&rt["workspace_bytes"]) + f(&rt["context_bytes"]),
                runtime_serving: f(&rt["workspace_bytes"]) + f(&rt["context_bytes"]),
            }
        })
        .collect()
}

/// nvidia-smi's figure for a phase at batch b: allocated x (1 + f) + the runtime.
fn nvidia_smi(terms: &[Value], b: f64, s: f64, k: f64, runtime: f64) -> f64 {
    allocated(terms, b, s) * k + runtime
}

/// The largest batch within fit_share of the card, as the README states it: 0 where batch 1
/// does not fit; else, over the phases that grow with the batch,
/// min floor((fit_share x card - (fixed x (1 + f) + runtime)) / (growth(s) x (1 + f))).
fn largest_batch(phases: &[Vec<Value>], s: f64, k: f64, runtime: f64, budget: f64) -> u64 {
    let peak = phases.iter().map(|t| nvidia_smi(t, 1.0, s, k, runtime)).fold(0.0, f64::max);
    if peak > budget {
        return 0;
    }
    phases
        .iter()
        .filter(|t| growth(t, s) > 0.0)
        .map(|t| ((budget - (term(t, 0) * k + runtime)) / (growth(t, s) * k)).floor() as u64)
        .min()
        .unwrap_or(0)
}

fn verdict(peak: f64, card: f64, cards: &Value) -> Verdict {
    if peak <= f(&cards["comfortable_share"]) * card {
        Verdict::Comfortable
    } else if peak <= f(&cards["fit_share"]) * card {
        Verdict::Tight
    } else {
        Verdict::DoesNotFit
    }
}

/// The sweep: the lengths of cards.json's `sweep` below the model's context, then the context.
fn sweep(cards: &Value, context: u64) -> Vec<u64> {
    let mut v: Vec<u64> = cards["sweep"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .filter(|s| *s < context)
        .collect();
    v.push(context);
    v
}

#[test]
fn the_largest_batch_on_every_card_computed_from_the_json_and_cards_json_is_what_the_fit_put_on_the_page() {
    let mut checked = 0;
    for id in MODELS {
        let page = common::plan_id(id);
        let (json, cards) = documents(&page);
        let fit = page.fit.as_ref().unwrap();
        let k = 1.0 + f(&cards["allocator_reserve_fraction"]);
        let seq = json["fit"]["seq_len"].as_f64().unwrap();
        let context = json["config"]["context"].as_u64().unwrap();
        for mode in json["fit"]["modes"].as_array().unwrap() {
            let id_mode = mode["id"].as_str().unwrap();
            let ph = phases(mode);
            let mut smallest = None;
            for card in card_list(&cards) {
                let runtime = if id_mode == "serve" { card.runtime_serving } else { card.runtime_training };
                let budget = f(&cards["fit_share"]) * card.bytes;
                let peak = ph.iter().map(|t| nvidia_smi(t, 1.0, seq, k, runtime)).fold(0.0, f64::max);
                let largest = largest_batch(&ph, seq, k, runtime, budget);
                let v = verdict(peak, card.bytes, &cards);
                let card_id = card.json["id"].as_str().unwrap();
                let row = fit.cards.iter().find(|r| r.card == card_id).unwrap();
                let on_page = row.modes.iter().find(|m| m.mode == id_mode).unwrap();
                let what = format!("{id}, {id_mode} on {card_id}");
                assert_eq!(largest, on_page.largest_batch, "{what}: largest batch");
                assert_eq!(v, on_page.verdict, "{what}: verdict");
                assert!((peak - on_page.batch1_nvidia_smi_bytes).abs() <= 1e-9 * peak, "{what}: peak");
                let swept: Vec<u64> = sweep(&cards, context)
                    .iter()
                    .map(|s| largest_batch(&ph, *s as f64, k, runtime, budget))
                    .collect();
                assert_eq!(swept, on_page.sweep, "{what}: sweep");
                // v3's `cards[]` summary was this same figure.
                let summary = page.cards.iter().find(|c| c.id == card_id).unwrap();
                let v3 = match id_mode {
                    "full" => summary.full,
                    "lora" => summary.lora,
                    "qlora" => summary.qlora,
                    _ => summary.serve,
                };
                assert_eq!(largest, v3, "{what}: v3 cards[]");
                if smallest.is_none() && v != Verdict::DoesNotFit {
                    smallest = Some((card_id.to_string(), v, largest));
                }
                checked += 1;
            }
            // The JSON's smallest card is the first that fits, with its verdict and batch.
            let listed = &mode["smallest_card"];
            match smallest {
                None => assert!(listed.is_null(), "{id} {id_mode}"),
                Some((card, v, largest)) => {
                    assert_eq!(listed["card"], card.as_str(), "{id} {id_mode}");
                    assert_eq!(listed["verdict"], serde_json::to_value(v).unwrap(), "{id} {id_mode}");
                    assert_eq!(listed["largest_batch"], largest, "{id} {id_mode}");
                }
            }
        }
    }
    assert_eq!(checked, MODELS.len() * 4 * cards::builtin().len());
}

/// (name, repeat, per_token, per_token_sq, per_sample).
type Node = (String, u64, f64, f64, f64);

/// Rows `[section, node, repeat, per_token, per_token_sq, per_sample]` (a node of the
/// structure) or `[name, repeat, ...]`, trailing zeros left out, an integer `i` standing for
/// `base[i]`, back to [`Node`]s.
fn decode(json: &Value, rows: &Value, base: &[Node]) -> Vec<Node> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            if let Some(i) = r.as_u64() {
                return base[i as usize].clone();
            }
            let (name, r) = common::json_activation_row(json, r);
            (name, r[0].as_u64().unwrap(), term(&r[1..], 0), term(&r[1..], 1), term(&r[1..], 2))
        })
        .collect()
}

/// Whether a `{i}` section stands for other indices than 0 to repeat - 1 (schema_version 5 folded
/// runs of like layers into it).
fn folded_layers(json: &Value) -> bool {
    json["structure"]["sections"].as_array().unwrap().iter().any(|s| {
        s.get("layers").is_some_and(|l| {
            let last = s["repeat"].as_u64().unwrap().saturating_sub(1);
            *l != serde_json::json!([[0, last, 1]])
        })
    })
}

/// A name with each all-digit segment read as `{i}`: a layer's index set aside.
fn unindexed(name: &str) -> String {
    name.split('.')
        .map(|seg| if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) { "{i}" } else { seg })
        .collect::<Vec<_>>()
        .join(".")
}

/// Repeats summed by node (its index set aside) and figures.
fn by_node(rows: &[Node]) -> std::collections::BTreeMap<(String, [u64; 3]), u64> {
    let mut out = std::collections::BTreeMap::new();
    for (name, repeat, a, b, c) in rows {
        *out.entry((unindexed(name), [a.to_bits(), b.to_bits(), c.to_bits()])).or_default() += repeat;
    }
    out
}

#[test]
fn v3s_peaks_reserved_figures_and_recipe_peaks_follow_from_the_json_phases() {
    for id in MODELS {
        let page = common::plan_id(id);
        let (json, cards) = documents(&page);
        let k = 1.0 + f(&cards["allocator_reserve_fraction"]);
        let seq = json["fit"]["seq_len"].as_f64().unwrap();
        let memory = page.memory.as_ref().unwrap();
        // The workspace of batch1_reserved_bytes is Hopper's: 8 x 4 MiB.
        let hopper = 8.0 * 4.0 * 1_048_576.0;
        for (mode, v3) in json["fit"]["modes"].as_array().unwrap().iter().zip([
            &memory.full,
            &memory.lora,
            &memory.qlora,
            &memory.serve,
        ]) {
            let ph = phases(mode);
            let peak = ph.iter().map(|t| allocated(t, 1.0, seq)).fold(0.0, f64::max);
            assert_eq!(peak, v3.batch1_bytes, "{id} {}", mode["id"]);
            // schema_version 7: the peak's phase is the first of the largest.
            let at = ph.iter().position(|t| allocated(t, 1.0, seq) == peak).unwrap();
            assert_eq!(mode["phases"][at][0], v3.peak_phase.as_str(), "{id} {}", mode["id"]);
            let workspaces = if mode["id"] == "serve" { 1.0 } else { f(&cards["training_workspaces"]) };
            let reserved = peak * k + workspaces * hopper;
            assert!((reserved - v3.batch1_reserved_bytes).abs() <= 1e-9 * reserved, "{id} {}", mode["id"]);
        }
        // Each other recipe's full fine-tune peak: the largest of its phases at batch 1.
        let training = page.training.as_ref().unwrap();
        let recipes = json["training"]["recipes"].as_array().unwrap();
        assert_eq!(recipes.len(), training.recipes.len() - 1, "{id}: every recipe but the plan's");
        for r in recipes {
            let row = training.recipes.iter().find(|x| x.id == r["id"]).unwrap();
            let peak = r["terms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| allocated(t.as_array().unwrap(), 1.0, seq))
                .fold(0.0, f64::max);
            assert_eq!(peak, row.full_peak_bytes, "{id} {}", row.id);
        }
        // The per-node lists, front-coded, decode to the page's; in the eager list an integer is
        // that row of the first.
        let sdpa = training.activations_sdpa.as_ref();
        let base = decode(&json, &json["training"]["activation_nodes"], &[]);
        let want = |nodes: &[modelatlas::estimate::training::NodeActivation]| -> Vec<Node> {
            nodes
                .iter()
                .map(|n| {
                    (n.name.clone(), n.repeat, n.per_token_bytes, n.per_token_sq_bytes, n.per_sample_bytes)
                })
                .collect()
        };
        // v5 writes the rows of a folded run of layers once, named with `{i}`: against the page's
        // rows, node by node with the layer index set aside, the figures and the repeats summed
        // agree; where nothing folded, row by row.
        let folded = folded_layers(&json);
        let same = |got: Vec<Node>, want: Vec<Node>, what: &str| {
            if folded {
                assert_eq!(by_node(&got), by_node(&want), "{id}{what}");
            } else {
                assert_eq!(got, want, "{id}{what}");
            }
        };
        same(base.clone(), want(&sdpa.unwrap_or(&training.activations_eager).nodes), "");
        if sdpa.is_some() {
            let eager = decode(&json, &json["training"]["activation_nodes_eager"], &base);
            same(eager, want(&training.activations_eager.nodes), ": eager");
        } else {
            assert!(json["training"]["activation_nodes_eager"].as_array().unwrap().is_empty());
            assert!(json["training"]["activations_sdpa"].is_null());
        }
    }
}

#[test]
fn fsdp_plans_cost_per_card_and_serving_rates_follow_from_the_json_and_cards_json() {
    for id in MODELS {
        let page = common::plan_id(id);
        let (json, cards) = documents(&page);
        let fit = page.fit.as_ref().unwrap();
        let cost = page.cost.as_ref().unwrap();
        let k = 1.0 + f(&cards["allocator_reserve_fraction"]);
        let seq = json["fit"]["seq_len"].as_f64().unwrap();
        let max_cards = cards["max_cards"].as_u64().unwrap();
        let (lo, hi) = (f(&cards["utilisation"][0]), f(&cards["utilisation"][1]));
        let full = phases(&json["fit"]["modes"][0]);
        let t = &json["cost"]["training"];
        let total = f(&t["dense_flops"]) + f(&t["attention_flops"]);
        for card in card_list(&cards) {
            let c = card.json;
            let card_id = c["id"].as_str().unwrap();
            let budget = f(&cards["fit_share"]) * card.bytes;
            // FSDP: the fewest n in 2..=max_cards with every phase's fixed bytes over n within
            // the budget (activations are not sharded).
            let fits_one = full.iter().all(|t| nvidia_smi(t, 1.0, seq, k, card.runtime_training) <= budget);
            let fsdp = (2..=max_cards).find(|n| {
                full.iter()
                    .all(|t| (term(t, 0) / *n as f64 + growth(t, seq)) * k + card.runtime_training <= budget)
            });
            let on_page = fit.multi_card.iter().find(|m| m.mode == "full" && m.card == card_id);
            if fits_one {
                assert!(on_page.is_none(), "{id} {card_id}");
            } else {
                assert_eq!(fsdp, on_page.unwrap().fsdp.as_ref().map(|s| s.cards), "{id} {card_id}: FSDP");
            }
            // Hours: total FLOPs / (cards x dense 16-bit peak x utilisation) / 3600; dollars:
            // hours x cards x price. The peak is bf16 where the card has it natively, else fp16.
            let n = if fits_one { Some(1) } else { fsdp };
            let row = cost.training.by_card.iter().find(|r| r.card == card_id);
            match n {
                Some(n) => {
                    let tflops = if c["bf16_native"] == true && f(&c["bf16_tflops"]) > 0.0 {
                        f(&c["bf16_tflops"])
                    } else {
                        f(&c["fp16_tflops"])
                    };
                    let hours = |u: f64| total / (tflops * 1e12 * u * n as f64) / 3600.0;
                    let row = row.unwrap_or_else(|| panic!("{id} {card_id}: no cost row"));
                    assert_eq!(row.cards, n, "{id} {card_id}");
                    for (got, want) in [(row.hours.0, hours(hi)), (row.hours.1, hours(lo))] {
                        assert!((got - want).abs() <= 1e-9 * want, "{id} {card_id}: hours {got} {want}");
                    }
                    let usd = hours(hi) * n as f64 * f(&c["price_usd_per_hour"]);
                    assert!((row.usd.0 - usd).abs() <= 1e-9 * usd.max(1e-9), "{id} {card_id}: usd");
                }
                None => assert!(row.is_none(), "{id} {card_id}"),
            }
            // Serving: prefill = peak x utilisation / prefill FLOPs per token; decode = bandwidth
            // / bytes read per token.
            if let (Some(s), Some(speed)) = (json["cost"]["serving"].as_object(), cost.serving.as_ref()) {
                let row = speed.by_card.iter().find(|r| r.card == card_id).unwrap();
                let peak = if c["bf16_native"] == true && f(&c["bf16_tflops"]) > 0.0 {
                    f(&c["bf16_tflops"])
                } else {
                    f(&c["fp16_tflops"])
                } * 1e12;
                let prefill = f(&s["prefill_flops_per_token"]);
                let want = (peak * lo / prefill, peak * hi / prefill);
                assert!((row.prefill_tokens_per_s.0 - want.0).abs() <= 1e-9 * want.0, "{id} {card_id}");
                assert!((row.prefill_tokens_per_s.1 - want.1).abs() <= 1e-9 * want.1, "{id} {card_id}");
                let decode = f(&c["bandwidth_gbs"]) * 1e9 / f(&s["bytes_read_per_token_bf16"]);
                assert!((row.decode_tokens_per_s_bf16 - decode).abs() <= 1e-9 * decode, "{id} {card_id}");
            }
        }
        // Pipeline, for every mode and card where batch 1 does not fit one card: with L layers,
        // the layers sections' parameters and the rest, the fewest n in 2..=min(L, max_cards)
        // whose heaviest stage (ceil(L / n) layers and everything else) fits; as many cards as
        // stages, ceil(L / ceil(L / n)).
        let layers = json["config"]["num_layers"].as_u64().unwrap();
        let derived = json["params"]["derived"].as_f64().unwrap();
        let layer_params: f64 = json["structure"]["sections"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["role"] == "layers")
            .map(|s| {
                let each: u64 = s["nodes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| {
                        let n = n.as_array().unwrap();
                        let copies = n.get(4).map_or(1, |c| c.as_u64().unwrap());
                        n[3].as_array()
                            .unwrap()
                            .iter()
                            .map(common::json_tensor)
                            .filter(|(_, _, tied)| tied.is_none())
                            .map(|(_, shape, _)| copies * shape.iter().product::<u64>())
                            .sum::<u64>()
                    })
                    .sum();
                (s["repeat"].as_u64().unwrap() * each) as f64
            })
            .sum();
        let other = derived - layer_params;
        for multi in &fit.multi_card {
            let mode =
                json["fit"]["modes"].as_array().unwrap().iter().find(|m| m["id"] == multi.mode).unwrap();
            let card = card_list(&cards).into_iter().find(|c| c.json["id"] == multi.card.as_str()).unwrap();
            let runtime = if multi.mode == "serve" { card.runtime_serving } else { card.runtime_training };
            // The batch-1 allocated peak: the largest phase at batch 1 and the plan's length.
            let seq = json["fit"]["seq_len"].as_f64().unwrap();
            let peak = phases(mode).iter().map(|t| allocated(t, 1.0, seq)).fold(0.0, f64::max);
            let budget = f(&cards["fit_share"]) * card.bytes;
            let n = (2..=layers.min(max_cards)).find(|n| {
                let stage = layers.div_ceil(*n) as f64;
                let share = ((stage * layer_params / layers as f64 + other) / derived).min(1.0);
                peak * share * k + runtime <= budget
            });
            let cards_used = n.map(|n| layers.div_ceil(layers.div_ceil(n)));
            assert_eq!(
                cards_used,
                multi.pipeline.as_ref().map(|p| p.cards),
                "{id} {} on {}",
                multi.mode,
                multi.card
            );
        }
        // The cheapest is the first of the rows.
        let cheapest = &json["cost"]["training"]["cheapest"];
        match cost.training.by_card.first() {
            Some(first) => assert_eq!(cheapest["card"], first.card.as_str()),
            None => assert!(cheapest.is_null()),
        }
    }
}

/// vLLM's view per card from `serving.kv`: the cache is gpu_memory_utilization x the card less
/// the bf16 weights; one sequence of n tokens takes 2 bytes x (each group's layers x values per
/// token x min(n, its window) + the cross cache + the recurrent state).
#[test]
fn vllms_view_of_every_card_follows_from_the_kv_layout_and_cards_json() {
    for id in MODELS {
        let page = common::plan_id(id);
        let (json, cards) = documents(&page);
        let fit = page.fit.as_ref().unwrap();
        let kv = &json["serving"]["kv"];
        if kv.is_null() {
            assert!(fit.cards.iter().all(|r| r.vllm.is_none()), "{id}: an encoder has no KV cache");
            continue;
        }
        let layout = &kv["layout"];
        let u = |v: &Value| v.as_u64().unwrap_or(0);
        let values = |n: u64| -> u64 {
            let own: u64 = layout["groups"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    u(&g["layers"]) * u(&g["values_per_token"]) * g["window"].as_u64().map_or(n, |w| n.min(w))
                })
                .sum();
            let cross = if layout["cross"].is_null() {
                0
            } else {
                u(&layout["cross"]["layers"])
                    * u(&layout["cross"]["values_per_token"])
                    * layout["cross_fixed_len"].as_u64().unwrap_or(n)
            };
            let rec = &layout["recurrent"];
            let recurrent = if rec.is_object() {
                u(&rec["layers"]) * (u(&rec["conv_values"]) + u(&rec["ssm_values"]))
            } else {
                0
            };
            own + cross + recurrent
        };
        let context = u(&json["config"]["context"]);
        // schema_version 7: a precision's bytes are 2 x (derived - quantised) + bits / 8 x
        // quantised; the KV cache's bytes at the context 2 x values(context), per token 2 x the
        // values while no window is full (cross-attention's where its length follows the
        // sequence's).
        let serving = page.serving.as_ref().unwrap();
        let (derived, quantised) = (f(&json["params"]["derived"]), f(&json["serving"]["quantised_params"]));
        for (row, on_page) in json["serving"]["weights"].as_array().unwrap().iter().zip(&serving.weights) {
            assert_eq!(row[0], on_page.precision, "{id}");
            assert_eq!(2.0 * (derived - quantised) + f(&row[1]) / 8.0 * quantised, on_page.bytes, "{id}");
        }
        assert_eq!(json["serving"]["weights"][0][0], "bf16");
        let weights = 2.0 * (derived - quantised) + f(&json["serving"]["weights"][0][1]) / 8.0 * quantised;
        let kv_page = serving.kv.as_ref().unwrap();
        assert_eq!(values(context) * 2, kv_page.bytes_at_context_bf16, "{id}");
        let per_token: u64 = layout["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| u(&g["layers"]) * u(&g["values_per_token"]))
            .sum::<u64>()
            + if layout["cross_fixed_len"].is_null() {
                u(&layout["cross"]["layers"]) * u(&layout["cross"]["values_per_token"])
            } else {
                0
            };
        assert_eq!(2 * per_token, kv_page.bytes_per_token_bf16, "{id}");
        for card in card_list(&cards) {
            let card_id = card.json["id"].as_str().unwrap();
            let on_page = fit.cards.iter().find(|r| r.card == card_id).unwrap().vllm.as_ref().unwrap();
            let room = card.bytes * f(&cards["vllm_gpu_memory_utilization"]) - weights;
            assert!(
                (on_page.kv_cache_bytes - room.max(0.0)).abs() <= 1e-6 * room.abs().max(1.0),
                "{id} {card_id}"
            );
            if room <= 0.0 {
                assert_eq!(on_page.sequences, 0);
                continue;
            }
            let concurrency = room / (values(context) * 2) as f64;
            assert_eq!(on_page.sequences, concurrency.floor() as u64, "{id} {card_id}");
            // The longest sequence whose cache fits: the cache grows with n, so by bisection.
            let fits = |n: u64| (values(n) * 2) as f64 <= room;
            let longest = if fits(context) {
                context
            } else {
                let (mut lo, mut hi) = (0u64, context);
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2;
                    if fits(mid) { lo = mid } else { hi = mid }
                }
                lo
            };
            assert_eq!(on_page.longest_context, longest, "{id} {card_id}");
        }
    }
}

/// v3's `params.breakdown` and `params.tied` follow from the folded structure (schema_version 5:
/// a section of like layers holds the breakdown's parts of its indices): a section's
/// parameters are its repeat x the sum over its nodes of copies x the product of each untied
/// tensor's shape; a tensor with a third element is tied to that tensor.
#[test]
fn the_parameter_breakdown_and_the_ties_follow_from_the_folded_structure() {
    for id in MODELS {
        let page = common::plan_id(id);
        let (json, _) = documents(&page);
        let params = page.params.as_ref().unwrap();
        let sections = json["structure"]["sections"].as_array().unwrap();
        // Each part of the page's breakdown (a section of the graph) in the JSON's section of its
        // name that lists its layer indices: `P.7` in `P.{i}` with 7 among its layers, `P.{i}`
        // (indices 0 to repeat - 1) in the one whose layers hold them.
        let layer_set = |s: &Value| -> Vec<u64> {
            s["layers"].as_array().map_or(vec![], |runs| {
                runs.iter()
                    .flat_map(|r| {
                        let r: Vec<u64> = r.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
                        (r[0]..=r[1]).step_by(r[2] as usize)
                    })
                    .collect()
            })
        };
        let mut from_parts = vec![(0u64, 0u64); sections.len()];
        for part in &params.breakdown {
            let (name, idx): (String, Vec<u64>) = match part.part.rsplit_once('.') {
                Some((p, "{i}")) => (format!("{p}.{{i}}"), (0..part.repeat).collect()),
                Some((p, k)) if k.bytes().all(|b| b.is_ascii_digit()) && !k.is_empty() => {
                    (format!("{p}.{{i}}"), vec![k.parse().unwrap()])
                }
                _ => (part.part.clone(), vec![]),
            };
            let at = sections
                .iter()
                .position(|s| s["name"] == name.as_str() && idx.iter().all(|i| layer_set(s).contains(i)))
                .unwrap_or_else(|| panic!("{id}: no section holds {}", part.part));
            from_parts[at].0 += part.repeat;
            from_parts[at].1 += part.total;
        }
        let mut tied = vec![];
        let mut sum = 0;
        for (section, part) in sections.iter().zip(&from_parts) {
            let name = section["name"].as_str().unwrap();
            let mut each = 0u64;
            for node in section["nodes"].as_array().unwrap() {
                let node = node.as_array().unwrap();
                // A name starting with a dot continues its parent's.
                let full = |n: &str, parent: &str| {
                    if n.starts_with('.') { format!("{parent}{n}") } else { n.to_string() }
                };
                let node_name = full(node[0].as_str().unwrap(), name);
                let copies = node.get(4).map_or(1, |c| c.as_u64().unwrap());
                for t in node[3].as_array().unwrap() {
                    let (t_name, shape, tied_to) = common::json_tensor(t);
                    let tensor = full(&t_name, &node_name);
                    if let Some(to) = tied_to {
                        tied.push((tensor, to));
                        continue;
                    }
                    each += copies * shape.iter().product::<u64>();
                }
            }
            let repeat = section["repeat"].as_u64().unwrap();
            assert_eq!((repeat, repeat * each), *part, "{id} {name}");
            sum += repeat * each;
        }
        assert_eq!(sum, json["params"]["derived"].as_u64().unwrap(), "{id}");
        let on_page: Vec<(String, String)> =
            params.tied.iter().map(|t| (t.tensor.clone(), t.tied_to.clone())).collect();
        assert_eq!(tied, on_page, "{id}: ties");
    }
}
