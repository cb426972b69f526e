//! The reconciliation at scale: work linear in layers, output bounded by the patterns of the
//! names rather than their number, and counts that never wrap.

use std::path::PathBuf;

use modelatlas::estimate::reconcile::{Method, Status};
use modelatlas::page::ModelPage;
use modelatlas::source::ModelFiles;
use modelatlas::source::meta::{CheckpointInfo, CheckpointTensor, ConfigProvenance, HubMeta};

fn meta(total: u64, tensors: Option<Vec<CheckpointTensor>>) -> HubMeta {
    HubMeta {
        model_id: "test/model".into(),
        config: ConfigProvenance {
            verification: "B".into(),
            sha256: "0".into(),
            source: "test".into(),
            notes: None,
        },
        checkpoint: Some(CheckpointInfo {
            total_scalars: total,
            exact: true,
            dtype: Some("F32".into()),
            by_dtype: Default::default(),
            source: "test".into(),
            notes: None,
            tensors,
        }),
        downloads: None,
        hub: None,
        changes: None,
    }
}

fn plan(config: serde_json::Value, meta: HubMeta, index: Option<Vec<String>>) -> ModelPage {
    let files = ModelFiles {
        label: "test/model".into(),
        config_text: config.to_string(),
        config_path: PathBuf::from("test/config.json"),
        commit: None,
        meta: Some(meta),
        index_tensor_names: index,
    };
    modelatlas::plan::plan(&files, None).unwrap()
}

#[test]
fn ten_thousand_layers_against_a_one_name_index_list_each_missing_tensor_once_as_a_pattern() {
    let layers: u64 = 10_000;
    let config = serde_json::json!({
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "num_hidden_layers": layers, "num_attention_heads": 4, "num_key_value_heads": 4,
        "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 64,
    });
    // Per layer: q, k, v, o at 64 x 64 without bias; gate, up, down at 64 x 128; two RMSNorm
    // weights of 64. Around them: the embedding and the untied head at 100 x 64, the final norm.
    let layer = 4 * 64 * 64 + 3 * 64 * 128 + 2 * 64;
    assert_eq!(layer, 41_088);
    let derived = 100 * 64 + layers * layer + 64 + 100 * 64;
    let page = plan(config, meta(100 * 64, None), Some(vec!["model.embed_tokens.weight".into()]));
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.derived, derived);
    let r = &p.reconciliation;
    assert_eq!(r.method, Some(Method::IndexNames));
    assert_eq!(r.status, Status::Explained);
    assert_eq!(r.unexplained, Some(0));
    assert_eq!(r.items.len(), 1, "{:?}", r.items);
    let absent = &r.items[0];
    assert_eq!(absent.label, "absent");
    // Nine tensors in each of the 10,000 layers, the final norm and the head.
    assert_eq!(absent.count, 9 * layers + 2);
    assert_eq!(absent.scalars, -((derived - 100 * 64) as i64));
    let mut patterns = absent.tensors.clone();
    patterns.sort();
    let each = |t: &str| format!("model.layers.{{0..9999}}.{t}");
    let mut want = vec!["lm_head.weight".to_string(), "model.norm.weight".to_string()];
    for t in [
        "input_layernorm.weight",
        "mlp.down_proj.weight",
        "mlp.gate_proj.weight",
        "mlp.up_proj.weight",
        "post_attention_layernorm.weight",
        "self_attn.k_proj.weight",
        "self_attn.o_proj.weight",
        "self_attn.q_proj.weight",
        "self_attn.v_proj.weight",
    ] {
        want.push(each(t));
    }
    want.sort();
    assert_eq!(patterns, want);
}

#[test]
fn sixteen_thousand_experts_against_a_one_tensor_list_give_a_page_of_kilobytes_not_megabytes() {
    let experts: u64 = 16_384;
    let layers: u64 = 2;
    let config = serde_json::json!({
        "model_type": "mixtral", "architectures": ["MixtralForCausalLM"], "hidden_size": 16,
        "num_hidden_layers": layers, "num_attention_heads": 2, "num_key_value_heads": 2,
        "intermediate_size": 8, "vocab_size": 32, "max_position_embeddings": 64,
        "num_local_experts": experts, "num_experts_per_tok": 2,
    });
    let tensors = vec![CheckpointTensor {
        name: "model.embed_tokens.weight".into(),
        dtype: "F32".into(),
        shape: vec![32, 16],
    }];
    let page = plan(config, meta(32 * 16, Some(tensors)), None);
    let r = &page.params.as_ref().unwrap().reconciliation;
    assert_eq!(r.method, Some(Method::TensorList));
    let absent = r.items.iter().find(|i| i.label == "absent").unwrap();
    // w1, w2, w3 of every expert in every layer are among the absent tensors.
    assert!(absent.count >= 3 * experts * layers, "{}", absent.count);
    assert!(
        absent
            .tensors
            .iter()
            .any(|t| t == "model.layers.{0..1}.block_sparse_moe.experts.{0..16383}.w1.weight"),
        "{:?}",
        absent.tensors
    );
    let json = serde_json::to_string(&page.json()).unwrap();
    // Listing 98,304 expert tensors by name would take megabytes; patterns take a few hundred
    // bytes each.
    assert!(json.len() < 1_000_000, "{} bytes", json.len());
}

#[test]
fn a_checkpoint_total_far_above_the_derived_count_gives_the_exact_delta() {
    // 2^63 - 1 is the largest total read; the difference is taken without wrapping.
    let config = serde_json::json!({
        "model_type": "bert", "architectures": ["BertModel"], "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 64,
    });
    let total = i64::MAX as u64;
    let page = plan(config, meta(total, None), None);
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.delta, Some(p.derived as i64 - i64::MAX));
    assert!(p.delta.unwrap() < 0);
}
