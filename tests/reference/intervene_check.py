#!/usr/bin/python3
"""The interventions of the cue module (core/include/attn/cue/intervene.hpp) rebuilt in PyTorch.

Runs tests/reference/intervene_state.cpp's program (the path is the one argument), which trains a
small cue model (2 blocks of 2 heads) and writes its weights, its validation set and, for a list
of interventions on a few given validation sequences, CueTrainer::intervene's results. Here the
model is nn_check.py's rebuild from torch.nn parts (imported, not copied), loaded with those
weights, in float64. Its attention is then computed again explicitly from each
nn.MultiheadAttention's in_proj and out_proj weights, so that a head's pattern and its output
(its slice of the context, before W_O) can be changed, and every intervention is written here
from intervene.hpp's definitions: a knock-out sets a head's output to zero or to its mean over the
validation set at each position; a pattern replaces a head's pattern by the ideal one (previous,
next, self, uniform, first CUE) or by the given one; a patch copies a head's output (or, head 0,
the block's output) at the chosen positions from a clean run into the corrupted run, where the
corruption moves the answer symbol (the token after the first CUE) by corrupt_shift modulo
symbols. The explicit forward pass must first equal the torch.nn model's (nn.MultiheadAttention's
own attention) without interventions.

What is compared, per intervention and given sequence, with the framework test's float32
tolerances (nn_check.TOLERANCES["float32"]: RTOL, ATOL), the core running in float32:
  probabilities, unchanged probabilities  max |C++ - PyTorch| <= ATOL + RTOL * max |PyTorch|;
  log-probabilities (the changed pass's logits less their log-sum-exp, so its logits up to a
                    constant)             the same rule on log(probabilities);
  loss, clean loss                        |C++ - PyTorch| <= ATOL + RTOL * |PyTorch|;
  mean logit differences (clean, corrupted, patched)
                                          |C++ - PyTorch| <= ATOL + RTOL * L, L the largest
                                          |logit| of the passes they come from (a difference of
                                          float32 logits is accurate relative to the logits, not
                                          to itself);
  restored fractions                      r = (p - c) / (k - c) with each of p, c, k within
                                          e = ATOL + RTOL * L: |C++ - PyTorch| <= 2 e (1 + |r|) / |k - c|;
  predictions                             equal, unless PyTorch's top two logits lie within
                                          2 (ATOL + RTOL * L) of each other (a near tie);
  accuracies                              the counts of correct answers differ by at most the
                                          number of validation sequences whose top two logits lie
                                          that close (observed: no such sequence, equal counts).
Observed (torch 1.13, seed 3, 73 cases), largest |C++ - PyTorch| and the largest share of its
tolerance used: probabilities 8.4e-7 (0.14), log-probabilities 7.2e-6 (0.04; the smallest
probabilities carry float32's exp error), loss 1.8e-7 (0.09, about 1e-6 relative), mean logit
differences 3.0e-7 (0.002), restored fractions 1.6e-8 (0.001; one sequence's 2.6e-7, 0.013);
predictions and accuracies equal, no near ties. So the float32 RTOL 1e-5 holds with a margin of 7
or more. The explicit attention equals nn.MultiheadAttention's to 0 here (key width 16: the
scale 1/4 is exact); it must be within 1e-12 of the largest logit.

Run by ctest (tests/reference/CMakeLists.txt) as pytorch.interventions, reported as skipped
where CMake found no PyTorch; exits 1 when anything is out of tolerance.
"""
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True  # importing nn_check must leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nn_check import TOLERANCES, CueTransformer, cpp_layout  # noqa: E402

RTOL, ATOL = TOLERANCES["float32"]


def load_model(state):
    c = state["model"]
    if c["heads"] * c["key_dim"] != c["d_model"]:
        raise ValueError("nn.MultiheadAttention needs heads * key_dim = d_model")
    model = CueTransformer(c).double()
    loaded = 0
    with torch.no_grad():
        for p in state["parameters"]:
            target = cpp_layout(model, p["name"], lambda t: t)
            target.copy_(torch.tensor(p["values"], dtype=torch.float64).reshape(p["shape"]))
            loaded += target.numel()
    total = sum(p.numel() for p in model.parameters())
    if loaded != total:
        raise ValueError("C++ weights cover %d of PyTorch's %d parameters" % (loaded, total))
    model.eval()
    return model


