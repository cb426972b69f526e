//! What a quantized checkpoint stores beside the weights the class counts. An FP8 checkpoint with
//! block scales (`quantization_config.quant_method = "fp8"`, `weight_block_size = [r, c]`, as
//! DeepSeek-V3, MiniMax-M2 and the Qwen3 FP8 releases ship) keeps one F32 `weight_scale_inv` per
//! r x c block of every converted linear weight: transformers' `FP8Linear` registers it, the
//! unquantized class has no such tensor, and the Hub's file-level totals count it.

use serde_json::Value;

use super::{Candidate, Graph, Op, TensorRun};

/// The block scales of an FP8 checkpoint, as one candidate; `None` for any other config.
pub fn fp8_block_scales(g: &Graph, raw: &Value) -> Option<Candidate> {
    fp8_block_scales_keeping(g, raw, &[])
}

/// As [`fp8_block_scales`], leaving out the modules whose names end with one of `keep`: those
/// the class keeps in full precision (`_keep_in_fp32_modules`, a router that is a bare parameter).
pub fn fp8_block_scales_keeping(g: &Graph, raw: &Value, keep: &[&str]) -> Option<Candidate> {
    let q = raw.get("quantization_config")?;
    if q.get("quant_method")?.as_str()? != "fp8" {
        return None;
    }
    let block = q.get("weight_block_size")?.as_array()?;
    let (r, c) = match block.as_slice() {
        [r, c] => (r.as_u64().filter(|&v| v > 0)?, c.as_u64().filter(|&v| v > 0)?),
        _ => return None,
    };
    // transformers skips a module when any of these is a substring of its name.
    let skip: Vec<&str> = q
        .get("modules_to_not_convert")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // One run per converted weight: the scales' names (`{i}` and `{e}` filled in) are made only
    // where a name is read, in the order of the graph's layers and experts.
    let mut runs = vec![];
    for s in &g.sections {
        for n in s.nodes.iter().filter(|n| n.op == Op::Linear) {
            for t in &n.params {
                let (Some(module), [out, inp]) = (t.name.strip_suffix(".weight"), t.shape.as_slice()) else {
                    continue;
                };
                if t.tied_to.is_some()
                    || skip.iter().any(|k| module.contains(k))
                    || keep.iter().any(|k| module.ends_with(k))
                {
                    continue;
                }
                runs.push(TensorRun {
                    template: format!("{module}.weight_scale_inv"),
                    repeat: s.repeat,
                    copies: n.copies,
                    shape: vec![out.div_ceil(r), inp.div_ceil(c)],
                });
            }
        }
    }
    let mut scales = Candidate::extra(
        "FP8 block scales",
        vec![],
        &format!(
            "the checkpoint is FP8 with {r}x{c} block scales: one F32 weight_scale_inv per block of each converted linear weight, stored beside it and counted in the file totals, not a parameter of the class"
        ),
    );
    scales.runs = runs;
    (!scales.is_empty()).then_some(scales)
}

