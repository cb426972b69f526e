//! The families of issue 10's enc4 types: rows of the BERT lineage (`config/encoders/table_enc4.rs`).

use super::{FamilyInfo, encoder};

pub const FAMILIES: &[FamilyInfo] = &[
    encoder(
        "roc_bert",
        "RoCBert",
        "bert",
        "WeChat AI's RoCBert (Su et al., 2022): a Chinese BERT robust to adversarial spellings, with pronunciation and glyph-shape tables beside the word table, concatenated and mapped back to the hidden size.",
    ),
    encoder(
        "rembert",
        "RemBERT",
        "bert",
        "Google's RemBERT (Chung et al., 2020): a multilingual BERT that rebalances its embeddings, narrow input tables (256) mapped up to the layers and a wider, untied output embedding (1,664) in its masked-LM head.",
    ),
    encoder(
        "roformer",
        "RoFormer",
        "bert",
        "Zhuiyi's RoFormer (Su et al., 2021): BERT's layers with rotary position embeddings in place of the learned position table, and an embedding width that may differ from the hidden size.",
    ),
    encoder(
        "gte",
        "GTE",
        "bert",
        "Alibaba's GTE v1.5 encoders (Li et al., 2023; Zhang et al., 2024): post-LN BERT layers with rotary positions and a gated MLP, for 8,192-token embeddings and rerankers.",
    ),
    encoder(
        "nomic_bert",
        "Nomic BERT",
        "bert",
        "Nomic AI's nomic-bert (Nussbaum et al., 2024): BERT with rotary positions, a SwiGLU MLP and no biases, for 2,048-token (and longer) text embeddings.",
    ),
    encoder(
        "jina_embeddings_v3",
        "Jina Embeddings v3",
        "xlm-roberta",
        "Jina AI's jina-embeddings-v3 (Sturua et al., 2024): XLM-RoBERTa's vocabulary and heads with rotary positions in place of the position table, for 8,192-token multilingual embeddings.",
    ),
    encoder(
        "esm",
        "ESM",
        "roberta",
        "Meta's ESM-1b and ESM-2 protein language models (Rives et al., 2021; Lin et al., 2023): pre-LN BERT layers over amino-acid tokens, rotary or learned positions, a masked-LM head and a contact-prediction head on the attention maps.",
    ),
    encoder(
        "xmod",
        "X-MOD",
        "xlm-roberta",
        "Meta's X-MOD (Pfeiffer et al., 2022): XLM-RoBERTa's layers with a small bottleneck adapter per language after each MLP, so languages can be added without interference.",
    ),
    encoder(
        "squeezebert",
        "SqueezeBERT",
        "bert",
        "Berkeley's SqueezeBERT (Iandola et al., 2020): BERT's embeddings and heads with its layers' projections as grouped 1-wide convolutions, as efficient vision networks build them, for faster inference on phones.",
    ),
    encoder(
        "convbert",
        "ConvBERT",
        "electra",
        "YITU's ConvBERT (Jiang et al., 2020): ELECTRA-style pre-training with mixed attention, half the heads replaced by span-based dynamic convolutions, and an optionally grouped MLP.",
    ),
];
