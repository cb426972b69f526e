#!/usr/bin/env python3
"""The bookkeeping of measure_gpu.py, on the CPU: `python3 tools/validate/test_measure_gpu.py`.

Without torch the pure parts are tested (the what-if arguments, the card, NVML's reading, the
errors, the table); with torch (CPU wheels are enough) the dry run goes through every run kind.
"""
import importlib.util
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure_gpu as m  # noqa: E402


class Bookkeeping(unittest.TestCase):
    def test_ten_configs_from_the_snapshot_and_every_run_kind(self):
        self.assertEqual(len(m.MODELS), 10)
        for model, _ in m.MODELS:
            self.assertTrue(os.path.isdir(m.snapshot_config(model)), model)
        kinds = {(s.mode, s.recipe, s.checkpointing) for s in m.specs()}
        for k in [("full", "amp-adamw", False), ("full", "amp-adamw", True), ("full", "amp-adafactor", False),
                  ("lora", "amp-adamw", False), ("qlora", "amp-adamw", False), ("serve", "amp-adamw", False)]:
            self.assertIn(k, kinds)

    def test_bert_style_encoders_run_eager_at_batch_1_and_4_under_amp_and_fp32(self):
        eager = {(s.model, s.recipe, s.batch) for s in m.specs() if s.attention == "eager"}
        for model in m.EAGER_BATCH_MODELS:
            for recipe in ("amp-adamw", "fp32-adamw"):
                for batch in (1, 4):
                    self.assertIn((model, recipe, batch), eager)
        s = m.Spec("google-bert/bert-base-uncased", "masked", "full", 4, 512, recipe="fp32-adamw", attention="eager")
        args = m.plan_args(s, "h200-141gb", "5.x")
        self.assertEqual(args[args.index("--recipe") + 1], "fp32-adamw")
        self.assertEqual(args[args.index("--attention") + 1], "eager")
        self.assertIn("eager", s.label())

    def test_the_plan_is_asked_for_the_same_settings(self):
        s = m.Spec("Qwen/Qwen2.5-0.5B", "causal", "full", 2, 512, checkpointing=True)
        args = m.plan_args(s, "h200-141gb", "5.x")
        self.assertEqual(args[1:3], ["what-if", "Qwen/Qwen2.5-0.5B"])
        for flag, value in [("--mode", "full"), ("--card", "h200-141gb"), ("--batch", "2"), ("--seq", "512"),
                            ("--recipe", "amp-adamw"), ("--attention", "sdpa"), ("--transformers", "5.x")]:
            self.assertEqual(args[args.index(flag) + 1], value)
        self.assertIn("--checkpointing", args)
        # Serving is planned at the prompt plus the generated tokens.
        g = m.Spec("openai-community/gpt2", "causal", "serve", 1, 512, new_tokens=16)
        self.assertEqual(m.plan_args(g, "h100-80gb")[m.plan_args(g, "h100-80gb").index("--seq") + 1], "528")

    def test_a_gpu_name_maps_to_its_catalogue_card(self):
        self.assertEqual(m.card_for("NVIDIA H200", 150e9), "h200-141gb")
        self.assertEqual(m.card_for("NVIDIA A100-SXM4-40GB", 42.3e9), "a100-40gb")
        self.assertEqual(m.card_for("NVIDIA A100-SXM4-80GB", 85.1e9), "a100-80gb")
        self.assertIsNone(m.card_for("Tesla V100-SXM2-16GB", 17e9))

    def test_nvidia_smi_is_read_for_this_process_in_mib(self):
        text = "1234, 2048\n5678, 81920\n"
        self.assertEqual(m.parse_nvidia_smi(text, 5678), 81920 * 2**20)
        self.assertIsNone(m.parse_nvidia_smi(text, 42))
        self.assertIsNone(m.parse_nvidia_smi("5678, [N/A]\n", 5678))

    def test_the_error_is_the_plans_over_the_measurement(self):
        self.assertAlmostEqual(m.error(105.0, 100.0), 5.0)
        self.assertAlmostEqual(m.error(90.0, 100.0), -10.0)
        self.assertIsNone(m.error(None, 100.0))
        self.assertIsNone(m.error(100.0, None))

    def test_plan_figures_come_from_what_if(self):
        p = m.plan_figures('{"allocated_bytes": 1.0, "reserved_bytes": 2.0, "peak_bytes": 3.0, "x": 0}')
        self.assertEqual(p, {"allocated": 1.0, "reserved": 2.0, "nvidia_smi": 3.0})

    def test_the_table_has_a_row_per_run_with_three_figures_and_the_median(self):
        s = m.Spec("openai-community/gpt2", "causal", "full", 2, 512)
        r = m.Row(s, measured={"allocated": 2**30, "reserved": 2**31, "nvidia_smi": 3 * 2**30},
                  plan={"allocated": 2**30, "reserved": 2**31, "nvidia_smi": 3.3 * 2**30})
        skipped = m.Row(m.Spec("openai-community/gpt2", "causal", "qlora", 2, 512), note="skipped: no bitsandbytes")
        md = m.markdown([r, skipped], "NVIDIA H200")
        self.assertIn("| openai-community/gpt2 full (amp-adamw), batch 2 x 512 tokens | 1.00 GiB / 1.00 GiB / +0.0%", md)
        self.assertIn("3.00 GiB / 3.30 GiB / +10.0%", md)
        self.assertIn("skipped: no bitsandbytes", md)
        self.assertIn("median +10.0%", md)

    def test_what_if_answers_the_arguments_the_script_builds(self):
        if not os.path.exists(m.BIN):
            self.skipTest("cargo build first")
        s = m.Spec("openai-community/gpt2", "causal", "lora", 2, 512)
        out = subprocess.run(m.plan_args(s, "h200-141gb"), capture_output=True, text=True, check=True, cwd=m.ROOT).stdout
        p = m.plan_figures(out)
        self.assertTrue(0 < p["allocated"] < p["reserved"] < p["nvidia_smi"])


@unittest.skipUnless(importlib.util.find_spec("torch") and importlib.util.find_spec("transformers"),
                     "torch and transformers not installed")
class DryRun(unittest.TestCase):
    def test_every_run_kind_goes_through_on_the_cpu(self):
        rows = [m.run_one(s, "cpu", None, True, "5.x") for s in m.specs(16, 1)
                if s.model in ("openai-community/gpt2", "google-t5/t5-small", "google-bert/bert-base-uncased")]
        for r in rows:
            if r.spec.mode == "qlora":
                self.assertIn("skipped", r.note)
            elif r.spec.mode == "lora" and not importlib.util.find_spec("peft"):
                continue
            else:
                self.assertEqual(r.note, "", r.spec.label())
            self.assertEqual(r.measured, {}, "no counters on the CPU")


if __name__ == "__main__":
    unittest.main()
