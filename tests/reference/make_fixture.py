#!/usr/bin/python3
"""Writes the PyTorch reference fixture that the native and WebAssembly tests check against.

Run with Debian's python3 (python3-torch, python3-numpy). Every case builds a real
torch.nn.MultiheadAttention (or, for kind "attention", the plain formula in torch) with seeded
random weights and inputs, and records inputs, weights, outputs and per-head attention weights.

Format: one JSON document, read by cli/reference_check.cpp (C++) and tests/wasm/helpers.mjs
(node):
  {"written_by": ..., "torch": VERSION,
   "cases": [{"name": NAME, "kind": "multihead" | "attention", "params": {NAME: INT},
              "tensors": {NAME: {"dims": [D0, ..], "values": [V0, ..]}}}]}
Values are in C order, each float32 written as the double it equals (exact). Masks are tensors
of 0/1 with 1 = may attend (the project's convention; PyTorch's boolean masks mean the
opposite, and are converted here).
"""
import json
import sys

import torch

D_MODEL = 64


def tensor_record(t):
    t = t.detach().to(torch.float32).contiguous()
    return {"dims": list(t.shape), "values": t.reshape(-1).tolist()}


def multihead_case(out, name, heads, batch, n_q, n_k, causal=False, real_lens=None):
    mha = torch.nn.MultiheadAttention(D_MODEL, heads, batch_first=True)
    with torch.no_grad():  # non-zero biases so the test covers them
        mha.in_proj_bias.uniform_(-0.5, 0.5)
        mha.out_proj.bias.uniform_(-0.5, 0.5)
    query = torch.randn(batch, n_q, D_MODEL)
    key = torch.randn(batch, n_k, D_MODEL) if n_k != n_q else query
    value = torch.randn(batch, n_k, D_MODEL) if n_k != n_q else query
    attn_mask = None
    if causal:  # PyTorch: True = blocked
        attn_mask = torch.ones(n_q, n_k, dtype=torch.bool).triu(1)
    key_padding_mask = None
    if real_lens is not None:
        key_padding_mask = torch.arange(n_k)[None, :] >= torch.tensor(real_lens)[:, None]
    output, weights = mha(query, key, value, attn_mask=attn_mask,
                          key_padding_mask=key_padding_mask, need_weights=True,
                          average_attn_weights=False)
    allowed = torch.ones(batch, n_q, n_k, dtype=torch.bool)
    if attn_mask is not None:
        allowed &= ~attn_mask[None]
    if key_padding_mask is not None:
        allowed &= ~key_padding_mask[:, None, :]
    tensors = {"query": query, "key": key, "value": value, "mask": allowed.float(),
               "in_proj_weight": mha.in_proj_weight, "in_proj_bias": mha.in_proj_bias,
               "out_proj_weight": mha.out_proj.weight, "out_proj_bias": mha.out_proj.bias,
               "output": output, "weights": weights}
    out.append({"name": name, "kind": "multihead", "params": {"num_heads": heads},
                "tensors": {k: tensor_record(t) for k, t in tensors.items()}})


def attention_case(out, name, n_q, n_k, d_k, d_v, causal):
    query, key, value = torch.randn(n_q, d_k), torch.randn(n_k, d_k), torch.randn(n_k, d_v)
    allowed = torch.ones(n_q, n_k, dtype=torch.bool)
    if causal:
        allowed = allowed.tril()
    scores = (query @ key.T) / d_k ** 0.5
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    tensors = {"query": query[None], "key": key[None], "value": value[None],
               "mask": allowed.float()[None], "output": (weights @ value)[None],
               "weights": weights[None, None]}
    out.append({"name": name, "kind": "attention", "params": {},
                "tensors": {k: tensor_record(t) for k, t in tensors.items()}})


def main(path):
    torch.manual_seed(20261129)
    torch.set_num_threads(1)
    out = []
    attention_case(out, "attention_causal_9x9", 9, 9, 16, 5, causal=True)
    multihead_case(out, "self_10x64_4heads", 4, 1, 10, 10)
    multihead_case(out, "self_10x64_1head", 1, 1, 10, 10)
    multihead_case(out, "cross_7x12_4heads", 4, 1, 7, 12)
    multihead_case(out, "causal_10x64_4heads", 4, 1, 10, 10, causal=True)
    multihead_case(out, "key_padding_6of10", 4, 1, 10, 10, real_lens=[6])
    multihead_case(out, "batch3_padding_10_7_4", 4, 3, 10, 10, real_lens=[10, 7, 4])
    with open(path, "w") as f:
        json.dump({"written_by": "tests/reference/make_fixture.py", "torch": torch.__version__,
                   "cases": out}, f)
        f.write("\n")
    print("wrote %d cases to %s" % (len(out), path))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_fixture.py OUTPUT")
    main(sys.argv[1])
