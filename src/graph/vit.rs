//! The ViT graph, named as transformers' modules: `vit.embeddings.patch_embeddings.projection`,
//! `vit.encoder.layer.{i}.attention.attention.query`, `classifier`.

use super::bert::{layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, shapes};
use crate::config::vit::{VitConfig, VitHead};

architecture!(
    VitConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["vit."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        let (ih, iw) = self.image_size;
        let (ph, pw) = self.patch_size;
        format!("{ih}x{iw} image in {ph}x{pw} patches, plus [CLS]")
    }
);

fn prefix(c: &VitConfig) -> &'static str {
    if c.head == VitHead::Model { "" } else { "vit." }
}

fn qkv(name: &str, detail: &str, seq: u64, h: u64, bias: bool) -> Node {
    let mut n =
        Node::new(name, Op::Linear, detail, &[seq, h]).with([Tensor::new(format!("{name}.weight"), &[h, h])]);
    if bias {
        n.params.push(Tensor::new(format!("{name}.bias"), &[h]));
    }
    n
}

/// The graph is sized at the model's own sequence (patches + [CLS]); `seq` is that number.
pub fn build(c: &VitConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let h = c.hidden_size;
    let (ph, pw) = c.patch_size;
    let (ih, iw) = c.image_size;
    let np = c.num_patches();
    let emb = format!("{p}embeddings");
    let proj = format!("{emb}.patch_embeddings.projection");
    let mut emb_nodes = vec![
        Node::new(
            "pixel_values",
            Op::Input,
            format!("{} channels, {ih}x{iw} pixels", c.num_channels),
            &[c.num_channels, ih, iw],
        ),
        // A Conv2d whose stride equals its kernel is one linear map applied to each flattened patch.
        Node::new(
            &proj,
            Op::Linear,
            format!(
                "Conv2d {ph}x{pw}, stride {ph}x{pw}: each of the {np} patches ({} values) projected to {h}",
                c.num_channels * ph * pw
            ),
            &[np, h],
        )
        .with([
            Tensor::new(format!("{proj}.weight"), &[h, c.num_channels, ph, pw]),
            Tensor::new(format!("{proj}.bias"), &[h]),
        ]),
        Node::new(
            format!("{emb}.cls_token"),
            Op::Embedding,
            "a learned [CLS] vector put before the patches",
            &[np + 1, h],
        )
        .with([Tensor::new(format!("{emb}.cls_token"), &[1, 1, h])]),
        Node::new(
            format!("{emb}.position_embeddings"),
            Op::Add,
            format!("{} learned positions added", np + 1),
            &[np + 1, h],
        )
        .with([Tensor::new(format!("{emb}.position_embeddings"), &[1, np + 1, h])]),
    ];
    if c.head == VitHead::MaskedImageModeling {
        emb_nodes.push(
            Node::new(
                format!("{emb}.mask_token"),
                Op::Embedding,
                "a learned vector put in place of masked patches",
                &[np, h],
            )
            .with([Tensor::new(format!("{emb}.mask_token"), &[1, 1, h])]),
        );
    }
    let mut sections =
        vec![Section { name: emb.clone(), role: Role::Embeddings, repeat: 1, nodes: emb_nodes }];
    let l = format!("{p}encoder.layer.{{i}}");
    let (heads, hd, ffn) = (c.num_heads, h / c.num_heads, c.intermediate_size);
    let a = format!("{l}.attention.attention");
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: c.num_layers,
        nodes: vec![
            layer_norm(&format!("{l}.layernorm_before"), "pre-attention norm", &[seq, h], h),
            qkv(&format!("{a}.query"), "query projection", seq, h, c.qkv_bias),
            qkv(&format!("{a}.key"), "key projection", seq, h, c.qkv_bias),
            qkv(&format!("{a}.value"), "value projection", seq, h, c.qkv_bias),
            Node::new(
                &a,
                Op::Attention,
                format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V"),
                &[seq, h],
            ),
            linear(
                &format!("{l}.attention.output.dense"),
                "attention output projection, then residual add",
                seq,
                h,
                h,
            ),
            layer_norm(&format!("{l}.layernorm_after"), "pre-MLP norm", &[seq, h], h),
            linear(
                &format!("{l}.intermediate.dense"),
                &format!("up projection, then {}", c.hidden_act),
                seq,
                h,
                ffn,
            ),
            linear(&format!("{l}.output.dense"), "down projection, then residual add", seq, ffn, h),
        ],
    });
    sections.push(Section {
        name: format!("{p}layernorm"),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![layer_norm(&format!("{p}layernorm"), "final norm", &[seq, h], h)],
    });
    match c.head {
        VitHead::Model => sections.push(Section {
            name: "pooler".into(),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear("pooler.dense", "[CLS] state, dense then tanh", 1, h, c.pooler_output_size)],
        }),
        VitHead::ImageClassification { num_labels } if num_labels > 0 => sections.push(Section {
            name: "classifier".into(),
            role: Role::Head,
            repeat: 1,
            nodes: vec![linear("classifier", "class logits from the [CLS] state", 1, h, num_labels)],
        }),
        VitHead::ImageClassification { .. } => {}
        VitHead::MaskedImageModeling => {
            let out = c.encoder_stride * c.encoder_stride * c.num_channels;
            sections.push(Section {
                name: "decoder".into(),
                role: Role::Head,
                repeat: 1,
                nodes: vec![
                    Node::new(
                        "decoder.0",
                        Op::Linear,
                        format!("1x1 Conv2d to {out} channels, then PixelShuffle({})", c.encoder_stride),
                        &[np, out],
                    )
                    .with([
                        Tensor::new("decoder.0.weight", &[out, h, 1, 1]),
                        Tensor::new("decoder.0.bias", &[out]),
                    ]),
                ],
            });
        }
    }
    Graph { seq_len: seq, sections }
}

fn candidates(c: &VitConfig) -> Vec<Candidate> {
    let (h, o) = (c.hidden_size, c.pooler_output_size);
    let pooler =
        shapes([("vit.pooler.dense.weight".into(), &[o, h]), ("vit.pooler.dense.bias".into(), &[o])]);
    if c.head == VitHead::Model {
        vec![Candidate::missing(
            "pooler",
            pooler,
            "ViTModel builds a pooler that a classification checkpoint does not store (it is then freshly initialised on load)",
        )]
    } else {
        vec![Candidate::extra(
            "pooler",
            pooler,
            "the pooler of a ViTModel checkpoint (the in21k pre-training ones); this class is built with add_pooling_layer=False and drops it",
        )]
    }
}
