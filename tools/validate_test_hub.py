#!/usr/bin/env python3
"""Drives the real `huggingface_hub` client against the test Hub that `tests/sync.rs` serves, to
check that the test Hub speaks the Hub's routes, JSON shapes, headers and errors as the official
client reads them. Outside CI (it needs `pip install huggingface_hub`); run it through

    MODELATLAS_PYTHON=/path/to/venv/bin/python cargo test --test sync -- --ignored real_python_client

which starts the test Hub, writes what it serves to a JSON file, and calls
`python validate_test_hub.py ENDPOINT EXPECTED.json`. Exit status 0 when every check agrees.
"""

import hashlib
import json
import os
import sys
import tempfile


def main() -> int:
    endpoint, expected_path = sys.argv[1], sys.argv[2]
    expected = json.load(open(expected_path))
    cache = tempfile.mkdtemp(prefix="hf-validate-")
    # Set before the import: huggingface_hub reads its constants at import time.
    os.environ["HF_ENDPOINT"] = endpoint
    os.environ["HF_HOME"] = cache
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
    os.environ.pop("HF_TOKEN", None)
    os.environ.pop("HF_HUB_OFFLINE", None)

    import huggingface_hub
    from huggingface_hub import HfApi, hf_hub_download
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    api = HfApi(endpoint=endpoint, token=False)
    tiny = expected["model"]
    results = []

    def check(route, what, ok, detail=""):
        results.append((route, what, bool(ok), detail))

    # GET /api/models/{id}
    info = api.model_info(tiny)
    check("GET /api/models/{id}", "sha", info.sha == expected["head"], info.sha)
    check("GET /api/models/{id}", "downloads, likes", (info.downloads, info.likes) == (expected["downloads"], expected["likes"]))
    check("GET /api/models/{id}", "gated", info.gated is False, repr(info.gated))
    check("GET /api/models/{id}", "pipeline_tag", info.pipeline_tag == expected["pipeline_tag"])
    check("GET /api/models/{id}", "last_modified", info.last_modified is not None and info.last_modified.isoformat().startswith(expected["last_modified"][:19]), str(info.last_modified))
    check("GET /api/models/{id}", "safetensors.total", info.safetensors is not None and info.safetensors.total == expected["total"], str(info.safetensors))
    check("GET /api/models/{id}", "siblings", sorted(s.rfilename for s in info.siblings) == sorted(expected["files"]))
    info_rev = api.model_info(tiny, revision=expected["commits"][-1])
    check("GET /api/models/{id}/revision/{rev}", "sha", info_rev.sha == expected["commits"][-1])

    # GET /api/models/{id}/commits/{rev}, Link pagination
    commits = api.list_repo_commits(tiny)
    check("GET /api/models/{id}/commits/main", "ids across Link pages", [c.commit_id for c in commits] == expected["commits"], str([c.commit_id[:7] for c in commits]))
    check("GET /api/models/{id}/commits/main", "titles", [c.title for c in commits] == expected["titles"])

    # GET /api/models/{id}/tree/{rev}
    tree = list(api.list_repo_tree(tiny))
    check("GET /api/models/{id}/tree/main", "paths", sorted(t.path for t in tree) == sorted(expected["files"]))
    lfs = [t for t in tree if getattr(t, "lfs", None)]
    check("GET /api/models/{id}/tree/main", "lfs sha256 of model.safetensors", any(t.lfs.sha256 == expected["safetensors_sha256"] for t in lfs))

    # resolve: HEAD + GET, X-Repo-Commit, ETag, cache layout
    path = hf_hub_download(tiny, "config.json")
    check("GET|HEAD /{id}/resolve/main/config.json", "content", open(path, "rb").read().decode() == expected["config"])
    check("GET|HEAD /{id}/resolve/main/config.json", "cache layout snapshots/<X-Repo-Commit>", f"snapshots{os.sep}{expected['head']}" in path, path)
    ref = open(os.path.join(cache, "hub", "models--" + tiny.replace("/", "--"), "refs", "main")).read()
    check("GET|HEAD /{id}/resolve/main/config.json", "refs/main", ref == expected["head"])

    # resolve of an LFS file: 302 to the CDN with X-Linked-Size / X-Linked-Etag, then GET
    path = hf_hub_download(tiny, "model.safetensors")
    data = open(path, "rb").read()
    check("302 /{id}/resolve/main/model.safetensors -> /cdn/", "size and sha256", len(data) == expected["safetensors_size"] and hashlib.sha256(data).hexdigest() == expected["safetensors_sha256"])
    meta = huggingface_hub.get_hf_file_metadata(huggingface_hub.hf_hub_url(tiny, "model.safetensors"))
    check("HEAD 302 X-Linked-Size / X-Linked-Etag", "size, etag, commit", (meta.size, meta.etag, meta.commit_hash) == (expected["safetensors_size"], expected["safetensors_sha256"], expected["head"]), f"{meta.size} {meta.etag} {meta.commit_hash}")

    # Range on the CDN: get_safetensors_metadata reads the header with Range requests
    st = api.get_safetensors_metadata(tiny)
    tensors = {name: list(t.shape) for name, t in st.files_metadata["model.safetensors"].tensors.items()}
    check("Range 206 on /cdn/ (get_safetensors_metadata)", "tensor names and shapes", tensors == expected["tensors"])
    check("Range 206 on /cdn/ (get_safetensors_metadata)", "parameter count", sum(st.parameter_count.values()) == expected["total"])

    # GET /api/models?sort=downloads
    listed = [m.id for m in api.list_models(author="org", sort="downloads", limit=expected["list_limit"])]
    check("GET /api/models?sort=downloads&author=", "order", listed == expected["listed"], str(listed))

    # Errors with X-Error-Code
    for route, call, exc in [
        ("401 GatedRepo", lambda: hf_hub_download(expected["gated"], "config.json"), GatedRepoError),
        ("404 RepoNotFound", lambda: hf_hub_download("org/missing", "config.json"), RepositoryNotFoundError),
        ("404 EntryNotFound", lambda: hf_hub_download(tiny, "nope.json"), EntryNotFoundError),
        ("404 RevisionNotFound", lambda: hf_hub_download(tiny, "config.json", revision="0" * 40), RevisionNotFoundError),
    ]:
        try:
            call()
            check(route, exc.__name__, False, "no error raised")
        except exc:
            check(route, exc.__name__, True)
        except Exception as e:  # noqa: BLE001 - report what was raised instead
            check(route, exc.__name__, False, f"raised {type(e).__name__}: {e}")

    width = max(len(r[0]) for r in results)
    for route, what, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {route:<{width}}  {what}{'' if ok else '  (' + detail + ')'}")
    print(f"huggingface_hub {huggingface_hub.__version__}: {sum(r[2] for r in results)}/{len(results)} checks agree")
    return 0 if all(r[2] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
