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
];
