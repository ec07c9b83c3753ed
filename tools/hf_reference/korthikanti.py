"""A "standard GPT layer" as assumed by Korthikanti et al. 2022 ("Reducing Activation Recomputation
in Large Transformer Models"), Table 2 / Eq. (1): activations per layer = s*b*h*(34 + 5*a*s/h) bytes
with 16-bit activations and 1-byte dropout masks, no parallelism, no recomputation.

Layer: pre-LayerNorm -> fused QKV linear -> eager attention (Q K^T, scale, causal masked_fill,
softmax in 16-bit, dropout on probs, matmul with V) -> output projection -> dropout -> residual ->
LayerNorm -> fc1 -> F.gelu (exact, fused) -> fc2 -> dropout -> residual. Layout [b, s, h].
"""

from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class KConfig:
    hidden_size: int = 256
    num_heads: int = 8
    num_layers: int = 1
    max_seq: int = 2048
    p: float = 0.1


class KGPTLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, a = cfg.hidden_size, cfg.num_heads
        self.a, self.d = a, h // a
        self.ln1 = nn.LayerNorm(h)
        self.qkv = nn.Linear(h, 3 * h)
        self.attn_drop = nn.Dropout(cfg.p)
        self.proj = nn.Linear(h, h)
        self.drop1 = nn.Dropout(cfg.p)
        self.ln2 = nn.LayerNorm(h)
        self.fc1 = nn.Linear(h, 4 * h)
        self.fc2 = nn.Linear(4 * h, h)
        self.drop2 = nn.Dropout(cfg.p)

    def forward(self, x, causal_mask):
        b, s, h = x.shape
        y = self.ln1(x)
        qkv = self.qkv(y).view(b, s, 3, self.a, self.d).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = torch.matmul(q, k.transpose(-1, -2)) * (self.d ** -0.5)
        scores = scores.masked_fill(causal_mask[:s, :s], torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1)
        probs = self.attn_drop(probs)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous().view(b, s, h)
        x = x + self.drop1(self.proj(ctx))
        z = self.fc2(nn.functional.gelu(self.fc1(self.ln2(x))))
        return x + self.drop2(z)


class KGPT(nn.Module):
    """Stack of layers fed by a trainable input projection (so the layer input requires grad)."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.register_buffer("causal_mask", torch.ones(cfg.max_seq, cfg.max_seq, dtype=torch.bool).triu(1),
                             persistent=False)
        self.layers = nn.ModuleList([KGPTLayer(cfg) for _ in range(cfg.num_layers)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x, self.causal_mask)
        return x.float().sum()


def build(cfg):
    torch.manual_seed(0)
    return KGPT(cfg)
