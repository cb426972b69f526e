//! Any bytes as a config.json: planned, and when planned, rendered to the page, the Markdown twin
//! and the JSON. A panic or an output over 16 MiB is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modelatlas::source::ModelFiles;

fuzz_target!(|data: &[u8]| {
    let files = ModelFiles {
        label: "fuzz/model".into(),
        config_text: String::from_utf8_lossy(data).into_owned(),
        config_path: "fuzz/config.json".into(),
        commit: None,
        meta: None,
        index_tensor_names: None,
    };
    if let Ok(page) = modelatlas::plan::plan(&files, Some("model.html".into())) {
        let site = modelatlas::manifest::SiteSettings {
            title: "fuzz".into(),
            base_url: "https://example.org/".into(),
        };
        let out = modelatlas::render::Renderer::new().model(&page, &site, "../../").expect("renders");
        assert!(out.html.len() + out.markdown.len() + out.json.len() < 16 << 20, "output explodes");
    }
});
