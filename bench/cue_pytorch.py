#!/usr/bin/python3
"""The PyTorch peer of `attention-lab cue`: the same tiny transformer, data recipe and training.

Run with Debian's python3 (python3-torch), one thread:
    /usr/bin/python3 bench/cue_pytorch.py --blocks 2 --epochs 30 --seed 3 [--last-query-only]
Prints one JSON object: per-epoch validation accuracy, best accuracy, parameters, seconds.

Same as the C++ engine: 10 tokens (9 body + query), 7 symbols + CUE + PAD, 2,000 training and
1,000 validation sequences, embedding 9x32 uniform(-0.05, 0.05) + fixed sinusoids, pre-LN
blocks (one head of 32 with biased Q/K/V/output projections, FFN 64 ReLU -> 32, LayerNorm eps
1e-6, dropout 0.1 on input, attention output and FFN output), Dense(9) on the last position,
Keras-style Glorot initialisation (attention kernels with Keras's fan rules), Adam lr 3e-3,
eps 1e-7, batch 32 reshuffled every epoch, validation after every epoch.
Different: the random streams (NumPy/torch generators, not attn::Random), so curves match in
kind, not number for number. By default the last block runs on every position, as one usually
writes it in PyTorch; --last-query-only computes only the final query row, like the C++ default.
"""
import argparse
import json
import math
import time

import numpy as np
import torch
from torch import nn


def make_set(rng, n, length=10, symbols=7):
    cue = symbols
    body = length - 1
    tokens = rng.integers(0, symbols, size=(n, length))
    at = rng.integers(0, body - 1, size=n)
    tokens[np.arange(n), at] = cue
    tokens[:, body] = cue
    labels = tokens[np.arange(n), at + 1]
    return torch.tensor(tokens, dtype=torch.long), torch.tensor(labels, dtype=torch.long)


def glorot_(weight, fan_in, fan_out):
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    with torch.no_grad():
        weight.uniform_(-limit, limit)


class Linear(nn.Module):
    """y = x W + b with W (in, out), as in the C++ core."""

    def __init__(self, n_in, n_out, fan_in=None, fan_out=None):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        self.bias = nn.Parameter(torch.zeros(n_out))
        glorot_(self.weight, fan_in or n_in, fan_out or n_out)

    def forward(self, x):
        return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).reshape(*x.shape[:-1], -1)


class Block(nn.Module):
    def __init__(self, d, heads, d_ff, dropout):
        super().__init__()
        k = d // heads
        self.heads, self.k = heads, k
        # Keras's fan rules for the (d, h, k) and (h, k, d) kernels.
        self.q, self.kp, self.v = (Linear(d, d, d * heads, d * k) for _ in range(3))
        self.o = Linear(d, d, heads * k, heads * d)
        self.norm1 = nn.LayerNorm(d, eps=1e-6)
        self.norm2 = nn.LayerNorm(d, eps=1e-6)
        self.up = Linear(d, d_ff)
        self.down = Linear(d_ff, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, last_only):
        b, t, d = x.shape
        h = self.norm1(x)
        xq = h[:, -1:, :] if last_only else h
        q = self.q(xq).view(b, -1, self.heads, self.k).transpose(1, 2)
        k = self.kp(h).view(b, t, self.heads, self.k).transpose(1, 2)
        v = self.v(h).view(b, t, self.heads, self.k).transpose(1, 2)
        w = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.k), dim=-1)
        context = (w @ v).transpose(1, 2).reshape(b, -1, d)
        x = (x[:, -1:, :] if last_only else x) + self.drop(self.o(context))
        return x + self.drop(self.down(torch.relu(self.up(self.norm2(x)))))


class TinyTransformer(nn.Module):
    def __init__(self, blocks, vocab=9, length=10, d=32, heads=1, d_ff=64, dropout=0.1, last_only=False):
        super().__init__()
        self.embedding = nn.Parameter(torch.empty(vocab, d).uniform_(-0.05, 0.05))
        pos = torch.arange(length, dtype=torch.float64)[:, None]
        col = torch.arange(d)
        angle = pos / torch.pow(10000.0, (col - col % 2).double() / d)
        pe = torch.where(col % 2 == 0, torch.sin(angle), torch.cos(angle)).float()
        self.register_buffer("positions", pe)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(Block(d, heads, d_ff, dropout) for _ in range(blocks))
        self.head = Linear(d, vocab)
        self.last_only = last_only

    def forward(self, tokens):
        x = self.drop(self.embedding[tokens] + self.positions)
        for i, block in enumerate(self.blocks):
            x = block(x, self.last_only and i == len(self.blocks) - 1)
        return self.head(x[:, -1, :])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--last-query-only", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    x_train, y_train = make_set(rng, 2000)
    x_val, y_val = make_set(rng, 1000)
    model = TinyTransformer(args.blocks, last_only=args.last_query_only)
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.999), eps=1e-7)
    loss_fn = nn.CrossEntropyLoss()
    curve = []
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(x_train))
        total = 0.0
        for begin in range(0, len(x_train), 32):
            idx = order[begin:begin + 32]
            loss = loss_fn(model(x_train[idx]), y_train[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            logits = model(x_val)
            val_loss = loss_fn(logits, y_val).item()
            val_acc = (logits.argmax(-1) == y_val).float().mean().item()
        curve.append({"epoch": epoch + 1, "trainLoss": total / len(x_train),
                      "validationLoss": val_loss, "validationAccuracy": val_acc})
    seconds = time.perf_counter() - start
    print(json.dumps({
        "peer": "pytorch " + torch.__version__, "threads": torch.get_num_threads(),
        "blocks": args.blocks, "seed": args.seed, "lastQueryOnly": args.last_query_only,
        "parameterCount": sum(p.numel() for p in model.parameters()),
        "bestValidationAccuracy": max(e["validationAccuracy"] for e in curve),
        "history": curve, "elapsedSeconds": seconds}))


if __name__ == "__main__":
    main()