class Explicit:
    """The loaded model's forward pass with the attention written out, and three edit points per
    block (1-based), as the core has them: weights(P, tokens) on the patterns (B, h, T, T),
    context(ctx) on the heads' outputs (B, h, T, k) before W_O, output(y) on the block's output
    (B, T, d). Each edit returns the edited tensor."""

    def __init__(self, model, config):
        self.model = model
        self.heads = config["heads"]
        self.key_dim = config["key_dim"]

    def attend(self, mha, x, tokens, weights, context):
        b, t, d = x.shape
        h, k = self.heads, self.key_dim
        w, bias = mha.in_proj_weight, mha.in_proj_bias
        q, key, v = (F.linear(x, w[i * d:(i + 1) * d], bias[i * d:(i + 1) * d])
                     .reshape(b, t, h, k).transpose(1, 2) for i in range(3))
        pattern = torch.softmax(q @ key.transpose(-1, -2) / math.sqrt(k), dim=-1)  # (B, h, T, T)
        if weights:
            pattern = weights(pattern, tokens)
        ctx = pattern @ v  # (B, h, T, k)
        if context:
            ctx = context(ctx)
        return mha.out_proj(ctx.transpose(1, 2).reshape(b, t, d))

    def __call__(self, tokens, edits=None):
        """tokens (B, T) -> logits (B, C); edits: {(kind, block): function}."""
        edits = edits or {}
        m = self.model
        x = m.embedding(tokens) + m.positions
        for index, block in enumerate(m.blocks, start=1):
            def attend(y, index=index, block=block):
                return self.attend(block.attention, y, tokens, edits.get(("weights", index)),
                                   edits.get(("context", index)))
            if block.post_layer_norm:
                x = block.norm1(x + attend(x))
                x = block.norm2(x + block.ffn(x))
            else:
                x = x + attend(block.norm1(x))
                x = x + block.ffn(block.norm2(x))
            if ("output", index) in edits:
                x = edits[("output", index)](x)
        return m.head(x[:, -1])


def first_cue(row, cue):
    """The first CUE of the body (positions 0..T-2), or -1."""
    for i, token in enumerate(row[:-1]):
        if token == cue:
            return i
    return -1


def ideal(name, row, cue):
    """The (T, T) pattern intervene.hpp names, or None (first-cue without a CUE: keep)."""
    t = len(row)
    p = torch.zeros(t, t, dtype=torch.float64)
    if name == "previous":
        for i in range(t):
            p[i, max(0, i - 1)] = 1
    elif name == "next":
        for i in range(t):
            p[i, min(t - 1, i + 1)] = 1
    elif name == "self":
        p = torch.eye(t, dtype=torch.float64)
    elif name == "uniform":
        p[:] = 1.0 / t
    elif name == "first-cue":
        at = first_cue(row, cue)
        if at < 0:
            return None
        p[:, at] = 1
    else:
        raise ValueError("unknown pattern " + name)
    return p


def corrupt(row, cue, symbols, shift):
    """The row with the answer symbol (after the first CUE) moved by shift, and that symbol."""
    row = list(row)
    at = first_cue(row, cue)
    if at < 0 or row[at + 1] >= symbols:
        raise ValueError("no CUE followed by a symbol in %s" % row)
    row[at + 1] = (row[at + 1] + shift) % symbols
    return row, row[at + 1]


