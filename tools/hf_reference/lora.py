"""PEFT's LoRA (and layer freezing) applied to the reference models, transcribed from peft @ 5d602fd
(src/peft/tuners/lora/layer.py Linear.forward and update_layer; tuners_utils.py _cast_input_dtype;
cast_adapter_dtype with get_peft_model's autocast_adapter_dtype=True).

What matters for memory, and is kept exactly:
* every base parameter is frozen (requires_grad=False); only lora_A / lora_B train;
* adapters are created as nn.Linear, moved to the base weight's dtype, then 16-bit adapters are upcast to FP32
  (autocast_adapter_dtype=True), so they are FP32 on an FP32 or a BF16 model;
* forward: result = base_layer(x); x = x.to(lora_A.weight.dtype) when the dtypes differ;
  result = result + lora_B(lora_A(dropout(x))) * scaling; result = result.to(torch_result_dtype);
* lora_dropout is nn.Dropout(p) when p > 0, else nn.Identity();
* target_modules matches a module whose name equals the target or ends with "." + target;
  "all-linear" is every nn.Linear except the output layer (lm_head / cls.predictions.decoder).
"""

import math

import torch
from torch import nn

SOURCE = {"peft/tuners/lora/layer.py": "5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40"}


class LoraLinear(nn.Module):
    def __init__(self, base, r, alpha, dropout):
        super().__init__()
        self.base_layer = base
        self.lora_dropout = nn.Dropout(p=dropout) if dropout > 0.0 else nn.Identity()
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        self.scaling = alpha / r
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        dtype = base.weight.dtype
        self.lora_A.to(dtype)
        self.lora_B.to(dtype)
        if dtype in (torch.float16, torch.bfloat16):  # autocast_adapter_dtype=True
            self.lora_A.to(torch.float32)
            self.lora_B.to(torch.float32)

    def forward(self, x):
        result = self.base_layer(x)
        torch_result_dtype = result.dtype
        if x.dtype != self.lora_A.weight.dtype:
            x = x.to(dtype=self.lora_A.weight.dtype)
        result = result + self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling
        result = result.to(torch_result_dtype)
        return result


def _set(model, name, module):
    parent, _, child = name.rpartition(".")
    setattr(model.get_submodule(parent) if parent else model, child, module)


def apply_lora(model, targets, r=8, alpha=8, dropout=0.0,
               output_layers=("lm_head", "cls.predictions.decoder", "classifier")):
    for p in model.parameters():
        p.requires_grad_(False)
    chosen = []
    for name, mod in list(model.named_modules()):
        if not isinstance(mod, nn.Linear) or name in output_layers:
            continue
        if targets == "all-linear" or any(name == t or name.endswith("." + t) for t in targets):
            chosen.append(name)
    for name in chosen:
        _set(model, name, LoraLinear(model.get_submodule(name), r, alpha, dropout))
    return chosen


def modules_to_save(model, names):
    """PEFT's modules_to_save (task_type SEQ_CLS adds "classifier" and "score"): a trainable copy of the module
    replaces it in forward (ModulesToSaveWrapper); the original stays, frozen."""
    for name in names:
        original = model.get_submodule(name)
        copy = type(original)(original.in_features, original.out_features, bias=original.bias is not None)
        copy.load_state_dict(original.state_dict())
        copy.to(original.weight.dtype)
        _set(model, name, _ModulesToSave(original, copy))


class _ModulesToSave(nn.Module):
    def __init__(self, original, copy):
        super().__init__()
        self.original_module = original
        self.modules_to_save = copy

    def forward(self, x):
        return self.modules_to_save(x)


def freeze_all_but_head(model, trainable_prefixes):
    """Layer freezing: requires_grad=False on everything but the named modules (the head)."""
    for name, p in model.named_parameters():
        p.requires_grad_(any(name.startswith(t) for t in trainable_prefixes))


def trainable_parameters(model):
    """peft.PeftModel.get_nb_trainable_parameters()[0]: numel of parameters that require grad."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
