//! LiLT's layout stream (Wang et al., 2022), the part of its graph BERT's has not: the layout
//! embeddings (`layout_embeddings`) and, in every layer, the layout's own q, k and v, output,
//! intermediate and output LayerNorm, `hidden / channel_shrink_ratio` wide. The text stream's
//! attention scores and the layout's are summed, so the two share each layer's attention.

use super::Node;
use super::bert::{layer_norm, linear};
use super::blocks::embedding;

/// `layout_embeddings`: four 2-D tables of hidden / 6, a box position table and a linear from the
/// hidden size, both to the layout's width, and its LayerNorm.
pub(crate) fn embeddings(p: &str, seq: u64, [h, positions, shrink, max_2d]: [u64; 4]) -> Vec<Node> {
    let e = format!("{p}layout_embeddings");
    let (sixth, w) = (h / 6, h / shrink);
    let mut nodes: Vec<Node> = ["x", "y", "h", "w"]
        .into_iter()
        .map(|axis| {
            let name = format!("{e}.{axis}_position_embeddings");
            embedding(&name, format!("{max_2d} 2-D positions ({axis})"), seq, max_2d, sixth)
        })
        .collect();
    nodes.extend([
        embedding(
            &format!("{e}.box_position_embeddings"),
            format!("{positions} positions, layout width"),
            seq,
            positions,
            w,
        ),
        linear(&format!("{e}.box_linear_embeddings"), "box embeddings to the layout width", seq, h, w),
        layer_norm(&format!("{e}.LayerNorm"), "norm of the layout stream", &[seq, w], w),
    ]);
    nodes
}

/// The layout stream's modules in one layer at `l`.
pub(crate) fn layer(l: &str, seq: u64, [h, ffn, shrink]: [u64; 3], act: &str) -> Vec<Node> {
    let (w, f) = (h / shrink, ffn / shrink);
    let a = format!("{l}.attention");
    vec![
        linear(&format!("{a}.self.layout_query"), "layout query projection", seq, w, w),
        linear(&format!("{a}.self.layout_key"), "layout key projection", seq, w, w),
        linear(&format!("{a}.self.layout_value"), "layout value projection", seq, w, w),
        linear(&format!("{a}.layout_output.dense"), "layout attention output projection", seq, w, w),
        layer_norm(&format!("{a}.layout_output.LayerNorm"), "residual add, then norm", &[seq, w], w),
        linear(
            &format!("{l}.layout_intermediate.dense"),
            &format!("layout up projection, then {act}"),
            seq,
            w,
            f,
        ),
        linear(&format!("{l}.layout_output.dense"), "layout down projection", seq, f, w),
        layer_norm(&format!("{l}.layout_output.LayerNorm"), "residual add, then norm", &[seq, w], w),
    ]
}
