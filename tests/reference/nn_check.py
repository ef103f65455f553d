#!/usr/bin/python3
"""The framework test of core/nn: the tiny transformer rebuilt in PyTorch from torch.nn parts.

Runs tests/reference/nn_state.cpp's program (the path is the one argument), which writes per
case the model's config, its initial weights, one batch and, for float and double, the logits,
the loss and every parameter's gradient (dropout off). Here the same model is written again
with nn.Embedding, nn.MultiheadAttention, nn.LayerNorm, nn.Linear, nn.ReLU and F.cross_entropy,
in float64, with the sinusoidal positions computed here; it loads the C++ initial weights and
must reproduce the C++ logits, loss and gradients of every parameter.

What a match shows: the positional encoding, where the LayerNorms sit (pre-LN or post-LN), the
attention (heads, scale, the last-row shortcut of the last block), the FFN, the read-out from
the last position and the loss agree with PyTorch's own layers, forward and backward.

Tolerance, per tensor (logits, loss, each gradient), named in TOLERANCES: max |C++ - PyTorch|
must be at most ATOL + RTOL * max |PyTorch|. The float32 run carries float rounding through up
to two blocks: observed up to 1.2e-6 of the tensor's largest entry, RTOL 1e-5. The float64 run
differs from PyTorch's float64 by rounding and by the float32-rounded 1/sqrt(key width) that the
core uses in both precisions: observed up to 1.7e-8 at key width 32 (the rounding of 1/sqrt(32)
is 1.7e-8 relative), 2e-15 at key width 16 where 1/4 is exact; RTOL 1e-7. ATOL covers gradients
that are zero in exact arithmetic (softmax ignores the key bias, so its gradient is rounding
noise). Every run is deterministic (fixed-order kernels in the core, one thread in PyTorch).

Run by ctest (tests/reference/CMakeLists.txt), which reports it as skipped where CMake found no
PyTorch; exits 1 when any tensor is out of tolerance.
"""
import json
import math
import subprocess
import sys

import torch
import torch.nn.functional as F
from torch import nn

TOLERANCES = {  # precision of the C++ run -> (RTOL, ATOL)
    "float32": (1e-5, 1e-8),
    "float64": (1e-7, 1e-12),
}


def sinusoidal_positions(length, d):
    """(length, d): column 2i holds sin(t / 10000^(2i/d)), column 2i+1 the matching cos."""
    t = torch.arange(length, dtype=torch.float64)[:, None]
    frequencies = 10000.0 ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = t / frequencies
    table = torch.zeros(length, d, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)[:, : d // 2]
    return table


class Block(nn.Module):
    """Pre-LN: x + MHA(LN(x)), then + FFN(LN(.)). Post-LN: LN(x + MHA(x)), then LN(. + FFN(.))."""

    def __init__(self, c):
        super().__init__()
        d = c["d_model"]
        self.post_layer_norm = c["post_layer_norm"]
        self.attention = nn.MultiheadAttention(d, c["heads"], batch_first=True)
        self.norm1 = nn.LayerNorm(d, eps=c["layer_norm_epsilon"])
        self.ffn = nn.Sequential(nn.Linear(d, c["d_ff"]), nn.ReLU(), nn.Linear(c["d_ff"], d))
        self.norm2 = nn.LayerNorm(d, eps=c["layer_norm_epsilon"])

    def attend(self, x):
        return self.attention(x, x, x, need_weights=False)[0]

    def forward(self, x):
        if self.post_layer_norm:
            x = self.norm1(x + self.attend(x))
            return self.norm2(x + self.ffn(x))
        x = x + self.attend(self.norm1(x))
        return x + self.ffn(self.norm2(x))


class CueTransformer(nn.Module):
    """tokens (B, T) -> logits (B, C), read from the last position. Every block runs on every
    row: the C++ last-row shortcut must give the same numbers."""

    def __init__(self, c):
        super().__init__()
        self.embedding = nn.Embedding(c["vocabulary"], c["d_model"])
        self.register_buffer("positions", sinusoidal_positions(c["length"], c["d_model"]))
        self.blocks = nn.ModuleList(Block(c) for _ in range(c["blocks"]))
        self.head = nn.Linear(c["d_model"], c["classes"])

    def forward(self, tokens):
        x = self.embedding(tokens) + self.positions
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, -1])


