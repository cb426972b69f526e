//! modelatlas turns a list of Hugging Face model IDs into a static site: for each model, from its
//! config.json alone, the architecture as a graph with shapes, the parameter count checked against
//! the published checkpoint, and the GPU memory to fine-tune and serve.
//!
//! Data flows one way: [`manifest`] and [`source`] -> [`config`] -> [`graph`] -> [`estimate`] ->
//! [`page`] -> [`render`] -> [`output`], with [`plan`] doing one model and [`site`] all of them.

pub mod api;
pub mod changes;
pub mod config;
pub mod estimate;
pub mod family;
pub mod feeds;
pub mod graph;
#[cfg(feature = "io")]
pub mod incremental;
pub mod input_file;
pub mod manifest;
#[cfg(feature = "io")]
pub mod mcp;
pub mod model_id;
pub mod model_json;
pub mod osv;
#[cfg(feature = "io")]
pub mod output;
pub mod page;
pub mod plan;
#[cfg(feature = "io")]
pub mod planner_assets;
pub mod render;
#[cfg(feature = "io")]
pub mod serve;
#[cfg(feature = "io")]
pub mod site;
mod sort;
pub mod source;
#[cfg(feature = "io")]
pub mod spill;
#[cfg(feature = "io")]
pub mod sync;
#[cfg(all(target_arch = "wasm32", not(feature = "io")))]
pub mod wasm;
