//! The families of the GPT-style types described in `config/spec_gpt_types.rs`.

use super::FamilyInfo;
use super::described::decoder;

const fn gpt(
    key: &'static str,
    name: &'static str,
    derives_from: &'static str,
    summary: &'static str,
) -> FamilyInfo {
    FamilyInfo { resolve: Some(super::gpt_style), ..decoder(key, name, derives_from, summary) }
}

pub const FAMILIES: &[FamilyInfo] = &[
    gpt(
        "gpt_neo",
        "GPT-Neo",
        "gpt2",
        "EleutherAI's GPT-Neo (2021): GPT-2's pre-norm layers with learned positions, unbiased q/k/v, and global and local (256-token window) attention on alternate layers.",
    ),
    gpt(
        "gptj",
        "GPT-J",
        "gpt_neo",
        "EleutherAI's GPT-J-6B (2021): attention and MLP read one LayerNorm in parallel, rotary positions on the first rotary_dim dimensions of each head, and an LM head with a bias.",
    ),
    gpt(
        "codegen",
        "CodeGen",
        "gptj",
        "Salesforce's CodeGen (2022): GPT-J's parallel layers with q, k and v fused into one qkv_proj.",
    ),
    gpt(
        "xglm",
        "XGLM",
        "gpt2",
        "Meta's multilingual XGLM (2021): fairseq's pre-norm decoder layers with biased projections, sinusoidal positions and scaled embeddings over a 256k vocabulary.",
    ),
    gpt(
        "biogpt",
        "BioGPT",
        "gpt2",
        "Microsoft's BioGPT (2022): fairseq's pre-norm decoder layers with learned positions (offset by 2) and scaled embeddings, trained on PubMed.",
    ),
    gpt(
        "openai-gpt",
        "GPT (GPT-1)",
        "gpt2",
        "OpenAI's first GPT (2018): post-norm layers of Conv1D projections, learned positions, no final norm, and an LM head tied to the token embeddings.",
    ),
    gpt(
        "ctrl",
        "CTRL",
        "gpt2",
        "Salesforce's CTRL (2019): pre-norm layers of biased projections with a ReLU MLP, sinusoidal positions, a 246k vocabulary and control codes, and an LM head with a bias tied to the embeddings.",
    ),
    gpt(
        "mpt",
        "MPT",
        "gpt2",
        "MosaicML's MPT (2023): ALiBi instead of positions, no biases in any projection or LayerNorm, fused Wqkv and a 4x GELU MLP.",
    ),
    gpt(
        "persimmon",
        "Persimmon",
        "gpt_neox",
        "Adept's Persimmon-8B (2023): biased fused q/k/v with a LayerNorm over each head's queries and keys, rotary on half of each head, a squared-ReLU MLP and an untied LM head.",
    ),
    gpt(
        "gpt_neox_japanese",
        "GPT-NeoX-Japanese",
        "gpt_neox",
        "ABEJA's Japanese GPT-NeoX (2022): GPT-NeoX's layers in sequence without biases (but one attention output bias in the last layer), rotary positions and a tied output embedding.",
    ),
    gpt(
        "bert-generation",
        "BertGeneration",
        "bert",
        "Google's BertGeneration (2019): BERT's post-norm layers reused as a causal decoder (and encoder), warm-started from BERT or RoBERTa checkpoints, with an LM head tied to the word embeddings.",
    ),
    gpt(
        "trocr",
        "TrOCR (text decoder)",
        "bart",
        "Microsoft's TrOCR (2021) text decoder: fairseq's post-norm layers with learned positions (offset by 2), an embeddings LayerNorm and cross-attention over the image encoder's states.",
    ),
];