def cpp_layout(model, name, of):
    """The PyTorch tensor (a view) behind the C++ parameter `name`, in the C++ layout: the
    core's Linear computes x W + b with W (in, out), PyTorch's x W^T + b with W (out, in), and
    nn.MultiheadAttention packs the query, key and value projections in one in_proj.
    `of` picks the parameter itself or its gradient."""
    def linear(layer, field):
        return of(layer.weight).T if field == "weight" else of(layer.bias)[None]

    parts = name.split(".")
    if name == "embedding.table":
        return of(model.embedding.weight)
    if parts[0] == "head":
        return linear(model.head, parts[1])
    block = model.blocks[int(parts[0][len("block"):]) - 1]
    if parts[1] == "attention":
        mha = block.attention
        if parts[2] == "output":
            return linear(mha.out_proj, parts[3])
        index = ["query", "key", "value"].index(parts[2])
        rows = slice(index * mha.embed_dim, (index + 1) * mha.embed_dim)
        if parts[3] == "weight":
            return of(mha.in_proj_weight)[rows].T
        return of(mha.in_proj_bias)[rows][None]
    if parts[1] in ("norm1", "norm2"):
        norm = getattr(block, parts[1])
        return of(norm.weight)[None] if parts[2] == "gamma" else of(norm.bias)[None]
    if parts[1] == "ffn":
        return linear(block.ffn[0] if parts[2] == "up" else block.ffn[2], parts[3])
    raise KeyError("no PyTorch parameter for C++ parameter " + name)


def reference(case):
    """PyTorch's logits, loss and gradients (C++ layout) from the case's initial weights."""
    c = case["config"]
    if c["heads"] * c["key_dim"] != c["d_model"]:
        raise ValueError("nn.MultiheadAttention needs heads * key_dim = d_model")
    model = CueTransformer(c).double()
    loaded = 0
    with torch.no_grad():
        for p in case["parameters"]:
            target = cpp_layout(model, p["name"], lambda t: t)
            target.copy_(torch.tensor(p["initial"], dtype=torch.float64).reshape(p["shape"]))
            loaded += target.numel()
    total = sum(p.numel() for p in model.parameters())
    if loaded != total:
        raise ValueError("C++ weights cover %d of PyTorch's %d parameters" % (loaded, total))
    model.eval()  # no dropout anywhere
    tokens = torch.tensor(case["tokens"]).reshape(case["batch"], c["length"])
    logits = model(tokens)
    loss = F.cross_entropy(logits, torch.tensor(case["labels"]))
    loss.backward()
    gradients = {p["name"]: cpp_layout(model, p["name"], lambda t: t.grad).reshape(-1)
                 for p in case["parameters"]}
    return logits.detach().reshape(-1), loss.detach().reshape(1), gradients


def compare(run, expected, precision):
    """Per tensor: (name, max |diff|, max |PyTorch|, within tolerance)."""
    rtol, atol = TOLERANCES[precision]
    logits, loss, gradients = expected
    pairs = [("logits", run["logits"], logits), ("loss", [run["loss"]], loss)]
    pairs += [("grad " + name, run["gradients"][name], g) for name, g in gradients.items()]
    rows = []
    for name, cpp, torch_values in pairs:
        cpp = torch.tensor(cpp, dtype=torch.float64)
        scale = torch_values.abs().max().item()
        if cpp.shape != torch_values.shape:
            rows.append((name, math.inf, scale, False))
            continue
        diff = (cpp - torch_values).abs().max().item()
        rows.append((name, diff, scale, diff <= atol + rtol * scale))  # NaN fails
    return rows


def main(program):
    state = json.loads(subprocess.run([program], check=True, stdout=subprocess.PIPE, text=True).stdout)
    torch.set_num_threads(1)
    print("core/nn vs PyTorch %s (torch.nn layers, float64). Per tensor: max |C++ - PyTorch| <= "
          "ATOL + RTOL * max |PyTorch|, float32 run: RTOL %g, ATOL %g; float64 run: RTOL %g, ATOL %g"
          % ((torch.__version__,) + TOLERANCES["float32"] + TOLERANCES["float64"]))
    header = "%-42s %-8s %9s %9s %9s  %-38s %s" % (
        "case", "C++ run", "logits", "loss", "grads", "most of its tolerance used", "ok")
    print("Columns logits, loss, grads: max |C++ - PyTorch|, grads over every parameter's gradient.")
    print(header)
    print("-" * len(header))
    failures = []
    for case in state["cases"]:
        expected = reference(case)
        for precision in ("float32", "float64"):
            rows = compare(case["runs"][precision], expected, precision)
            rtol, atol = TOLERANCES[precision]
            grads = [r for r in rows if r[0].startswith("grad ")]
            worst = max(rows, key=lambda r: r[1] / (atol + rtol * r[2]))
            bad = [r for r in rows if not r[3]]
            failures += [(case["name"], precision) + r for r in bad]
            print("%-42s %-8s %9.2e %9.2e %9.2e  %-38s %s" % (
                case["name"], precision, rows[0][1], rows[1][1], max(r[1] for r in grads),
                "%.1e %s" % (worst[1] / (atol + rtol * worst[2]), worst[0]), "yes" if not bad else "NO"))
    parameters = sum(len(c["parameters"]) for c in state["cases"])
    print("%d cases, %d parameter tensors in all, each compared in both precisions"
          % (len(state["cases"]), parameters))
    for case, precision, name, diff, scale, _ in failures:
        print("FAILED %s (%s) %s: max |diff| %.3e, max |PyTorch| %.3e" % (case, precision, name, diff, scale))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: nn_check.py PATH/TO/nn_state")
    sys.exit(main(sys.argv[1]))
