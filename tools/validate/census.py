"""`validate_params.py --census`: every model type of the installed transformers, classified by
kind, with rows for the text types and the vision-language wrappers, and a report whose summary
table answers issue 10's "How far".

Kinds, from transformers' own auto mappings (first that applies):

- audio: a speech-to-text, CTC, audio-classification, text-to-speech or RNN-T class;
- vision-language: an image-text-to-text or multimodal-LM class;
- encoder-decoder: a sequence-to-sequence LM class;
- decoder: a causal LM class;
- encoder: a masked-LM, sequence-, token-classification, QA, multiple-choice or text-encoding class;
- vision: an image, video, detection, segmentation, depth or backbone class;
- other: anything else (time series, decision transformers, configs with no model class).

Audio, vision and other types are listed with their kind and left out (the planner reads text
model configs). For a text type or a wrapper, modelatlas first plans its default config (sparse,
`model_type` only): a type it plans gets the full rows of `validate_params.py` (base, usual head,
ForSequenceClassification and EXTRA_CLASSES, each at the default, sparse default and every
VARIATIONS entry); a type it does not plan gets its base and usual head at the default only, and
transformers is not asked to build them (the row is `unsupported` whatever the count), which
keeps the whole census under ~20 minutes on 2 cores.
"""
from __future__ import annotations

import json
from pathlib import Path

KINDS = ["decoder", "encoder", "encoder-decoder", "vision-language", "audio", "vision", "other"]
TEXT_KINDS = ["decoder", "encoder", "encoder-decoder"]

WHY_LEFT_OUT = {
    "audio": "speech and audio models: the planner reads text model configs (Whisper, an "
             "encoder-decoder over audio, is planned by its own family but filed here)",
    "vision": "vision-only models: no text stack (ViT is planned by its own family but filed here)",
    "other": "no text model class in transformers' auto mappings (time series, reinforcement "
             "learning, configs without a model class)",
}


def _names(ma, *mappings: str) -> set[str]:
    out: set[str] = set()
    for name in mappings:
        out |= set(getattr(ma, name, {}) or {})
    return out


def classify_all() -> dict[str, str]:
    """model_type -> kind, for every type CONFIG_MAPPING knows."""
    from transformers import CONFIG_MAPPING
    from transformers.models.auto import modeling_auto as ma

    audio = _names(ma, "MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES", "MODEL_FOR_CTC_MAPPING_NAMES",
                   "MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES",
                   "MODEL_FOR_AUDIO_FRAME_CLASSIFICATION_MAPPING_NAMES",
                   "MODEL_FOR_AUDIO_XVECTOR_MAPPING_NAMES", "MODEL_FOR_TEXT_TO_WAVEFORM_MAPPING_NAMES",
                   "MODEL_FOR_TEXT_TO_SPECTROGRAM_MAPPING_NAMES", "MODEL_FOR_RNNT_MAPPING_NAMES",
                   "MODEL_FOR_TDT_MAPPING_NAMES")
    vlm = _names(ma, "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES", "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES")
    s2s = _names(ma, "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES")
    causal = _names(ma, "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES")
    encoder = _names(ma, "MODEL_FOR_MASKED_LM_MAPPING_NAMES",
                     "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
                     "MODEL_FOR_TOKEN_CLASSIFICATION_MAPPING_NAMES",
                     "MODEL_FOR_QUESTION_ANSWERING_MAPPING_NAMES",
                     "MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES", "MODEL_FOR_TEXT_ENCODING_MAPPING_NAMES")
    vision = {n for n in dir(ma) if n.endswith("_MAPPING_NAMES") and any(
        w in n for w in ("IMAGE", "VIDEO", "OBJECT_DETECTION", "SEGMENTATION", "DEPTH", "BACKBONE",
                         "KEYPOINT", "POSE", "MASK_GENERATION", "NORMAL_ESTIMATION", "POINTMAP"))}
    vision = _names(ma, *sorted(vision))
    kinds = {}
    for t in CONFIG_MAPPING.keys():
        for kind, members in (("audio", audio), ("vision-language", vlm), ("encoder-decoder", s2s),
                              ("decoder", causal), ("encoder", encoder), ("vision", vision)):
            if t in members:
                kinds[t] = kind
                break
        else:
            kinds[t] = "other"
    return kinds


