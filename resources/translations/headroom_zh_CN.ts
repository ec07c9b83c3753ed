<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CheckpointComparison</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n files</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Checkpoint %1: &lt;b&gt;%2&lt;/b&gt; parameters (tensors: %3; %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint minus config: %1 (%2%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A checkpoint can also hold buffers (attention masks, position ids), stores tied weights once, and may be one shard of several.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ControlPanel</name>
    <message>
        <source>GPU and model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type to search; grouped by vendor and segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type to search; grouped by family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch and sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-&amp;batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch per GPU (logarithmic, 1 to 4096)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per sample (logarithmic, 64 to 131072); image side for vision models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient &amp;accumulation steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision and optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;ttention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data parallelism</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;ZeRO stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Data-parallel GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs that ZeRO partitions over (logarithmic, 1 to 1024)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offload the optimizer to the &amp;host (ZeRO-Offload)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if overrides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacit&amp;y</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Band&amp;width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pea&amp;k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over&amp;head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context and library workspaces; the default comes from the GPU&apos;s generation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Examples</name>
    <message>
        <source>BERT-base in FP32: batch 32 does not fit 12 GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BERT-base with FP16 mixed precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BERT-base with activation checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>100M-parameter Transformer in FP32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>100M-parameter Transformer, mixed precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPT-2 XL on one 12 GB GPU: does not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPT-2 XL with ZeRO-3 over 4 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Explainer</name>
    <message>
        <source> (gradient)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Largest contributors, summed over layers, by the operator that created them:&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P × %1 B ÷ N = %2 × %1 ÷ %3 = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P × %1 B = %2 × %1 = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch.autocast keeps parameters in FP32 (PyTorch AMP documentation); DeepSpeed and Megatron keep 16-bit weights with an FP32 master copy; ZeRO-3 (P_p) shards them over N ranks (Rajbhandari et al. 2020, sec. 5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matmul weights × bytes of the copy = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>aten/src/ATen/autocast_mode.cpp: cached_cast keeps one low-precision copy of each leaf weight until the forward leaves the autocast region, and autograd keeps it until that layer&apos;s backward. Transformer Engine keeps FP8 copies and their transposes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, plus DistributedDataParallel&apos;s gradient buckets of the same size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-2 (P_os+g) shards gradients (Rajbhandari et al. 2020); Megatron and DeepSpeed keep FP32 gradient buffers (18 bytes per parameter with Adam), the ZeRO paper counts 16-bit gradients (16 bytes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4 (FP32 master) + 4 (m) + 4 (v) = 12 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 moments × %1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4 B (FP32 master)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4 (master) + 4 (momentum) B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 B (momentum)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 × 1 B + 2 × 4 B per 256 elements (tensors under 4096 elements keep 32-bit states)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4 B × (rows + columns) per matrix: factored second moments, no first moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per parameter: %1%2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, ÷ N = %1 (ZeRO-1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on the host (optimizer offload): 0 B on the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO paper sec. 3.1: K = 12 bytes per parameter for mixed-precision Adam; bitsandbytes Optimizer2State (min_8bit_size = 4096, block size 256); transformers Adafactor defaults.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensors autograd saves for backward, at the end of the forward pass: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;For comparison, the closed form for a standard GPT layer with 16-bit activations and 1-byte dropout masks (Korthikanti et al. 2022, Table 2): sbh(34 + 5as/h) × L = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each operator saves what torch/csrc/autograd/derivatives.yaml says it saves (Linear its input, GELU its input, softmax its output, dropout a 1-byte mask, LayerNorm its input and FP32 mean and rstd), in the dtype autocast gives it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>live at the peak: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Liveness of every tensor in the simulated step: outputs in flight, gradients of activations, the optimizer&apos;s foreach temporaries (torch.optim._multi_tensor_adam), gathered ZeRO-3 layers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context and workspaces %1 (+ allocator reserve %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a hardware figure: Headroom&apos;s default per GPU generation, editable under What-if overrides.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;%1, %2, summed over %3 kernels of every layer.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;intensity&lt;/b&gt; = FLOPs / bytes = %1 / %2 = %3 FLOP/byte&lt;br&gt;&lt;b&gt;attainable&lt;/b&gt; = min(π, β × I) = min(%4, %5 × %3) = %6&lt;br&gt;&lt;b&gt;time&lt;/b&gt; = Σ max(FLOPs / (η&lt;sub&gt;c&lt;/sub&gt; π), bytes / (η&lt;sub&gt;m&lt;/sub&gt; β), launch) = %7&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline: Williams, Waterman &amp; Patterson 2009. Efficiencies η: GEMMs 0.80 of the dense tensor peak (MAMF table, stas00/ml-engineering), FP8 0.70, attention 0.60 (FlashAttention-2), memory 0.85 (HBM) or 0.78 (GDDR); kernel launch 5 µs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;%1: %2, %3; %4 of memory bandwidth.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth (datasheet %1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What-if active:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export Figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG s&amp;cale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pixels per logical pixel: 2 gives a sharp figure on HiDPI screens and in print</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Colours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption stating the &amp;scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Large fonts and thick lines (slides)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>figure.svg, figure.png or figure.pdf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same figure from a script</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Figure</name>
    <message>
        <source>size %1×%2: width and height must be between 320×240 and 16384×16384</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scale %1: must be between 0.25 and 8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>size %1×%2 at scale %3: more than 400 megapixels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Faint bars, dash-dotted lines and hollow markers: the baseline, %1; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unknown figure type; use .png, .svg or .pdf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: could not encode the PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 TiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 PFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 TB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GpuEditor</name>
    <message>
        <source>GPU editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Based &amp;on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from a GPU in the list and change what differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lowercase letters, digits, &apos;-&apos; and &apos;.&apos;; also the file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Vendor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense peak per math unit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense peak; sparse figures are twice the dense ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF32 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsupported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP8 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vendor GB; Headroom reads it as GiB of DRAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory &amp;type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decimal GB/s, as datasheets give it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links and overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;PCIe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host link, bidirectional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU &amp;link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVLink or Infinity Fabric, bidirectional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework &amp;overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context and library workspaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No&amp;tes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a shared GPU file into the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write this GPU as a JSON file to share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete your saved GPU with this id</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Framework overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters as the model stores them: FP32 under autocast, 16-bit with a master copy, a 1/N shard under ZeRO-3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Low-precision copies of the weights: autocast&apos;s FP16/BF16 cache, FP8 weights and their transposes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameter gradients, a 1/N shard under ZeRO-2 and ZeRO-3, plus data-parallel gradient buckets.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 master weights and the optimizer&apos;s moments or momentum, a 1/N shard from ZeRO-1 on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors autograd saves in the forward pass for the backward pass, the loss&apos;s included.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs in flight, activation gradients, gathered ZeRO-3 layers, optimizer temporaries, the input batch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context, cuBLAS/cuDNN workspaces and caching-allocator slack.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GEMM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Elementwise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF32 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP8 tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 with TF32 matmuls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16 mixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16 mixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pure BF16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP8 mixed (Transformer Engine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch.autocast (FP32 weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DeepSpeed/Megatron (16-bit weights, FP32 master)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selective (attention core)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full (every block)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fused (FlashAttention / SDPA)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eager (scores saved)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adam</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>8-bit AdamW (bitsandbytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use fused attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recompute the attention core (selective checkpointing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint every block (full recomputation)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use 8-bit AdamW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to ZeRO stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offload the optimizer to the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch %1 with %2 accumulation steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GELU (exact)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GELU (tanh approximation)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GELU (tanh, written as tensor ops: gelu_new)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QuickGELU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SiLU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rotary (RoPE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Causal language model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Masked language model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classifier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no %2 peak: the matrix multiplications are timed on %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO partitions over data-parallel GPUs; with one GPU it saves no memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP8 training needs FP8 tensor cores (compute capability 8.9 or later)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Headroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Scenario As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+S</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Report (PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Breakdown (CSV)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Result (&amp;JSON)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import Model (config.json)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New or Edit &amp;Model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New or Edit &amp;GPU…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with a &amp;Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin the current scenario; the charts then show it beside every change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare &amp;GPUs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guided &amp;Tour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to the &amp;Default Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F11</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Explain Panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Headroom</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelEditor</name>
    <message>
        <source>Model editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Based &amp;on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from a model in the list and change what differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lowercase letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;; also the file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Na&amp;me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hidden size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention h&amp;eads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;KV heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads: equal to the heads for multi-head attention, fewer for grouped-query attention, 1 for multi-query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head &amp;dim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channels per head; auto is hidden / heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;FFN size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Gated FFN (SwiGLU / GeGLU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>act(gate(x)) * up(x): three FFN matrices instead of two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Max positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows of the learned position table; the longest sequence with learned positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default &amp;sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length the window starts with for this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Activation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Output head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs of a classifier head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tied embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The output projection reuses the token embedding matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dr&amp;opout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On embeddings, attention probabilities and residual branches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with &amp;checkpoint...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the header of .safetensors files (never the weights) and compare their parameter count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a Hugging Face config.json (or its checkpoint directory) or a Headroom model file into the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write this model as a JSON file to share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete your saved model with this id</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PdfReport</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in the %1 of %2 (%3). Longest %4 that fits at this micro-batch: %5%6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the model&apos;s limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (saves %2%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What would help:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steady</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward and backward × %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host offload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model FLOPs per step and GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory model: a simulation of the PyTorch eager training step (saved tensors, autocast casts, allocator lifetimes); checked byte for byte against torch.cuda.max_memory_allocated-style measurements (docs/formulas.md).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom %1 report, %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Headroom: GPU memory and bandwidth of a training step. Run `headroom --help` for the headless commands.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a scenario file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour scheme: system (default), light or dark.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start in presentation mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render the window to a PNG file and quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window size, e.g. 1280x720.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WxH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User interface language: en or zh_CN (default: the system&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some data files were skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignored the saved scenario: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScenarioText</name>
    <message>
        <source>%1 on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image %1×%1 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 data-parallel GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer offloaded to the host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no activation checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checkpointing: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 accumulation steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bandwidth %1 (datasheet %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 peak %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits: peak %1 of %2, %3 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit: peak %1 of %2, %3 over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · largest micro-batch %2 · step %3 · %4 · MFU %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserData</name>
    <message>
        <source>%1: cannot write (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot save (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot create the directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot delete (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2: must be a finite number, got %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save writes %1.json into your data directory (%2), where Headroom finds it at every start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save replaces your saved GPU in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundled GPU has the id “%1”: yours will take its place in the GPU list. The bundled file is not changed; delete yours to get it back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save replaces your saved model in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundled model has the id “%1”: yours will take its place in the model list. The bundled file is not changed; delete yours to get it back.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::BaselineTable</name>
    <message>
        <source>&lt;b&gt;Baseline:&lt;/b&gt; %1&lt;br&gt;%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free (negative: over)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MFU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>better than the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>worse than the baseline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::BatchSweepView</name>
    <message>
        <source>Memory at the peak against micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest that fits: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing fits</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::ControlPanel</name>
    <message>
        <source>Language models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Image size (pixels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sequence length (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if overrides (active)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if overrides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if set in the window</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::ExportDialog</name>
    <message>
        <source>All four charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory at the peak of each phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory against micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory over one training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light (for print)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file name must end in .svg, .png or .pdf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write to the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a script: &lt;code&gt;%1&lt;/code&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG (*.svg);;PNG (*.png);;PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonChart</name>
    <message>
        <source>Time per epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory against capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2, does not fit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonModel</name>
    <message>
        <source>Device memory the framework can use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory of one training step at the scenario&apos;s micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest micro-batch that fits on this GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One optimizer step: every accumulated micro-batch, the update and exposed communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer steps per epoch (the last, partial one counted in full) times the step time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak at batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max. batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✔ Yes, %1 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✘ No, %1 over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, %3 at %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 the framework can use (the driver-reported total where known)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits: peak %1 of %2 at micro-batch %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit: peak %1 of %2 at micro-batch %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest micro-batch whose peak fits in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Even one sample does not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit at micro-batch %1; if the memory were there, a step would take %2 and an epoch %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 optimizer steps of %2 samples; %3 per step, %4 (MFU %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>samples</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonView</name>
    <message>
        <source>&amp;GPUs to compare:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Default selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The explainer&apos;s RTX A3000 laptop GPU, RTX 3090, A100 and H100, and the current GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data &amp;set size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples in one epoch: sequences for language models, images for vision models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a GPU to make it the current one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model %1 is not in the catalog.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No scenario yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 %3, %4: micro-batch %5 × %6 accumulation steps × %7 data-parallel GPUs = %8 samples per optimizer step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each GPU at its datasheet figures and its own framework overhead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current scenario&apos;s what-if figures are not applied here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuEditorDialog</name>
    <message>
        <source>Import a GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom GPU files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom GPU files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the saved GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete your saved GPU “%1”? If it took the place of a bundled GPU, the bundled one comes back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use 1 to 64 lowercase letters, digits, &apos;-&apos; or &apos;.&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least 0.1 GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least 1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every GPU has an FP32 peak; enter it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least 0.1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be smaller than the memory capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::MainWindow</name>
    <message>
        <source>About Headroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Headroom %1&lt;/h3&gt;&lt;p&gt;Explores the GPU memory and bandwidth of one neural-network training step: where the memory goes, whether it fits, and where each operator sits on the roofline.&lt;/p&gt;&lt;p&gt;Every figure comes from a simulation of the PyTorch training step; click any chart element for its formula and source.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown GPU or model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 — Headroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the figure to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: gpu: unknown GPU &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: model: unknown model &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom scenarios (*.headroom.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom scenarios (*.headroom.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Baseline Comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model files (config.json *.json *.safetensors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pinned this scenario as the baseline: change anything to compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the dropped file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System Default</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::MemoryChartView</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at the %2 peak: %3&lt;br&gt;%4&lt;br&gt;&lt;i&gt;Click for the formula and its source.&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory at the peak of each phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>faint: baseline (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fits: %1 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not fit: %1 over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (what-if)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::ModelEditorDialog</name>
    <message>
        <source>Import a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model files (config.json *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with a checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>safetensors files (*.safetensors);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headroom model files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the saved model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete your saved model “%1”? If it took the place of a bundled model, the bundled one comes back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot delete the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be between 1 and %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use 1 to 64 lowercase letters, digits, &apos;-&apos;, &apos;_&apos; or &apos;.&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must divide the hidden size (%1) unless a head dim is set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must divide the attention heads (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learned positions need at least one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is longer than the %1 learned positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a classifier head needs at least one class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Config-based count: correct the fields listed below first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Config-based count: &lt;b&gt;%1&lt;/b&gt; parameters (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Published for %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 is a vision model; the editor makes language transformers. Pick it in the model list as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::RooflineView</name>
    <message>
        <source>&lt;b&gt;Whole training step&lt;/b&gt;&lt;br&gt;%1 per step, %2 moved&lt;br&gt;intensity %3 FLOP/byte&lt;br&gt;achieved %4 in %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline of the training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (what-if)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ridge %1 FLOP/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (what-if)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;br&gt;%4 FLOP, %5 moved, intensity %6 FLOP/byte&lt;br&gt;attainable %7, achieved %8&lt;br&gt;%9 of the step (%10), %11</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::ScenarioHistory</name>
    <message>
        <source>micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>data-parallel GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mixed-precision style</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what-if figures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>framework overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suggested change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tour step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>change</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::TimelineView</name>
    <message>
        <source>Memory over one training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time within the step (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time within the step (%, of %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak in the %1 of %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>headroom::gui::VerdictWidget</name>
    <message>
        <source>✔ Fits: %1 of %2 used, %3 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✘ Does not fit: needs %1 of %2, %3 over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak in the %1 of %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>longest %1: …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>longest %1 that fits: %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (model limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · largest micro-batch that fits: &lt;b&gt;%2&lt;/b&gt; · %3&lt;br&gt;Step %4 · %5 · MFU %6 of %7 · %8 parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for changes that would make it fit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No single change makes it fit; a GPU with more memory or more data-parallel GPUs with ZeRO would.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;a href=&quot;fix:%1&quot;&gt;%2&lt;/a&gt;: saves %3%4, %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, not enough alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What would help: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
