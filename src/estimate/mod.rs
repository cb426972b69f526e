//! Everything computed from the graph: the parameter count and its reconciliation with the
//! published checkpoint, the forward-pass check, memory and fit per card, and the verifier's
//! findings. Each module takes the graph (and the resolved config where it needs a hyper-
//! parameter) and returns plain data for the page.

pub mod cards;
pub mod cost;
pub mod fit;
pub mod lints;
pub mod memory_baseline;
pub mod memory_model;
pub mod reconcile;
pub mod runtime;
pub mod serving;
pub mod shape_check;
pub mod training;