def usual_classes(model_type: str) -> list[str]:
    """The base class and the usual head: what an unplanned type gets a row for."""
    from transformers.models.auto import modeling_auto as ma

    classes = []
    if model_type in ma.MODEL_MAPPING_NAMES:
        classes.append(ma.MODEL_MAPPING_NAMES[model_type])
    for name in ("MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES", "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
                 "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES", "MODEL_FOR_MASKED_LM_MAPPING_NAMES",
                 "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES"):
        mapping = getattr(ma, name, {}) or {}
        if model_type in mapping:
            cls = mapping[model_type]
            if isinstance(cls, (list, tuple)):
                cls = cls[0]
            if cls not in classes:
                classes.append(cls)
            break
    return classes


def plans(binary: Path, model_type: str, workdir: Path, cls: str) -> bool:
    """Whether modelatlas plans the type (its sparse default config)."""
    import subprocess

    path = workdir / f"probe--{model_type}.json"
    path.write_text(json.dumps({"model_type": model_type, "architectures": [cls]}))
    proc = subprocess.run([str(binary), "plan", str(path), "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        # A type it plans may still refuse a config (a default transformers cannot build
        # either): planned, and the full rows say why.
        return "not a family the planner supports" not in proc.stderr
    try:
        return bool(json.loads(proc.stdout).get("supported"))
    except json.JSONDecodeError:
        return False


def outcome(match: str) -> str:
    if match == "yes":
        return "exact"
    if match == "unsupported":
        return "unsupported"
    if match.startswith("NO"):
        return "wrong"
    # transformers failing on a config it ships is transformers' row, not a count.
    if match.startswith("error: transformers"):
        return "transformers-error"
    return "error"


def summarise(rows, kinds: dict[str, str]) -> tuple[list[str], list[str]]:
    """The summary table and the per-type lines."""
    per_type: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.source.startswith(("hub:", "reference:")):
            continue
        c = per_type.setdefault(r.model_type, {k: 0 for k in
                                               ("cases", "exact", "unsupported", "wrong", "error",
                                                "transformers-error")})
        c["cases"] += 1
        c[outcome(r.match)] += 1

    def covered(c) -> bool:
        return c["exact"] > 0 and c["exact"] + c["transformers-error"] == c["cases"]

    summary = ["| kind | types in transformers | types covered (every row exact) | cases | exact "
               "| unsupported | wrong | errors |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    text_types = text_covered = 0
    for kind in KINDS:
        types = [t for t, k in kinds.items() if k == kind]
        counts = [per_type[t] for t in types if t in per_type]
        total = {k: sum(c[k] for c in counts) for k in ("cases", "exact", "unsupported", "wrong")}
        errors = sum(c["error"] + c["transformers-error"] for c in counts)
        n_cov = sum(1 for c in counts if covered(c))
        if kind in TEXT_KINDS:
            text_types += len(types)
            text_covered += n_cov
        if kind in WHY_LEFT_OUT and not counts:
            summary.append(f"| {kind} | {len(types)} | left out | | | | | |")
            continue
        summary.append(f"| {kind} | {len(types)} | {n_cov} | {total['cases']} | {total['exact']} | "
                       f"{total['unsupported']} | {total['wrong']} | {errors} |")
    pct = 100.0 * text_covered / text_types if text_types else 0.0
    summary += ["", "A type is covered when it has an exact row and every other row is exact or one "
                    "transformers itself cannot build from the config it ships (counted under errors).",
                "", f"**Text types (decoder, encoder, encoder-decoder) exact: {text_covered} of "
                    f"{text_types} ({pct:.1f}%).**", ""]
    lines = ["| model_type | kind | cases | exact | unsupported | wrong | errors | covered |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for t in sorted(per_type):
        c = per_type[t]
        lines.append(f"| {t} | {kinds.get(t, '?')} | {c['cases']} | {c['exact']} | "
                     f"{c['unsupported']} | {c['wrong']} | {c['error'] + c['transformers-error']} | "
                     f"{'yes' if covered(c) else 'no'} |")
    return summary, lines


def left_out(kinds: dict[str, str]) -> list[str]:
    out = []
    for kind, why in WHY_LEFT_OUT.items():
        types = sorted(t for t, k in kinds.items() if k == kind)
        out.append(f"- **{kind}** ({len(types)}): {why}. " + ", ".join(f"`{t}`" for t in types))
    return out