class Interventions:
    def __init__(self, state):
        self.state = state
        c = state["model"]
        self.length, self.cue, self.symbols = c["length"], state["cue"], state["symbols"]
        self.forward = Explicit(load_model(state), c)
        val = state["validation"]
        self.tokens = torch.tensor(val["tokens"]).reshape(val["size"], self.length)
        self.labels = torch.tensor(val["labels"])
        self.means = {}
        self.cache = {}  # validation results by intervention
        self.clean = None  # validation logits without intervention

    def mean_context(self, block, head):
        """A head's output at each position (T, k), averaged over the validation set."""
        if (block, head) not in self.means:
            captured = {}

            def capture(ctx):
                captured["ctx"] = ctx[:, head - 1].clone()
                return ctx
            self.forward(self.tokens, {("context", block): capture})
            self.means[(block, head)] = captured["ctx"].mean(dim=0)
        return self.means[(block, head)]

    def edits(self, config, inputs, source=None, capture=None):
        """The edits of one changed pass. A patch needs `source`, the clean pass's captured
        activation, to copy from; with `capture` (a dict) a pass records it instead."""
        action, block, head = config["action"], config["block"], config["head"]
        if action == "knock-out":
            def knock(ctx):
                ctx = ctx.clone()
                if config["ablation"] == "zero":
                    ctx[:, head - 1] = 0
                else:
                    ctx[:, head - 1] = self.mean_context(block, head)
                return ctx
            return {("context", block): knock}
        if action == "pattern":
            def replace(pattern, tokens):
                pattern = pattern.clone()
                for b, row in enumerate(tokens.tolist()):
                    if config["pattern"] == "given":
                        p = torch.tensor(inputs["given"], dtype=torch.float64).reshape(self.length, -1)
                    else:
                        p = ideal(config["pattern"], row, self.cue)
                    if p is not None:
                        pattern[b, head - 1] = p
                return pattern
            return {("weights", block): replace}
        if action == "patch":
            positions = inputs["positions"] or list(range(self.length))
            if capture is not None:
                def record_output(y):
                    capture["y"] = y.clone()
                    return y

                def record_context(ctx):
                    capture["y"] = ctx[:, head - 1].clone()
                    return ctx
                if head == 0:
                    return {("output", block): record_output}
                return {("context", block): record_context}

            def copy_output(y):
                y = y.clone()
                y[:, positions] = source[:, positions]
                return y

            def copy_context(ctx):
                ctx = ctx.clone()
                ctx[:, head - 1, positions] = source[:, positions]
                return ctx
            return {("output", block): copy_output} if head == 0 else {("context", block): copy_context}
        return {}

    def patch_pass(self, config, inputs, clean_tokens, corrupted_tokens):
        """Clean, corrupted and patched logits of a patch."""
        capture = {}
        clean = self.forward(clean_tokens, self.edits(config, inputs, capture=capture))
        corrupted = self.forward(corrupted_tokens)
        patched = self.forward(corrupted_tokens, self.edits(config, inputs, source=capture["y"]))
        return clean, corrupted, patched

    def validation(self, config, inputs):
        """The validation set's part of a CueIntervention (the same for every given sequence of
        one intervention, so computed once), and the logits it came from."""
        key = json.dumps([config, {k: v for k, v in inputs.items() if k != "tokens"}], sort_keys=True)
        if key in self.cache:
            return self.cache[key]
        out, logits = {}, {}
        if self.clean is None:
            self.clean = self.forward(self.tokens)
        clean = self.clean
        out["cleanAccuracy"] = (clean.argmax(1) == self.labels).double().mean().item()
        out["cleanLoss"] = F.cross_entropy(clean, self.labels).item()
        logits["clean"] = clean
        if config["action"] == "patch":
            bad_rows, bad_labels = zip(*(corrupt(r, self.cue, self.symbols, config["corrupt_shift"])
                                         for r in self.tokens.tolist()))
            bad, wrong = torch.tensor(bad_rows), torch.tensor(bad_labels)
            k, c, p = self.patch_pass(config, inputs, self.tokens, bad)
            rows = torch.arange(len(wrong))
            for name, l in (("clean", k), ("corrupted", c), ("patched", p)):
                out[name + "Difference"] = (l[rows, self.labels] - l[rows, wrong]).mean().item()
            out["restoredFraction"] = restored(out["cleanDifference"], out["corruptedDifference"],
                                               out["patchedDifference"])
            changed = p
            logits["patch passes"] = torch.cat([k, c, p])
        else:
            changed = self.forward(self.tokens, self.edits(config, inputs))
        out["accuracy"] = (changed.argmax(1) == self.labels).double().mean().item()
        out["loss"] = F.cross_entropy(changed, self.labels).item()
        logits["changed"] = changed
        self.cache[key] = out, logits
        return out, logits

    def run(self, case):
        """PyTorch's CueIntervention for one case, plus the logits it came from."""
        config, inputs = case["config"], case["inputs"]
        validation = self.validation(config, inputs)
        out, logits = dict(validation[0]), dict(validation[1])
        given = torch.tensor([inputs["tokens"]])
        if config["action"] == "patch":
            bad = torch.tensor([inputs["corrupted"]]) if inputs["corrupted"] else torch.tensor(
                [corrupt(inputs["tokens"], self.cue, self.symbols, config["corrupt_shift"])[0]])
            k, c, p = self.patch_pass(config, inputs, given, bad)
            good_answer, bad_answer = k.argmax(1).item(), c.argmax(1).item()
            out["sequenceRestoredFraction"] = 0.0 if good_answer == bad_answer else restored(
                *(l[0, good_answer].item() - l[0, bad_answer].item() for l in (k, c, p)))
            sequence, unchanged = p, c
            logits["sequence patch passes"] = torch.cat([k, c, p])
        else:
            sequence = self.forward(given, self.edits(config, inputs))
            unchanged = self.forward(given)
        logits["sequence"], logits["sequence unchanged"] = sequence, unchanged
        out["probabilities"] = torch.softmax(sequence[0], 0)
        out["unchangedProbabilities"] = torch.softmax(unchanged[0], 0)
        out["prediction"] = sequence.argmax(1).item()
        out["unchangedPrediction"] = unchanged.argmax(1).item()
        return out, logits


