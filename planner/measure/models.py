"""The benchmark's two models in plain PyTorch, and their synthetic batches.

- :func:`resnet50`: ResNet-50 v1.5 (the stride on the 3×3 convolution, as torchvision's and
  NVIDIA's DeepLearningExamples' are), 25,557,032 parameters, on 224×224 images of 1,000
  classes.
- :func:`gpt`: a GPT-style decoder of BERT-large's size: 24 pre-norm blocks of width 1,024,
  16 heads, a 4,096-wide GELU feed-forward, causal attention through
  ``scaled_dot_product_attention``, learned positions for 384 tokens, and an output layer tied
  to the 30,522-word embedding.

PyTorch is imported when a model is built, never at import time.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GPT_SHAPE", "GptShape", "batch", "build", "gpt", "resnet50"]


@dataclass(frozen=True)
class GptShape:
    """The transformer's shape."""

    layers: int = 24
    width: int = 1024
    heads: int = 16
    feed_forward: int = 4096
    tokens: int = 384
    vocabulary: int = 30522


GPT_SHAPE = GptShape()


def resnet50(num_classes: int = 1000):
    """ResNet-50 v1.5 as one ``nn.Sequential``."""
    from torch import nn

    class Bottleneck(nn.Module):
        def __init__(self, channels_in: int, width: int, stride: int):
            super().__init__()
            out = width * 4
            self.body = nn.Sequential(
                nn.Conv2d(channels_in, width, 1, bias=False), nn.BatchNorm2d(width),
                nn.ReLU(inplace=True),
                nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width),
                nn.ReLU(inplace=True),
                nn.Conv2d(width, out, 1, bias=False), nn.BatchNorm2d(out))
            self.skip = (nn.Sequential(nn.Conv2d(channels_in, out, 1, stride, bias=False),
                                       nn.BatchNorm2d(out))
                         if stride != 1 or channels_in != out else nn.Identity())
            self.relu = nn.ReLU(inplace=True)

        def forward(self, x):
            return self.relu(self.body(x) + self.skip(x))

    layers: list = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64),
                    nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1)]
    channels = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(channels, width, stride if i == 0 else 1))
            channels = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels, num_classes)]
    return nn.Sequential(*layers)


def gpt(shape: GptShape = GPT_SHAPE):
    """The GPT-style decoder of ``shape``; called on token ids [batch, tokens] it gives the
    logits [batch, tokens, vocabulary]."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1 = nn.LayerNorm(shape.width)
            self.qkv = nn.Linear(shape.width, 3 * shape.width)
            self.proj = nn.Linear(shape.width, shape.width)
            self.norm2 = nn.LayerNorm(shape.width)
            self.up = nn.Linear(shape.width, shape.feed_forward)
            self.down = nn.Linear(shape.feed_forward, shape.width)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = (self.qkv(self.norm1(x)).view(b, t, 3, shape.heads, d // shape.heads)
                       .permute(2, 0, 3, 1, 4))
            attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
            return x + self.down(F.gelu(self.up(self.norm2(x))))

    class Gpt(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(shape.vocabulary, shape.width)
            self.position = nn.Parameter(torch.zeros(shape.tokens, shape.width))
            self.blocks = nn.Sequential(*(Block() for _ in range(shape.layers)))
            self.norm = nn.LayerNorm(shape.width)
            self.head = nn.Linear(shape.width, shape.vocabulary, bias=False)
            self.head.weight = self.embed.weight
            nn.init.normal_(self.position, std=0.02)

        def forward(self, ids):
            x = self.embed(ids) + self.position[: ids.shape[1]]
            return self.head(self.norm(self.blocks(x)))

    return Gpt()


def build(model: str, shape: GptShape = GPT_SHAPE):
    """The model named ``model`` (``resnet50`` or ``transformer``)."""
    return resnet50() if model == "resnet50" else gpt(shape)


def batch(model: str, size: int, device, shape: GptShape = GPT_SHAPE):
    """A synthetic batch of ``size`` samples on ``device``: (inputs, targets). Images are
    channels-last (what tensor cores want); token targets are the inputs shifted by one."""
    import torch

    generator = torch.Generator(device="cpu").manual_seed(0)
    if model == "resnet50":
        images = torch.randn(size, 3, 224, 224, generator=generator)
        labels = torch.randint(0, 1000, (size,), generator=generator)
        return (images.to(device).contiguous(memory_format=torch.channels_last),
                labels.to(device))
    ids = torch.randint(0, shape.vocabulary, (size, shape.tokens + 1), generator=generator)
    ids = ids.to(device)
    return ids[:, :-1].contiguous(), ids[:, 1:].contiguous()
