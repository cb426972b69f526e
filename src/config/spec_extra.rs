//! The tensors a described type (`config/spec.rs`) adds to the shared blocks, beyond their own.

/// A width a described tensor takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    Hidden,
    Ffn,
    HeadDim,
    One,
}

/// Where an extra tensor lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Under `self_attn`; a norm sits after attention, before `o_proj`.
    Attention,
    /// Under the MLP; a norm sits before `down_proj`.
    Mlp,
    /// On the mixture of experts' output, inside its block, so on sparse layers only (A.X K1's
    /// `post_mlp_layernorm`).
    Experts,
}

/// One tensor (or a norm's weight) the modeling code adds to every layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extra {
    /// Its name under the place (`attn_sub_norm`, `lambda_q1`, `act_fn.alpha_p`).
    pub name: &'static str,
    pub place: Place,
    pub width: Width,
    /// An RMSNorm (its tensor is `name.weight`) rather than a bare parameter.
    pub norm: bool,
    /// Only when `hidden_act` reads this (the xIELU activation's parameters).
    pub when_act: Option<&'static str>,
}