def restored(clean, corrupted, patched):
    return (patched - corrupted) / (clean - corrupted) if abs(clean - corrupted) > 1e-12 else 0.0


def near_ties(logits, tolerance):
    """Rows whose top two logits lie within `tolerance`."""
    top = logits.topk(2, dim=1).values
    return int(((top[:, 0] - top[:, 1]) <= tolerance).sum().item())


def compare(cpp, ours, logits):
    """Rows (what, |diff|, tolerance) for one case; a row fails when |diff| > tolerance."""
    scale = max(l.abs().max().item() for l in logits.values())  # L: the largest |logit|
    e = ATOL + RTOL * scale
    rows = []

    def close(what, a, b, tol):
        rows.append((what, abs(a - b), tol))

    def tensors(what, a, b):
        a = torch.tensor(a, dtype=torch.float64)
        if a.shape != b.shape:
            rows.append((what + " (shape)", math.inf, 0.0))
            return
        rows.append((what, (a - b).abs().max().item(), ATOL + RTOL * b.abs().max().item()))

    n = len(logits["changed"])
    for key in ("accuracy", "cleanAccuracy"):
        pass_logits = logits["changed" if key == "accuracy" else "clean"]
        ties = near_ties(pass_logits, 2 * e)
        # counts of correct answers: equal, or apart by at most the near ties
        rows.append((key + " (count)", abs(round(cpp[key] * n) - round(ours[key] * n)), ties))
    for key in ("loss", "cleanLoss"):
        close(key, cpp[key], ours[key], ATOL + RTOL * abs(ours[key]))
    if "restoredFraction" in ours:
        for key in ("cleanDifference", "corruptedDifference", "patchedDifference"):
            close(key, cpp[key], ours[key], e)
        k, c, r = ours["cleanDifference"], ours["corruptedDifference"], ours["restoredFraction"]
        close("restoredFraction", cpp["restoredFraction"], r,
              2 * e * (1 + abs(r)) / abs(k - c) if abs(k - c) > 1e-12 else e)
        seq = logits["sequence patch passes"]
        ks, cs = seq[0], seq[1]
        a, b = ks.argmax().item(), cs.argmax().item()
        r = ours["sequenceRestoredFraction"]
        d = abs((ks[a] - ks[b]) - (cs[a] - cs[b])).item()
        close("sequenceRestoredFraction", cpp["sequenceRestoredFraction"], r,
              2 * e * (1 + abs(r)) / d if a != b and d > 1e-12 else e)
    for key in ("probabilities", "unchangedProbabilities"):
        tensors(key, cpp[key], ours[key])
        rows.append(("log " + key,) + log_rows(cpp[key], ours[key]))
    for key, which in (("prediction", "sequence"), ("unchangedPrediction", "sequence unchanged")):
        ties = near_ties(logits[which], 2 * e)
        rows.append((key, 0 if cpp[key] == ours[key] else 1, ties))
    return rows


def log_rows(cpp, ours):
    """max |log p_C++ - log p_PyTorch| and its tolerance, ATOL + RTOL * max |log p_PyTorch|."""
    a = torch.tensor(cpp, dtype=torch.float64)
    if a.shape != ours.shape or (a <= 0).any():
        return math.inf, 0.0
    ours = ours.log()
    return (a.log() - ours).abs().max().item(), ATOL + RTOL * ours.abs().max().item()


def describe(config, inputs):
    c = config
    if c["action"] == "none":
        return "none"
    if c["action"] == "knock-out":
        what = "knock-out %s" % c["ablation"]
    elif c["action"] == "pattern":
        what = "pattern %s" % c["pattern"]
    else:
        positions = inputs["positions"]
        where = "at " + ",".join(map(str, positions)) if positions else "every position"
        what = "patch %s, shift %d%s" % (
            where, c["corrupt_shift"], ", given corrupted" if inputs["corrupted"] else "")
    return "B%d %s %s" % (c["block"], "block" if c["head"] == 0 else "H%d" % c["head"], what)