/// The multi-token-prediction layers a checkpoint stores, their own embeddings and head where
/// it keeps copies, and their FP8 block scales where the checkpoint has them (the joining
/// projection and the head stay in full precision), as candidates: the class builds none of them.
pub fn prediction_candidates(mtp: &Graph, raw: &Value, keep: &[&str]) -> Vec<Candidate> {
    let own =
        |name: &str| name.ends_with(".embed_tokens.weight") || name.ends_with(".shared_head.head.weight");
    let (copies, layers): (Vec<_>, Vec<_>) =
        mtp.tensors().map(|(name, t)| (name, t.shape.clone())).partition(|(name, _)| own(name));
    let mut out = vec![Candidate::extra(
        "multi-token-prediction layers",
        layers,
        "the checkpoint keeps the multi-token-prediction layers used to draft tokens in training and speculative decoding; the class does not load them",
    )];
    if !copies.is_empty() {
        out.push(Candidate::extra(
            "multi-token-prediction embeddings and head",
            copies,
            "the prediction layers may store their own copies of the token embeddings and the head",
        ));
    }
    let keep: Vec<&str> = keep.iter().copied().chain(["eh_proj", "shared_head.head", "mtp.fc"]).collect();
    if let Some(mut scales) = fp8_block_scales_keeping(mtp, raw, &keep) {
        scales.label = "FP8 block scales of the multi-token-prediction layers".into();
        out.push(scales);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Node, Role, Section, Tensor};

    /// Two layers of one projection [300, 200] and two experts of [100, 130], plus a router and a
    /// head that the config leaves unconverted.
    fn graph() -> Graph {
        let mut proj = Node::new("proj", Op::Linear, "", &[300]);
        proj.params.push(Tensor::new("l.{i}.proj.weight", &[300, 200]));
        proj.params.push(Tensor::new("l.{i}.proj.bias", &[300]));
        let mut expert = Node::new("w", Op::Linear, "", &[100]).experts(2, 1);
        expert.params.push(Tensor::new("l.{i}.experts.{e}.w.weight", &[100, 130]));
        let mut gate = Node::new("gate", Op::Linear, "", &[2]);
        gate.params.push(Tensor::new("l.{i}.gate.weight", &[2, 200]));
        let mut head = Node::new("lm_head", Op::Linear, "", &[7]);
        head.params.push(Tensor::new("lm_head.weight", &[7, 200]));
        Graph {
            seq_len: 1,
            sections: vec![
                Section {
                    name: "l.{i}".into(),
                    role: Role::Layers,
                    repeat: 2,
                    nodes: vec![proj, expert, gate],
                },
                Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes: vec![head] },
            ],
        }
    }

    #[test]
    fn fp8_block_scales_are_one_per_block_of_each_converted_linear_weight() {
        let raw = serde_json::json!({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128],
            "modules_to_not_convert": ["gate", "lm_head"]}});
        let c = fp8_block_scales(&graph(), &raw).unwrap();
        // proj: ceil(300/128) x ceil(200/128) = 3 x 2 = 6 per layer; each expert ceil(100/128) x
        // ceil(130/128) = 1 x 2 = 2; two layers: 2 x (6 + 2 x 2) = 20. No bias, gate or head scales.
        assert_eq!(c.signed_scalars(), 20);
        assert_eq!(c.len(), 2 * (1 + 2));
        // Named layer by layer, each layer's experts in order, as the checkpoint lists them.
        let named: Vec<(String, Vec<u64>)> = c.named().map(|(n, s)| (n, s.to_vec())).collect();
        let want = [
            ("l.0.proj.weight_scale_inv", [3, 2]),
            ("l.1.proj.weight_scale_inv", [3, 2]),
            ("l.0.experts.0.w.weight_scale_inv", [1, 2]),
            ("l.0.experts.1.w.weight_scale_inv", [1, 2]),
            ("l.1.experts.0.w.weight_scale_inv", [1, 2]),
            ("l.1.experts.1.w.weight_scale_inv", [1, 2]),
        ];
        assert_eq!(named, want.map(|(n, s)| (n.to_string(), s.to_vec())));
    }

    #[test]
    fn no_block_scales_without_an_fp8_config_with_a_positive_block_size() {
        for raw in [
            serde_json::json!({}),
            serde_json::json!({"quantization_config": {"quant_method": "bitsandbytes"}}),
            serde_json::json!({"quantization_config": {"quant_method": "fp8", "weight_block_size": [0, 128]}}),
            serde_json::json!({"quantization_config": {"quant_method": "fp8", "weight_block_size": "128"}}),
        ] {
            assert!(fp8_block_scales(&graph(), &raw).is_none(), "{raw}");
        }
        // Without modules_to_not_convert every linear weight is converted: gate 1 x 2 per layer,
        // head 1 x 2.
        let raw = serde_json::json!({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}});
        assert_eq!(fp8_block_scales(&graph(), &raw).unwrap().signed_scalars(), 20 + 2 * 2 + 2);
    }
}