def main(program):
    state = json.loads(subprocess.run([program], check=True, stdout=subprocess.PIPE, text=True).stdout)
    torch.set_num_threads(1)
    check = Interventions(state)
    print("CueTrainer::intervene vs PyTorch %s (the model rebuilt from torch.nn parts, float64; the core "
          "runs float32). Tolerances: nn_check's float32 RTOL %g, ATOL %g (see this file's docstring)."
          % (torch.__version__, RTOL, ATOL))
    t = state["train"]
    print("Model: %d blocks of %d heads, seed %d, %d epochs (%.1f s), validation accuracy by epoch: %s"
          % (t["blocks"], t["heads"], t["seed"], t["epochs"], t["training_seconds"],
             " ".join("%.3f" % a for a in state["history"])))

    plain = check.forward.model(check.tokens)
    explicit = check.forward(check.tokens)
    gap = (plain - explicit).abs().max().item()
    failures = []
    print("Explicit attention vs nn.MultiheadAttention, validation logits: max |diff| %.2e" % gap)
    if not gap <= 1e-12 * max(1.0, plain.abs().max().item()):
        failures.append(("explicit forward", "-", "logits", "%.3e" % gap, "1e-12 of max |logit|"))

    header = "%-48s %4s %6s %6s %7s %7s %8s %8s  %-30s %s" % (
        "intervention", "seq", "acc", "clean", "pred", "C++", "restored", "p diff",
        "most of its tolerance used", "ok")
    print(header)
    print("-" * len(header))
    worst_overall, largest_diff = {}, {}
    changed_answers = changed_accuracy = 0
    given = state["given"]
    for index, case in enumerate(state["interventions"]):
        ours, logits = check.run(case)
        cpp = case["result"]
        rows = compare(cpp, ours, logits)
        bad = [r for r in rows if not r[1] <= r[2]]
        name = describe(case["config"], case["inputs"])
        failures += [(name, index) + r for r in bad]
        used = [(r[1] / r[2] if r[2] > 0 else (0.0 if r[1] == 0 else math.inf), r[0]) for r in rows]
        worst = max(used)
        for u, what in used:
            kind = what.split(" (")[0]
            worst_overall[kind] = max(worst_overall.get(kind, 0.0), u)
        for r in rows:
            largest_diff[r[0]] = max(largest_diff.get(r[0], 0), r[1])
        changed_answers += cpp["prediction"] != cpp["unchangedPrediction"]
        changed_accuracy += abs(cpp["accuracy"] - cpp["cleanAccuracy"]) > 0.05
        p_diff = next(r[1] for r in rows if r[0] == "probabilities")
        print("%-48s %4d %6.3f %6.3f %3d/%-3d %3d/%-3d %8s %8.1e  %-30s %s" % (
            name, given.index(case["inputs"]["tokens"]) if case["inputs"]["tokens"] in given else -1,
            cpp["accuracy"], cpp["cleanAccuracy"],
            ours["prediction"], ours["unchangedPrediction"],
            cpp["prediction"], cpp["unchangedPrediction"],
            "%.3f" % cpp["restoredFraction"] if case["config"]["action"] == "patch" else "-", p_diff,
            "%.1e %s" % worst, "yes" if not bad else "NO"))
    print("Columns: seq = given sequence (-1: the case's own); acc, clean = the core's validation "
          "accuracy with and without the intervention; pred = PyTorch's prediction/unchanged "
          "prediction, C++ = the core's; restored = the core's restored fraction; p diff = max "
          "|probability difference|.")
    print("Most of its tolerance used, over all cases: " +
          ", ".join("%s %.1e" % (k, v) for k, v in sorted(worst_overall.items())))
    print("Largest |C++ - PyTorch| over all cases (counts for accuracies and predictions): " +
          ", ".join("%s %.1e" % (k, v) for k, v in sorted(largest_diff.items())))
    print("%d cases; the intervention changed the given sequence's answer in %d and the validation "
          "accuracy by more than 0.05 in %d"
          % (len(state["interventions"]), changed_answers, changed_accuracy))
    if changed_answers == 0 or changed_accuracy == 0:
        failures.append(("every case", "-", "answers changed / accuracies moved",
                         "%d / %d" % (changed_answers, changed_accuracy), "at least 1 each"))
    for f in failures:
        print("FAILED %s (case %s) %s: |diff| %s > tolerance %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: intervene_check.py PATH/TO/intervene_state")
    sys.exit(main(sys.argv[1]))
