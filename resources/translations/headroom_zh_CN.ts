<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AllocatorGroup</name>
    <message>
        <source>PyTorch allocator</source>
        <translation>PyTorch 分配器</translation>
    </message>
    <message>
        <source>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: each pool is one segment that grows, so torch.cuda.max_memory_reserved is the high-water mark of what is allocated instead of a sum of fixed segments that fragments.</source>
        <translation>PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True：每个内存池是一个可增长的段，因此 torch.cuda.max_memory_reserved 等于已分配内存的最高水位，而不是会产生碎片的固定段之和。</translation>
    </message>
    <message>
        <source>Expandable segments</source>
        <translation>可扩展段（expandable segments）</translation>
    </message>
    <message>
        <source>cuDNN workspace</source>
        <translation>cuDNN 工作区</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>The workspace cuDNN takes from the caching allocator for each convolution call while it runs (torch&apos;s aten/src/ATen/native/cudnn/Conv_v8.cpp); its size depends on the engine cuDNN&apos;s heuristics pick (torch.backends.cudnn.benchmark = False). 0: the implicit-GEMM engines, which need none or a few KiB.</source>
        <translation>每次卷积调用运行期间 cuDNN 从缓存分配器取用的工作区（torch 的 aten/src/ATen/native/cudnn/Conv_v8.cpp）；其大小取决于 cuDNN 启发式选择的引擎（torch.backends.cudnn.benchmark = False）。0：隐式 GEMM 引擎，不需要或只需几 KiB。</translation>
    </message>
</context>
<context>
    <name>BatchGroup</name>
    <message>
        <source>Batch and sequence</source>
        <translation>批次与序列</translation>
    </message>
    <message>
        <source>Micro-&amp;batch</source>
        <translation>微批次(&amp;B)</translation>
    </message>
    <message>
        <source>Micro-batch per GPU, 1 to 4096: one by one near the handle, faster further away, so that a short drag finds the largest batch that fits (the arrow keys step by one). The batch of each forward, DataLoader(batch_size=...) or HF TrainingArguments(per_device_train_batch_size=...).</source>
        <translation>每张 GPU 的微批次，1 到 4096：滑块附近逐一变化，离得越远变化越快，短短一拖就能找到放得下的最大批次（方向键每次加减一）。每次前向的批大小，即 DataLoader(batch_size=...) 或 HF TrainingArguments(per_device_train_batch_size=...)。</translation>
    </message>
    <message>
        <source>Micro-batch per GPU: DataLoader(batch_size=...) on each rank, HF TrainingArguments(per_device_train_batch_size=...), DeepSpeed train_micro_batch_size_per_gpu.</source>
        <translation>每张 GPU 的微批次：每个进程上的 DataLoader(batch_size=...)、HF TrainingArguments(per_device_train_batch_size=...)、DeepSpeed 的 train_micro_batch_size_per_gpu。</translation>
    </message>
    <message>
        <source>&amp;Sequence length</source>
        <translation>序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>Tokens per sample (logarithmic, 64 to 131072), the tokenizer&apos;s max_length; for vision models the image side, the torchvision transform&apos;s crop size.</source>
        <translation>每个样本的词元数（对数刻度，64 到 131072），即分词器的 max_length；视觉模型为图像边长，即 torchvision 变换的裁剪尺寸。</translation>
    </message>
    <message>
        <source>Tokens per sample, the tokenizer&apos;s max_length (tokenizer(..., max_length=N, padding=&quot;max_length&quot;)); for vision models the image side in pixels.</source>
        <translation>每个样本的词元数，即分词器的 max_length（tokenizer(..., max_length=N, padding=&quot;max_length&quot;)）；视觉模型为以像素计的图像边长。</translation>
    </message>
    <message>
        <source>Gradient &amp;accumulation steps</source>
        <translation>梯度累积步数(&amp;A)</translation>
    </message>
    <message>
        <source>Gradient accumulation: micro-batches per optimizer step, HF TrainingArguments(gradient_accumulation_steps=...) or DeepSpeed gradient_accumulation_steps. The memory stays that of one micro-batch; the step takes that many forwards and backwards.</source>
        <translation>梯度累积：每个优化器步包含的微批次数，即 HF TrainingArguments(gradient_accumulation_steps=...) 或 DeepSpeed 的 gradient_accumulation_steps。显存仍是一个微批次的显存；每步要做这么多次前向和反向。</translation>
    </message>
</context>
<context>
    <name>CatalogLoader</name>
    <message>
        <source>%1: cannot write (%2)</source>
        <translation>%1：无法写入（%2）</translation>
    </message>
    <message>
        <source>%1: cannot save (%2)</source>
        <translation>%1：无法保存（%2）</translation>
    </message>
</context>
<context>
    <name>CheckpointComparison</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Checkpoint %1: &lt;b&gt;%2&lt;/b&gt; parameters (tensors: %3; %4)</source>
        <translation>检查点 %1：&lt;b&gt;%2&lt;/b&gt; 个参数（张量：%3；%4）</translation>
    </message>
    <message>
        <source>Checkpoint minus config: %1 (%2%)</source>
        <translation>检查点减去配置：%1（%2%）</translation>
    </message>
    <message>
        <source>A checkpoint can also hold buffers (attention masks, position ids), stores tied weights once, and may be one shard of several.</source>
        <translation>检查点还可能包含缓冲区（注意力掩码、位置 id），绑定的权重只存一份，而且它可能只是多个分片之一。</translation>
    </message>
</context>
<context>
    <name>Explainer</name>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Does it fit?&lt;/b&gt; This replay decides: it runs under the GPU&apos;s memory less the context and NCCL&apos;s buffers, and when a cudaMalloc fails the allocator returns its cached unused segments to the driver and tries again (release_cached_blocks; with expandable segments it unmaps their free pages) before it raises the error. The verdict, the largest micro-batch and sequence, the fixes and the planner all use this rule.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;放得下吗？&lt;/b&gt;由这次重放判定：它在 GPU 显存减去上下文和 NCCL 缓冲区后的容量下运行；cudaMalloc 失败时，分配器先把缓存中未使用的显存段还给驱动再重试（release_cached_blocks；使用可扩展段时解除其空闲页的映射），仍失败才报错。结论、最大微批次与最长序列、修改建议和规划器都使用这一规则。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Does it fit?&lt;/b&gt; The simulated peak decides: %1 of %2 is more than the GPU holds, and the replay needs at least as much.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;放得下吗？&lt;/b&gt;由模拟峰值判定：%1 / %2 已超过 GPU 的容量，而重放所需至少同样多。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>aten/src/ATen/autocast_mode.cpp: cached_cast keeps one low-precision copy of each leaf weight until the forward leaves the autocast region, and autograd keeps it until that layer&apos;s backward. Transformer Engine keeps FP8 copies and their transposes.</source>
        <translation>aten/src/ATen/autocast_mode.cpp：cached_cast 为每个叶子权重保留一份低精度副本，直到前向离开 autocast 区域；autograd 则一直保留它，直到该层的反向。Transformer Engine 保留 FP8 副本及其转置。</translation>
    </message>
    <message>
        <source>ZeRO paper sec. 3.1: K = 12 bytes per parameter for mixed-precision Adam; bitsandbytes Optimizer2State (min_8bit_size = 4096, block size 256); transformers Adafactor defaults.</source>
        <translation>ZeRO 论文第 3.1 节：混合精度 Adam 每个参数 K = 12 字节；bitsandbytes Optimizer2State（min_8bit_size = 4096，块大小 256）；transformers 中 Adafactor 的默认设置。</translation>
    </message>
    <message>
        <source>Each operator saves what torch/csrc/autograd/derivatives.yaml says it saves (Linear its input, GELU its input, softmax its output, dropout a 1-byte mask, LayerNorm its input and FP32 mean and rstd), in the dtype autocast gives it.</source>
        <translation>每个算子按 torch/csrc/autograd/derivatives.yaml 的规定保存张量（Linear 保存其输入，GELU 保存其输入，softmax 保存其输出，dropout 保存 1 字节掩码，LayerNorm 保存其输入及 FP32 的 mean 和 rstd），数据类型由 autocast 决定。</translation>
    </message>
    <message>
        <source>Liveness of every tensor in the simulated step: outputs in flight, gradients of activations, the optimizer&apos;s foreach temporaries (torch.optim._multi_tensor_adam), gathered ZeRO-3 layers.</source>
        <translation>模拟训练步中每个张量的存活情况：传递中的输出、激活值的梯度、优化器 foreach 实现的临时张量（torch.optim._multi_tensor_adam）、ZeRO-3 聚合的层。</translation>
    </message>
    <message>
        <source>Not a hardware figure: Headroom&apos;s default per GPU generation, editable under What-if overrides.</source>
        <translation>并非硬件参数：这是 Headroom 按 GPU 代际设定的默认值，可在“假设覆盖值”中修改。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;reached&lt;/b&gt; = FLOPs / time = %1, %2 % of π. A fused SDPA kernel on Hopper runs at its measured rate for its head dim, sequence, causal mask and dropout, well under π at short sequences.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;实际达到&lt;/b&gt; = FLOPs / 时间 = %1，为 π 的 %2 %。在 Hopper 上，融合 SDPA 内核按其头维度、序列长度、因果掩码和 dropout 下的实测速率运行，序列较短时远低于 π。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1: %2, %3; %4 of memory bandwidth.&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1：%2，%3；显存带宽 %4。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Capacity: %1</source>
        <translation>容量：%1</translation>
    </message>
    <message>
        <source>Bandwidth (datasheet %1): %2</source>
        <translation>带宽（规格书 %1）：%2</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;What-if active:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;假设已启用：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>说明：%1</translation>
    </message>
    <message>
        <source>large 16-bit and TF32 GEMMs, of tensor peak</source>
        <translation>大型 16 位与 TF32 矩阵乘（相对张量核心峰值）</translation>
    </message>
    <message>
        <source>FP8 GEMMs</source>
        <translation>FP8 矩阵乘</translation>
    </message>
    <message>
        <source>FP32 GEMMs on the vector units</source>
        <translation>向量单元上的 FP32 矩阵乘</translation>
    </message>
    <message>
        <source>attention kernels (on Hopper, SDPA at its measured rate by sequence instead)</source>
        <translation>注意力内核（在 Hopper 上，SDPA 改按随序列长度变化的实测速率）</translation>
    </message>
    <message>
        <source>memory bandwidth (HBM)</source>
        <translation>显存带宽（HBM）</translation>
    </message>
    <message>
        <source>memory bandwidth (GDDR)</source>
        <translation>显存带宽（GDDR）</translation>
    </message>
    <message>
        <source>&lt;p&gt;Between &lt;b&gt;%1&lt;/b&gt; and &lt;b&gt;%2&lt;/b&gt; with every kernel at the fast or the slow end of its range.&lt;/p&gt;</source>
        <translation>&lt;p&gt;每个内核都取其范围的快端或慢端时，介于 &lt;b&gt;%1&lt;/b&gt; 与 &lt;b&gt;%2&lt;/b&gt; 之间。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Step time: %1</source>
        <translation>每步时间：%1</translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;th&gt;fraction reached&lt;/th&gt;&lt;th&gt;used&lt;/th&gt;&lt;th&gt;range&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;th&gt;达到的比例&lt;/th&gt;&lt;th&gt;采用&lt;/th&gt;&lt;th&gt;范围&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Ranges: the MAMF table (A100 86.9 %, H100 80.3 % of BF16 peak), FlashAttention-2 (50–73 % on A100), measured bandwidths (T4 0.77 to V100 0.92 of the datasheet); docs/formulas.md section 6 and docs/references/roofline.md section 5. Measured throughputs it is checked against: docs/accuracy.md section 3.</source>
        <translation>范围来源：MAMF 表（A100 为 BF16 峰值的 86.9 %，H100 为 80.3 %）、FlashAttention-2（A100 上 50–73 %）、实测带宽（T4 为规格值的 0.77 至 V100 的 0.92）；见 docs/formulas.md 第 6 节与 docs/references/roofline.md 第 5 节。用于核对的实测吞吐量：docs/accuracy.md 第 3 节。</translation>
    </message>
    <message>
        <source>data-parallel gradients</source>
        <translation>数据并行梯度</translation>
    </message>
    <message>
        <source>overlaps backward where it can (DDP buckets, ZeRO prefetch)</source>
        <translation>尽可能与反向传播重叠（DDP 分桶、ZeRO 预取）</translation>
    </message>
    <message>
        <source>tensor-parallel all-reduces</source>
        <translation>张量并行 all-reduce</translation>
    </message>
    <message>
        <source>waited for</source>
        <translation>需等待</translation>
    </message>
    <message>
        <source>pipeline sends</source>
        <translation>流水线发送</translation>
    </message>
    <message>
        <source>expert all-to-alls (MoE)</source>
        <translation>专家 all-to-all（MoE）</translation>
    </message>
    <message>
        <source>&lt;p&gt;Communication per step, %1 of it not hidden:&lt;/p&gt;</source>
        <translation>&lt;p&gt;每步通信，其中 %1 未被隐藏：&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pipeline bubble: %1 of idle time per step.&lt;/p&gt;</source>
        <translation>&lt;p&gt;流水线气泡：每步空闲 %1。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Measured bandwidth %1, the roof memory-bound kernels run at: %2</source>
        <translation>实测带宽 %1（访存受限内核按此上限运行）：%2</translation>
    </message>
    <message>
        <source>convolutions on tensor cores (fitted to measured ResNet-50 rows)</source>
        <translation>张量核心上的卷积（按实测 ResNet-50 数据拟合）</translation>
    </message>
    <message>
        <source>&lt;p&gt;Of the communication, %1 is NCCL&apos;s latency per call (8.4 µs plus 3.4 µs per ring step over NVLink, 5.7 µs over PCIe, 9.6 µs between nodes: NCCL&apos;s tuning model).&lt;/p&gt;</source>
        <translation>&lt;p&gt;通信中有 %1 是 NCCL 每次调用的延迟（8.4 µs，加上每个环步骤在 NVLink 上 3.4 µs、PCIe 上 5.7 µs、节点之间 9.6 µs：NCCL 的调优模型）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>memory bandwidth, measured on this GPU</source>
        <translation>内存带宽（此 GPU 的实测值）</translation>
    </message>
    <message>
        <source>Inside a node the collectives run at the GPU file&apos;s own link rate: %1 GB/s per GPU, one direction at %2 % of it (no measured bus bandwidth of this system).</source>
        <translation>节点内的集合通信按 GPU 文件自身的链路速率运行：每 GPU %1 GB/s，单向，取其 %2 %（该系统没有实测的总线带宽）。</translation>
    </message>
    <message>
        <source>Inside a node the collectives run over %1 at %2 GB/s per GPU: %3.</source>
        <translation>节点内的集合通信经 %1 运行，每 GPU %2 GB/s：%3。</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;%1&lt;/b&gt;: %2, %3 sent; %4&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;%1&lt;/b&gt;：%2，发送 %3；%4&lt;/li&gt;</translation>
    </message>
    <message>
        <source>What PyTorch would report</source>
        <translation>PyTorch 会报告的数值</translation>
    </message>
    <message>
        <source>&lt;p&gt;The caching allocator is being replayed…&lt;/p&gt;</source>
        <translation>&lt;p&gt;正在重放缓存分配器……&lt;/p&gt;</translation>
    </message>
    <message>
        <source>max_memory_allocated</source>
        <translation>max_memory_allocated</translation>
    </message>
    <message>
        <source>held from the first matmul, one for each thread that runs matmuls (the forward pass&apos;s and autograd&apos;s backward thread): CUBLAS_WORKSPACE_CONFIG (default %1 here) each, plus cuBLASLt&apos;s 1 MiB each before torch 2.11; --cublas-workspace-config, scenario key cublas_workspace_mib</source>
        <translation>自第一次矩阵乘起一直占用，每个执行矩阵乘的线程各一份（前向传播的线程与 autograd 的反向线程）：每份为 CUBLAS_WORKSPACE_CONFIG（此处默认 %1），torch 2.11 之前另加 cuBLASLt 各自的 1 MiB；--cublas-workspace-config，场景键 cublas_workspace_mib</translation>
    </message>
    <message>
        <source>max_memory_reserved</source>
        <translation>max_memory_reserved</translation>
    </message>
    <message>
        <source>%1 expandable segments, grown in 2 MiB (small) and 20 MiB (large) steps: %2 above allocated</source>
        <translation>%1 个可扩展段，按 2 MiB（小）和 20 MiB（大）增长：比已分配多 %2</translation>
    </message>
    <message>
        <source>%1 segments: 2 MiB for requests up to 1 MiB, 20 MiB below 10 MiB, the request rounded to 2 MiB above; freed blocks stay cached: %2 above allocated</source>
        <translation>%1 个段：不超过 1 MiB 的请求用 2 MiB 段，10 MiB 以下用 20 MiB 段，更大的请求取整到 2 MiB；释放的块保留在缓存中：比已分配多 %2</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>NCCL buffers</source>
        <translation>NCCL 缓冲区</translation>
    </message>
    <message>
        <source>%1 communicators, 10 MiB per ring channel each, outside the caching allocator</source>
        <translation>%1 个通信器，每个环形通道 10 MiB，位于缓存分配器之外</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1 of %2: cudaMalloc fails, an out-of-memory error.&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1 / %2：cudaMalloc 失败，即显存不足（OOM）错误。&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1 of %2: no out-of-memory error.&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1 / %2：不会出现显存不足错误。&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;PyTorch&apos;s CUDA caching allocator replayed over three training steps of the schedule: what torch.cuda.max_memory_allocated and max_memory_reserved would return, and the device memory an out-of-memory error is decided by (reserved, the context and NCCL&apos;s buffers).&lt;/p&gt;</source>
        <translation>&lt;p&gt;在该调度的三个训练步上重放 PyTorch 的 CUDA 缓存分配器：torch.cuda.max_memory_allocated 与 max_memory_reserved 会返回的数值，以及决定是否显存不足的设备内存（保留内存、上下文与 NCCL 缓冲区）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>c10/cuda/CUDACachingAllocator.cpp (rounding, pools, splitting, release on a failed cudaMalloc), aten/src/ATen/cuda/CublasHandlePool.cpp (cuBLAS workspace), aten/src/ATen/native/cudnn/Conv_v8.cpp (cuDNN workspace), NCCL&apos;s src/init.cc (buffers); docs/formulas.md section 3.2a. Not yet measured on a GPU: docs/accuracy.md section 4.</source>
        <translation>c10/cuda/CUDACachingAllocator.cpp（取整、内存池、拆分、cudaMalloc 失败时释放），aten/src/ATen/cuda/CublasHandlePool.cpp（cuBLAS 工作区），aten/src/ATen/native/cudnn/Conv_v8.cpp（cuDNN 工作区），NCCL 的 src/init.cc（缓冲区）；docs/formulas.md 第 3.2a 节。尚未在 GPU 上实测：见 docs/accuracy.md 第 4 节。</translation>
    </message>
    <message>
        <source>taken around each of the step&apos;s %1 convolution calls while it runs; the size of the engine cuDNN picks, set in the control panel (PyTorch allocator)</source>
        <translation>在该步 %1 次卷积调用的每一次运行期间占用；大小为 cuDNN 所选引擎的需求，在控制面板（PyTorch 分配器）中设置</translation>
    </message>
    <message>
        <source>of it, the cuBLAS workspace</source>
        <translation>其中 cuBLAS 工作区</translation>
    </message>
    <message>
        <source>of it, at a convolution, the cuDNN workspace</source>
        <translation>其中卷积运行时的 cuDNN 工作区</translation>
    </message>
    <message>
        <source>the step&apos;s tensors and workspaces (%1 requested at once at most, besides cuBLAS&apos;s), each rounded up to 512 bytes; with expandable segments a block is split whenever 512 bytes or more would be left</source>
        <translation>该步的张量与工作区（同时请求最多 %1，不含 cuBLAS 的），每个向上取整到 512 字节；使用可扩展段时，只要剩余不少于 512 字节就拆分块</translation>
    </message>
    <message>
        <source>the step&apos;s tensors and workspaces (%1 requested at once at most, besides cuBLAS&apos;s), each rounded up to 512 bytes; a cached block is split only when more than 1 MiB (512 bytes for requests up to 1 MiB) would be left</source>
        <translation>该步的张量与工作区（同时请求最多 %1，不含 cuBLAS 的），每个向上取整到 512 字节；只有剩余超过 1 MiB（不超过 1 MiB 的请求为 512 字节）时才拆分缓存块</translation>
    </message>
    <message>
        <source>the framework overhead (%1, the GPU file&apos;s estimate or the Overhead control) less the default cuBLAS and cuBLASLt workspaces</source>
        <translation>框架开销（%1，GPU 文件的估计值或“开销”控件）减去默认的 cuBLAS 与 cuBLASLt 工作区</translation>
    </message>
    <message>
        <source>replayed as a CUDA graph</source>
        <translation>以 CUDA Graph 重放</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>eager 模式</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Host-bound&lt;/b&gt; (%1): the host spends %2 issuing the step&apos;s operators, the GPU %3 running its kernels and %4 waiting for the next one. A faster GPU would only wait longer.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;受主机限制&lt;/b&gt;（%1）：主机花 %2 下发这一步的算子，GPU 花 %3 运行内核，另有 %4 在等待下一个内核。换一块更快的 GPU 只会等得更久。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;GPU-bound&lt;/b&gt; (%1): the GPU is busy %3 of the step, the host spends %2 issuing its operators, and the GPU waits %4 for them.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;受 GPU 限制&lt;/b&gt;（%1）：这一步中 GPU 忙碌 %3，主机花 %2 下发算子，GPU 等待算子 %4。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>CUDA graphs (torch.compile mode=&quot;reduce-overhead&quot;)</source>
        <translation>CUDA Graph（torch.compile mode=&quot;reduce-overhead&quot;）</translation>
    </message>
    <message>
        <source>the fused AdamW (fused=True)</source>
        <translation>融合版 AdamW（fused=True）</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>&lt;li&gt;%1: step %2, %3 (+%4)&lt;/li&gt;</source>
        <translation>&lt;li&gt;%1：每步 %2，%3（+%4）&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;What would help, each alone:&lt;/p&gt;&lt;ul&gt;%1&lt;/ul&gt;</source>
        <translation>&lt;p&gt;单独采用以下任一项的效果：&lt;/p&gt;&lt;ul&gt;%1&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Two clocks. The GPU runs each operator&apos;s kernels for the longer of its FLOPs over the attainable peak of its unit and its bytes over the attainable bandwidth, plus %1 per kernel. The host, one CPU thread running eager PyTorch, issues each operator first: %2 per forward operator, %3 per backward kernel, %4 per recomputed operator (fitted to 27 runs on an H200), and a kernel cannot start before it is issued. FP32 3x3 convolutions on the vector units use Winograd (%5x fewer multiplies); tensor-core convolutions on NCHW tensors add the transposes to NHWC and back unless the model is channels_last.&lt;/p&gt;</source>
        <translation>&lt;p&gt;两个时钟。GPU 运行每个算子的内核，耗时取其 FLOPs 除以所用单元可达峰值与其字节数除以可达带宽中较长者，每个内核另加 %1。主机（一个运行 eager PyTorch 的 CPU 线程）先下发每个算子：每个前向算子 %2，每个反向内核 %3，每个重计算算子 %4（拟合自 H200 上的 27 次运行）；内核在被下发之前不能开始。向量单元上的 FP32 3x3 卷积使用 Winograd（乘法少 %5 倍）；NCHW 张量上的张量核心卷积要先转置为 NHWC 再转回，除非模型使用 channels_last。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;SDPA runs its %1 kernel in torch %2 (%3): it saves the s × s attention probabilities, as eager attention does</source>
        <translation>&lt;br&gt;SDPA 在 torch %2 中运行其 %1 内核（%3）：它像 eager 注意力一样保存 s × s 注意力概率</translation>
    </message>
    <message>
        <source>&lt;br&gt;SDPA runs its %1 kernel in torch %2 (%3): it saves the output and an FP32 log-sum-exp per row, not the scores</source>
        <translation>&lt;br&gt;SDPA 在 torch %2 中运行其 %1 内核（%3）：它保存输出和每行一个 FP32 log-sum-exp，不保存注意力分数</translation>
    </message>
    <message>
        <source>&lt;br&gt;Training loop &lt;code&gt;output = model(x); loss = loss_fn(output, y); loss.backward()&lt;/code&gt;: the model&apos;s output (%1) stays alive until backward has run. &lt;code&gt;loss = model(**batch).loss&lt;/code&gt; (Hugging Face Trainer) frees it after the loss.</source>
        <translation>&lt;br&gt;训练循环 &lt;code&gt;output = model(x); loss = loss_fn(output, y); loss.backward()&lt;/code&gt;：模型输出（%1）一直存活到反向传播结束。&lt;code&gt;loss = model(**batch).loss&lt;/code&gt;（Hugging Face Trainer）在计算损失后释放它。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Training loop &lt;code&gt;loss = model(**batch).loss&lt;/code&gt; (Hugging Face Trainer): the model&apos;s output (%1) is freed after the loss; &lt;code&gt;output = model(x); loss = loss_fn(output, y)&lt;/code&gt; would keep it through backward.</source>
        <translation>&lt;br&gt;训练循环 &lt;code&gt;loss = model(**batch).loss&lt;/code&gt;（Hugging Face Trainer）：模型输出（%1）在计算损失后释放；&lt;code&gt;output = model(x); loss = loss_fn(output, y)&lt;/code&gt; 会让它存活到反向传播结束。</translation>
    </message>
    <message>
        <source>%1 (gradient)</source>
        <translation>%1（梯度）</translation>
    </message>
    <message>
        <source>%1 on this GPU</source>
        <translation>此 GPU 上 %1</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 × %2 B</source>
        <translation>%1 × %2 B</translation>
    </message>
    <message>
        <source>%1 ÷ %2</source>
        <translation>%1 ÷ %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 = %3</source>
        <translation>%1：%2 = %3</translation>
    </message>
    <message>
        <source>%1, on the bytes allocated at the peak: %2 × %3 = %4</source>
        <translation>%1，按峰值时已分配的字节计：%2 × %3 = %4</translation>
    </message>
    <message>
        <source>32-bit states of tensors under 4096 elements</source>
        <translation>不足 4096 个元素的张量保留 32 位状态</translation>
    </message>
    <message>
        <source>8-bit states m and v</source>
        <translation>8 位状态 m 和 v</translation>
    </message>
    <message>
        <source>Adam moments m and v (%1)</source>
        <translation>Adam 一阶、二阶矩 m 和 v（%1）</translation>
    </message>
    <message>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>INT32</source>
        <translation>INT32</translation>
    </message>
    <message>
        <source>INT64</source>
        <translation>INT64</translation>
    </message>
    <message>
        <source>INT8</source>
        <translation>INT8</translation>
    </message>
    <message>
        <source>CUDA context and workspaces</source>
        <translation>CUDA 上下文与工作区</translation>
    </message>
    <message>
        <source>DDP gradient buckets (%1)</source>
        <translation>DDP 梯度桶（%1）</translation>
    </message>
    <message>
        <source>FP32 master weights</source>
        <translation>FP32 主权重</translation>
    </message>
    <message>
        <source>FP8 weight copies and transposes</source>
        <translation>FP8 权重副本及其转置</translation>
    </message>
    <message>
        <source>For comparison (not the figure), the closed form for a standard GPT layer with 16-bit activations and 1-byte dropout masks (Korthikanti et al. 2022, Table 2): sbh(34 + 5as/h) × L = %1</source>
        <translation>仅供对照（不是上面的数值）：标准 GPT 层在 16 位激活和 1 字节 dropout 掩码下的闭式公式（Korthikanti 等 2022，表 2）：sbh(34 + 5as/h) × L = %1</translation>
    </message>
    <message>
        <source>LoRA adapters (%1)</source>
        <translation>LoRA 适配器（%1）</translation>
    </message>
    <message>
        <source>NF4: 4 bits + 8-bit absmax per 64 weights + FP32 constant per 16,384 = 4.127 bits</source>
        <translation>NF4：4 位 + 每 64 个权重一个 8 位 absmax + 每 16,384 个权重一个 FP32 常数 = 4.127 位</translation>
    </message>
    <message>
        <source>On the host (optimizer offload): %1 outside the GPU.</source>
        <translation>在主机内存中（优化器卸载）：%1 不在 GPU 上。</translation>
    </message>
    <message>
        <source>The paged optimizer&apos;s states are in unified memory: %1 outside the GPU&apos;s peak.</source>
        <translation>分页优化器的状态位于统一内存中：%1 不计入 GPU 峰值。</translation>
    </message>
    <message>
        <source>With ZeRO-Offload the gradient partitions go to the host as they are made.</source>
        <translation>使用 ZeRO-Offload 时，梯度分片一产生就移到主机内存。</translation>
    </message>
    <message>
        <source>ZeRO-2 (P_os+g) shards gradients (Rajbhandari et al. 2020); Megatron and DeepSpeed keep FP32 gradient buffers (18 bytes per parameter with Adam), the ZeRO paper counts 16-bit gradients (16 bytes); PyTorch DistributedDataParallel keeps a second copy in its buckets.</source>
        <translation>ZeRO-2（P_os+g）对梯度分片（Rajbhandari 等 2020）；Megatron 和 DeepSpeed 保留 FP32 梯度缓冲区（使用 Adam 时每参数 18 字节），ZeRO 论文按 16 位梯度计算（16 字节）；PyTorch DistributedDataParallel 在其梯度桶中再保留一份副本。</translation>
    </message>
    <message>
        <source>ZeRO-3 shards the FP32 weights, but each layer is gathered into the same FP32 parameter, and autocast keeps the 16-bit cast of every one until the forward pass ends: the whole 16-bit copy is on every GPU. With 16-bit weights and an FP32 master copy (Weights: master weights; DeepSpeed bf16, FSDP MixedPrecision) nothing is cast.</source>
        <translation>ZeRO-3 对 FP32 权重分片，但每一层都被收集到同一个 FP32 参数中，autocast 会保留每一层的 16 位转换副本直到前向结束：完整的 16 位副本存在于每个 GPU 上。使用 16 位权重加 FP32 主副本（权重：主权重；DeepSpeed bf16、FSDP MixedPrecision）时不做转换。</translation>
    </message>
    <message>
        <source>all other operators</source>
        <translation>其余所有算子</translation>
    </message>
    <message>
        <source>allocator reserve</source>
        <translation>分配器预留</translation>
    </message>
    <message>
        <source>autocast&apos;s cached casts (%1)</source>
        <translation>autocast 缓存的转换副本（%1）</translation>
    </message>
    <message>
        <source>buffers allocated in the step (NCCL, cuDNN)</source>
        <translation>训练步中分配的缓冲区（NCCL、cuDNN）</translation>
    </message>
    <message>
        <source>factored second moments, rows + columns (FP32)</source>
        <translation>分解的二阶矩，行 + 列（FP32）</translation>
    </message>
    <message>
        <source>frozen weights (%1)</source>
        <translation>冻结权重（%1）</translation>
    </message>
    <message>
        <source>gradients (%1)</source>
        <translation>梯度（%1）</translation>
    </message>
    <message>
        <source>live at the peak, by the operator that allocated it, summed over layers:</source>
        <translation>峰值时存活的内存，按分配它的算子汇总（各层合计）：</translation>
    </message>
    <message>
        <source>momentum (%1)</source>
        <translation>动量（%1）</translation>
    </message>
    <message>
        <source>sum: %1</source>
        <translation>合计：%1</translation>
    </message>
    <message>
        <source>tensors autograd saves for backward, at the end of the forward pass, by the operator that saved them, summed over layers:</source>
        <translation>前向结束时 autograd 为反向保存的张量，按保存它们的算子汇总（各层合计）：</translation>
    </message>
    <message>
        <source>the micro-batch&apos;s inputs</source>
        <translation>微批次的输入</translation>
    </message>
    <message>
        <source>their FP32 absmax, one per 256 elements</source>
        <translation>其 FP32 absmax，每 256 个元素一个</translation>
    </message>
    <message>
        <source>torch.autocast keeps parameters in FP32 (PyTorch AMP documentation); DeepSpeed and Megatron keep 16-bit weights with an FP32 master copy; ZeRO-3 (P_p) shards them over N ranks (Rajbhandari et al. 2020, sec. 5); QLoRA stores the adapted Linear weights as NF4 with double quantization (Dettmers et al. 2023, sec. 3).</source>
        <translation>torch.autocast 以 FP32 保存参数（PyTorch AMP 文档）；DeepSpeed 和 Megatron 保存 16 位权重和一份 FP32 主副本；ZeRO-3（P_p）把它们分片到 N 个进程上（Rajbhandari 等 2020，第 5 节）；QLoRA 以双重量化的 NF4 存储被适配的 Linear 权重（Dettmers 等 2023，第 3 节）。</translation>
    </message>
    <message>
        <source>trained weights (%1)</source>
        <translation>训练的权重（%1）</translation>
    </message>
    <message>
        <source>16-bit GEMMs with an odd dimension, Hopper and later (align1 kernels), of tensor peak</source>
        <translation>维度为奇数的 16 位 GEMM，Hopper 及更新架构（align1 内核），占张量核心峰值</translation>
    </message>
    <message>
        <source>16-bit batch norm on NCHW tensors (PyTorch&apos;s kernels; cuDNN&apos;s from Hopper), of bandwidth</source>
        <translation>NCHW 布局的 16 位批归一化（PyTorch 的内核；Hopper 起也含 cuDNN 的），占带宽</translation>
    </message>
    <message>
        <source>elementwise kernels that convert dtypes (BF16 with FP32 under autocast), of bandwidth</source>
        <translation>转换数据类型的逐元素内核（autocast 下 BF16 与 FP32 混算），占带宽</translation>
    </message>
    <message>
        <source>sums over rows (bias and LayerNorm weight gradients), of bandwidth</source>
        <translation>按行求和（偏置和 LayerNorm 权重的梯度），占带宽</translation>
    </message>
    <message>
        <source>copies of non-contiguous tensors (nn.MultiheadAttention&apos;s layouts), of bandwidth</source>
        <translation>非连续张量的拷贝（nn.MultiheadAttention 的内存布局），占带宽</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1, %2, summed over its %3 kernels in the step.&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1，%2，为这一步中它的 %3 个内核的合计。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;intensity&lt;/b&gt; = FLOPs / bytes = %1 / %2 = %3 FLOP/byte&lt;br&gt;&lt;b&gt;attainable&lt;/b&gt; = min(π, β × I) = min(%4, %5 × %3) = %6&lt;br&gt;&lt;b&gt;time&lt;/b&gt; = Σ max(FLOPs / (η&lt;sub&gt;c&lt;/sub&gt; π), bytes / (η&lt;sub&gt;m&lt;/sub&gt; β)) + sums over rows and layout copies + kernels × latency + waiting for the host&lt;br&gt;&amp;nbsp;&amp;nbsp;= %7 + %8 + %9 + %10 = %11&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;算术强度&lt;/b&gt; = FLOPs / 字节数 = %1 / %2 = %3 FLOP/byte&lt;br&gt;&lt;b&gt;可达性能&lt;/b&gt; = min(π, β × I) = min(%4, %5 × %3) = %6&lt;br&gt;&lt;b&gt;时间&lt;/b&gt; = Σ max(FLOPs / (η&lt;sub&gt;c&lt;/sub&gt; π), 字节数 / (η&lt;sub&gt;m&lt;/sub&gt; β)) + 按行求和与布局拷贝 + 内核数 × 延迟 + 等待主机发射&lt;br&gt;&amp;nbsp;&amp;nbsp;= %7 + %8 + %9 + %10 = %11&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Bound by memory: %1 in %2, %3, η&lt;sub&gt;m&lt;/sub&gt; = %4 of β.&lt;/p&gt;</source>
        <translation>&lt;p&gt;受访存限制：%2 内读写 %1，即 %3，η&lt;sub&gt;m&lt;/sub&gt; = β 的 %4。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Roofline: Williams, Waterman &amp; Patterson 2009. Efficiencies η: GEMMs 0.80 of the dense tensor peak (MAMF table, stas00/ml-engineering), FP8 0.70, attention 0.60 (FlashAttention-2) and on Hopper SDPA&apos;s measured rates (FlashAttention-3&apos;s H100 benchmarks, arXiv:2407.08608, with each kernel&apos;s tiles), memory 0.85 (HBM) or 0.78 (GDDR) or the GPU&apos;s measured bandwidth; of the datasheet bandwidth, dtype-converting kernels %2, sums over rows (a bias&apos;s or LayerNorm&apos;s weight gradient) %3, layout copies %4; a kernel&apos;s latency %1.</source>
        <translation>屋顶线模型：Williams, Waterman &amp; Patterson 2009。效率 η：GEMM 为稠密张量峰值的 0.80（MAMF 表，stas00/ml-engineering），FP8 为 0.70，注意力为 0.60（FlashAttention-2），在 Hopper 上 SDPA 按实测速率（FlashAttention-3 的 H100 基准，arXiv:2407.08608，并计入各内核的分块），访存为 0.85（HBM）或 0.78（GDDR）或该 GPU 的实测带宽；按数据手册带宽计，转换数据类型的内核为 %2，按行求和（偏置或 LayerNorm 权重的梯度）为 %3，布局拷贝为 %4；每个内核的延迟 %1。</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>&amp;Chart</source>
        <translation>图表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Size</source>
        <translation>尺寸(&amp;S)</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>PNG s&amp;cale</source>
        <translation>PNG 缩放(&amp;C)</translation>
    </message>
    <message>
        <source>Pixels per logical pixel: 2 gives a sharp figure on HiDPI screens and in print</source>
        <translation>每个逻辑像素对应的像素数：设为 2 可在高分屏和印刷品上得到清晰的图</translation>
    </message>
    <message>
        <source>&amp;Colours</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Caption stating the &amp;scenario</source>
        <translation>附上说明场景的图注(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Large fonts and thick lines (slides)</source>
        <translation>大字体和粗线条（幻灯片）(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>figure.svg, figure.png or figure.pdf</source>
        <translation>figure.svg、figure.png 或 figure.pdf</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>From a script:</source>
        <translation>脚本命令：</translation>
    </message>
    <message>
        <source>The command that writes the same file, byte for byte</source>
        <translation>逐字节写出同一文件的命令</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the command to the clipboard</source>
        <translation>把命令复制到剪贴板</translation>
    </message>
</context>
<context>
    <name>Figure</name>
    <message>
        <source>size %1×%2: width and height must be between 320×240 and 16384×16384</source>
        <translation>尺寸 %1×%2：宽和高必须在 320×240 到 16384×16384 之间</translation>
    </message>
    <message>
        <source>scale %1: must be between 0.25 and 8</source>
        <translation>缩放 %1：必须在 0.25 到 8 之间</translation>
    </message>
    <message>
        <source>size %1×%2 at scale %3: more than 400 megapixels</source>
        <translation>尺寸 %1×%2、缩放 %3：超过 4 亿像素</translation>
    </message>
    <message>
        <source>Faint bars, dash-dotted lines and hollow markers: the baseline, %1; %2</source>
        <translation>浅色柱、点划线和空心标记：基线，%1；%2</translation>
    </message>
    <message>
        <source>%1: unknown figure type; use .png, .svg or .pdf</source>
        <translation>%1：未知的图片类型；请使用 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>%1: could not encode the PNG</source>
        <translation>%1：无法编码 PNG</translation>
    </message>
</context>
<context>
    <name>FinetuneGroup</name>
    <message>
        <source>Fine-t&amp;uning</source>
        <translation>微调(&amp;U)</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>What trains. Full: every parameter. Freeze layers: the embeddings and the first blocks get requires_grad_(False). LoRA: peft.get_peft_model(model, LoraConfig(r=8, target_modules=[...])), the base frozen and low-rank adapters trained. DoRA: LoraConfig(use_dora=True), LoRA plus a magnitude vector per adapted layer. QLoRA: the base loaded with BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=&quot;nf4&quot;, bnb_4bit_use_double_quant=True), then prepare_model_for_kbit_training and LoRA. Frozen weights have no gradient and no optimizer state.</source>
        <translation>训练哪些参数。全量微调：所有参数都训练。冻结层：嵌入层和前若干个块设为 requires_grad_(False)。LoRA：peft.get_peft_model(model, LoraConfig(r=8, target_modules=[...]))，基座模型冻结，只训练低秩适配器。DoRA：LoraConfig(use_dora=True)，在 LoRA 之外为每个适配层加一个幅值向量。QLoRA：用 BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=&quot;nf4&quot;, bnb_4bit_use_double_quant=True) 加载基座模型，再调用 prepare_model_for_kbit_training 并加上 LoRA。冻结的权重没有梯度，也没有优化器状态。</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Rank r of each adapter, LoraConfig(r=8): lora_A is r × in and lora_B is out × r, so the trainable parameters grow with r. lora_alpha only scales the update and changes no memory; a scenario&apos;s alpha is kept.</source>
        <translation>每个适配器的秩 r，即 LoraConfig(r=8)：lora_A 为 r × in，lora_B 为 out × r，可训练参数随 r 线性增长。lora_alpha 只缩放更新量，不影响显存；场景文件中的 alpha 原样保留。</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>目标模块</translation>
    </message>
    <message>
        <source>The Linear layers that get an adapter. PEFT default: LoraConfig(target_modules=None), the architecture&apos;s query and value projections (q_proj and v_proj, query and value, or the fused c_attn). All linear layers: target_modules=&quot;all-linear&quot;, every Linear of the blocks but not the output layer.</source>
        <translation>加上适配器的 Linear 层。PEFT 默认：LoraConfig(target_modules=None)，即该架构的 query 和 value 投影（q_proj 和 v_proj、query 和 value，或融合的 c_attn）。所有线性层：target_modules=&quot;all-linear&quot;，即各个块中的所有 Linear，不含输出层。</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout 概率</translation>
    </message>
    <message>
        <source>Dropout on the adapters&apos; input, LoraConfig(lora_dropout=0.05). Above 0 every adapted layer saves its dropped input and the mask for backward.</source>
        <translation>适配器输入上的 dropout，即 LoraConfig(lora_dropout=0.05)。大于 0 时，每个适配层都要为反向传播保存 dropout 后的输入和掩码。</translation>
    </message>
    <message>
        <source>Frozen layers</source>
        <translation>冻结层数</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Blocks frozen from the input side, with the embeddings: for p in model.model.layers[:N].parameters(): p.requires_grad_(False). All: only the head trains.</source>
        <translation>从输入端起冻结的块数（连同嵌入层）：for p in model.model.layers[:N].parameters(): p.requires_grad_(False)。全部：只训练输出头。</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 TiB</source>
        <translation>%1 TiB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 PFLOP/s</source>
        <translation>%1 PFLOP/s</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>%1 TB/s</source>
        <translation>%1 TB/s</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>%1T</source>
        <translation>%1T</translation>
    </message>
    <message>
        <source>%1B</source>
        <translation>%1B</translation>
    </message>
    <message>
        <source>%1M</source>
        <translation>%1M</translation>
    </message>
    <message>
        <source>%1K</source>
        <translation>%1K</translation>
    </message>
    <message>
        <source>%1 %2/s</source>
        <translation>%1 %2/秒</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
</context>
<context>
    <name>GpuEditor</name>
    <message>
        <source>GPU editor</source>
        <translation>GPU 编辑器</translation>
    </message>
    <message>
        <source>Based &amp;on</source>
        <translation>基于(&amp;O)</translation>
    </message>
    <message>
        <source>Start from a GPU in the list and change what differs</source>
        <translation>以列表中的某个 GPU 为起点，只修改不同之处</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>&amp;Id</source>
        <translation>ID(&amp;I)</translation>
    </message>
    <message>
        <source>Lowercase letters, digits, &apos;-&apos; and &apos;.&apos;; also the file name</source>
        <translation>小写字母、数字、&apos;-&apos; 和 &apos;.&apos;；同时用作文件名</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Vendor</source>
        <translation>厂商(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Architecture</source>
        <translation>架构(&amp;A)</translation>
    </message>
    <message>
        <source>Dense peak per math unit</source>
        <translation>各计算单元的稠密峰值</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <source>Dense peak; sparse figures are twice the dense ones</source>
        <translation>稠密峰值；稀疏峰值是稠密峰值的两倍</translation>
    </message>
    <message>
        <source>TF32 tensor</source>
        <translation>TF32 张量核心</translation>
    </message>
    <message>
        <source>unsupported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>FP16 tensor</source>
        <translation>FP16 张量核心</translation>
    </message>
    <message>
        <source>BF16 tensor</source>
        <translation>BF16 张量核心</translation>
    </message>
    <message>
        <source>FP8 tensor</source>
        <translation>FP8 张量核心</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>&amp;Capacity</source>
        <translation>容量(&amp;C)</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Vendor GB; Headroom reads it as GiB of DRAM</source>
        <translation>厂商标称的 GB；Headroom 将其视为 DRAM 的 GiB</translation>
    </message>
    <message>
        <source>Memory &amp;type</source>
        <translation>显存类型(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Bandwidth</source>
        <translation>带宽(&amp;B)</translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <source>Decimal GB/s, as datasheets give it</source>
        <translation>十进制 GB/s，与规格书一致</translation>
    </message>
    <message>
        <source>Links and overhead</source>
        <translation>互连与开销</translation>
    </message>
    <message>
        <source>&amp;PCIe</source>
        <translation>PCIe(&amp;P)</translation>
    </message>
    <message>
        <source>Host link, bidirectional</source>
        <translation>主机链路，双向</translation>
    </message>
    <message>
        <source>GPU &amp;link</source>
        <translation>GPU 互连(&amp;L)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>NVLink or Infinity Fabric, bidirectional</source>
        <translation>NVLink 或 Infinity Fabric，双向</translation>
    </message>
    <message>
        <source>Framework &amp;overhead</source>
        <translation>框架开销(&amp;O)</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>CUDA context and library workspaces</source>
        <translation>CUDA 上下文与库工作区</translation>
    </message>
    <message>
        <source>No&amp;tes</source>
        <translation>备注(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Import...</source>
        <translation>导入(&amp;I)...</translation>
    </message>
    <message>
        <source>Load a shared GPU file into the editor</source>
        <translation>将共享的 GPU 文件载入编辑器</translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <source>Write this GPU as a JSON file to share</source>
        <translation>将此 GPU 写成 JSON 文件以便分享</translation>
    </message>
    <message>
        <source>&amp;Delete saved</source>
        <translation>删除已保存项(&amp;D)</translation>
    </message>
    <message>
        <source>Delete your saved GPU with this id</source>
        <translation>删除你以此 ID 保存的 GPU</translation>
    </message>
</context>
<context>
    <name>GpuModelGroup</name>
    <message>
        <source>GPU and model</source>
        <translation>GPU 与模型</translation>
    </message>
    <message>
        <source>&amp;GPU</source>
        <translation>GPU(&amp;G)</translation>
    </message>
    <message>
        <source>The GPU: its memory, bandwidth and peak FLOP/s per precision, each from its datasheet (gpus/*.json). Type to search; grouped by vendor and segment.</source>
        <translation>GPU：显存、带宽和各精度的峰值 FLOP/s，每个数都取自其数据手册（gpus/*.json）。可输入搜索；按厂商和细分市场分组。</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>The model, as its reference implementation builds it: the HF config (transformers AutoModel.from_config) or the torchvision constructor. Type to search; grouped by family.</source>
        <translation>模型，按其参考实现构建：HF 配置（transformers AutoModel.from_config）或 torchvision 的构造函数。可输入搜索；按模型家族分组。</translation>
    </message>
</context>
<context>
    <name>HostGroup</name>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>CPU speed</source>
        <translation>CPU 速度</translation>
    </message>
    <message>
        <source>How fast the CPU that issues the kernels runs eager PyTorch, against the one the host costs were fitted on (1: a 16-core server VM with torch 2.11; 0.5: half as fast, 2: twice). A host-bound step scales with it; a GPU-bound one does not.</source>
        <translation>下发内核的 CPU 运行 eager PyTorch 的速度，相对于拟合主机开销所用的那台（1：一台 16 核服务器虚拟机，torch 2.11；0.5：慢一半；2：快一倍）。受主机限制的步长随之缩放；受 GPU 限制的步长不受影响。</translation>
    </message>
    <message>
        <source> ×</source>
        <translation> ×</translation>
    </message>
    <message>
        <source>The step captured once and replayed as a CUDA graph (torch.cuda.graphs, torch.compile(mode=&quot;reduce-overhead&quot;)): the host no longer issues each operator, so a host-bound step runs at the GPU&apos;s pace.</source>
        <translation>这一步只捕获一次，之后作为 CUDA Graph 重放（torch.cuda.graphs、torch.compile(mode=&quot;reduce-overhead&quot;)）：主机不再逐个下发算子，受主机限制的一步就能以 GPU 的速度运行。</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA Graph</translation>
    </message>
</context>
<context>
    <name>InferenceView</name>
    <message>
        <source>How the weights are stored: 16-bit, 8-bit, 4-bit GPTQ/AWQ/NF4, or a llama.cpp GGUF preset</source>
        <translation>权重的存储格式：16 位、8 位、4 位 GPTQ/AWQ/NF4，或 llama.cpp 的 GGUF 预设</translation>
    </message>
    <message>
        <source>Sequences decoded together (the serving batch)</source>
        <translation>同时解码的序列数（推理批大小）</translation>
    </message>
    <message>
        <source>GPUs the model is split over (memory and time are per GPU)</source>
        <translation>模型切分到的 GPU 数（显存与时间按每块 GPU 计）</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Sequences</source>
        <translation>并发序列</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词元数</translation>
    </message>
    <message>
        <source>Generated tokens</source>
        <translation>生成词元数</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Weight copies</source>
        <translation>权重副本</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>临时张量</translation>
    </message>
    <message>
        <source>Framework overhead</source>
        <translation>框架开销</translation>
    </message>
    <message>
        <source>Parameters as the model stores them: FP32 under autocast, 16-bit with a master copy, a 1/N shard under ZeRO-3.</source>
        <translation>模型所存储的参数：autocast 下为 FP32，带主副本时为 16 位，ZeRO-3 下为 1/N 分片。</translation>
    </message>
    <message>
        <source>Low-precision copies of the weights: autocast&apos;s FP16/BF16 cache, FP8 weights and their transposes.</source>
        <translation>权重的低精度副本：autocast 的 FP16/BF16 缓存、FP8 权重及其转置。</translation>
    </message>
    <message>
        <source>Parameter gradients, a 1/N shard under ZeRO-2 and ZeRO-3, plus data-parallel gradient buckets.</source>
        <translation>参数梯度（ZeRO-2 和 ZeRO-3 下为 1/N 分片），外加数据并行的梯度桶。</translation>
    </message>
    <message>
        <source>FP32 master weights and the optimizer&apos;s moments or momentum, a 1/N shard from ZeRO-1 on.</source>
        <translation>FP32 主权重以及优化器的矩或动量；从 ZeRO-1 起为 1/N 分片。</translation>
    </message>
    <message>
        <source>Tensors autograd saves in the forward pass for the backward pass, the loss&apos;s included.</source>
        <translation>autograd 在前向中为反向保存的张量，包括损失函数保存的张量。</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <source>GEMM</source>
        <translation>GEMM</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>TF32 tensor</source>
        <translation>TF32 张量核心</translation>
    </message>
    <message>
        <source>FP16 tensor</source>
        <translation>FP16 张量核心</translation>
    </message>
    <message>
        <source>BF16 tensor</source>
        <translation>BF16 张量核心</translation>
    </message>
    <message>
        <source>FP8 tensor</source>
        <translation>FP8 张量核心</translation>
    </message>
    <message>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>FP32 with TF32 matmuls</source>
        <translation>FP32（矩阵乘用 TF32）</translation>
    </message>
    <message>
        <source>FP16 mixed</source>
        <translation>FP16 混合精度</translation>
    </message>
    <message>
        <source>BF16 mixed</source>
        <translation>BF16 混合精度</translation>
    </message>
    <message>
        <source>Pure BF16</source>
        <translation>纯 BF16</translation>
    </message>
    <message>
        <source>FP8 mixed (Transformer Engine)</source>
        <translation>FP8 混合精度（Transformer Engine）</translation>
    </message>
    <message>
        <source>torch.autocast (FP32 weights)</source>
        <translation>torch.autocast（FP32 权重）</translation>
    </message>
    <message>
        <source>DeepSpeed/Megatron (16-bit weights, FP32 master)</source>
        <translation>DeepSpeed/Megatron（16 位权重，FP32 主副本）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Selective (attention core)</source>
        <translation>选择性（注意力核心）</translation>
    </message>
    <message>
        <source>Full (every block)</source>
        <translation>完整（每个块）</translation>
    </message>
    <message>
        <source>Fused (FlashAttention / SDPA)</source>
        <translation>融合（FlashAttention / SDPA）</translation>
    </message>
    <message>
        <source>Eager (scores saved)</source>
        <translation>Eager（保存注意力分数）</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>8-bit AdamW (bitsandbytes)</source>
        <translation>8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>Use fused attention</source>
        <translation>使用融合注意力</translation>
    </message>
    <message>
        <source>Recompute the attention core (selective checkpointing)</source>
        <translation>重计算注意力核心（选择性检查点）</translation>
    </message>
    <message>
        <source>Checkpoint every block (full recomputation)</source>
        <translation>对每个块做检查点（完整重计算）</translation>
    </message>
    <message>
        <source>Train in %1</source>
        <translation>训练改用 %1</translation>
    </message>
    <message>
        <source>Use 8-bit AdamW</source>
        <translation>使用 8 位 AdamW</translation>
    </message>
    <message>
        <source>Go to ZeRO stage %1</source>
        <translation>改用 ZeRO 阶段 %1</translation>
    </message>
    <message>
        <source>Offload the optimizer to the CPU</source>
        <translation>将优化器卸载到 CPU</translation>
    </message>
    <message>
        <source>Micro-batch %1 with %2 accumulation steps</source>
        <translation>微批次 %1，梯度累积 %2 步</translation>
    </message>
    <message>
        <source>the embeddings</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>the head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>LayerNorm</translation>
    </message>
    <message>
        <source>RMSNorm</source>
        <translation>RMSNorm</translation>
    </message>
    <message>
        <source>GELU (exact)</source>
        <translation>GELU（精确）</translation>
    </message>
    <message>
        <source>GELU (tanh approximation)</source>
        <translation>GELU（tanh 近似）</translation>
    </message>
    <message>
        <source>GELU (tanh, written as tensor ops: gelu_new)</source>
        <translation>GELU（tanh，用张量运算实现：gelu_new）</translation>
    </message>
    <message>
        <source>QuickGELU</source>
        <translation>QuickGELU</translation>
    </message>
    <message>
        <source>SiLU</source>
        <translation>SiLU</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>Learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>Rotary (RoPE)</source>
        <translation>旋转（RoPE）</translation>
    </message>
    <message>
        <source>Causal language model</source>
        <translation>因果语言模型</translation>
    </message>
    <message>
        <source>Masked language model</source>
        <translation>掩码语言模型</translation>
    </message>
    <message>
        <source>Classifier</source>
        <translation>分类器</translation>
    </message>
    <message>
        <source>%1 has no %2 peak: the matrix multiplications are timed on %3</source>
        <translation>%1 没有 %2 峰值：矩阵乘法按 %3 计时</translation>
    </message>
    <message>
        <source>ZeRO partitions over data-parallel GPUs; with one GPU it saves no memory</source>
        <translation>ZeRO 在数据并行的 GPU 之间分区；只有一个 GPU 时不节省显存</translation>
    </message>
    <message>
        <source>FP8 training needs FP8 tensor cores (compute capability 8.9 or later)</source>
        <translation>FP8 训练需要 FP8 张量核心（计算能力 8.9 或更高）</translation>
    </message>
    <message>
        <source>What-if from the explainer: 392 GB/s. The datasheet figure is 336 GB/s (192-bit × 14 Gbps / 8).</source>
        <translation>讲解文章假设的带宽：392 GB/s。规格书数值为 336 GB/s（192 位 × 14 Gbps / 8）。</translation>
    </message>
    <message>
        <source>laptop</source>
        <translation>笔记本</translation>
    </message>
    <message>
        <source>desktop</source>
        <translation>台式机</translation>
    </message>
    <message>
        <source>workstation</source>
        <translation>工作站</translation>
    </message>
    <message>
        <source>data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <source>Train in pure BF16 (model.to(torch.bfloat16))</source>
        <translation>以纯 BF16 训练（model.to(torch.bfloat16)）</translation>
    </message>
    <message>
        <source>Use fused AdamW (torch.optim.AdamW(fused=True))</source>
        <translation>使用融合 AdamW（torch.optim.AdamW(fused=True)）</translation>
    </message>
    <message>
        <source>Paged AdamW (bitsandbytes)</source>
        <translation>分页 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>Paged 8-bit AdamW (bitsandbytes)</source>
        <translation>分页 8 位 AdamW（bitsandbytes）</translation>
    </message>
    <message>
        <source>The paged optimizer&apos;s %1 of states live in unified memory: the peak leaves them out; they use the room left on the GPU and are paged over PCIe when there is none (not in the step time)</source>
        <translation>分页优化器的 %1 状态位于统一内存：峰值不含它们；它们占用 GPU 上剩余的空间，空间不足时经 PCIe 换页（步时间未计入）</translation>
    </message>
    <message>
        <source>The sequence (%1 tokens) is longer than the model&apos;s positions: learned positions have no embedding beyond them, rotary ones need scaling</source>
        <translation>序列（%1 个词元）超出模型的位置数：学习式位置编码在其之外没有嵌入，旋转位置编码需要缩放</translation>
    </message>
    <message>
        <source>A micro-batch of %1 is far beyond any training run&apos;s; check the setting</source>
        <translation>微批次 %1 远超任何实际训练的设置，请检查</translation>
    </message>
    <message>
        <source>Train LoRA adapters instead of every weight (peft.LoraConfig, r = %1)</source>
        <translation>只训练 LoRA 适配器，不训练全部权重（peft.LoraConfig，秩 r = %1）</translation>
    </message>
    <message>
        <source>Train LoRA over a 4-bit NF4 base (QLoRA, bitsandbytes)</source>
        <translation>在 4 位 NF4 量化的基座上训练 LoRA（QLoRA，bitsandbytes）</translation>
    </message>
    <message>
        <source>Sequence classification</source>
        <translation>序列分类</translation>
    </message>
    <message>
        <source>Token classification</source>
        <translation>词元分类</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>Freeze layers</source>
        <translation>冻结层</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>DoRA</source>
        <translation>DoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>fused qkv (PEFT default)</source>
        <translation>融合的 qkv（PEFT 默认）</translation>
    </message>
    <message>
        <source>q, v (PEFT default)</source>
        <translation>q、v（PEFT 默认）</translation>
    </message>
    <message>
        <source>all linear layers</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <source>Outputs in flight, activation gradients, gathered ZeRO-3 layers, optimizer temporaries, cuDNN workspaces, the input batch.</source>
        <translation>传递中的输出、激活值梯度、ZeRO-3 聚合的层、优化器临时张量、cuDNN 工作区、输入批次。</translation>
    </message>
    <message>
        <source>CUDA context, cuBLAS workspaces and caching-allocator slack.</source>
        <translation>CUDA 上下文、cuBLAS 工作区以及缓存分配器的空余。</translation>
    </message>
    <message>
        <source>Keep outputs (output = model(x))</source>
        <translation>保留输出（output = model(x)）</translation>
    </message>
    <message>
        <source>Drop outputs (HF Trainer)</source>
        <translation>丢弃输出（HF Trainer）</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>memory-efficient</source>
        <translation>内存高效</translation>
    </message>
    <message>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <source>math</source>
        <translation>math（数学）</translation>
    </message>
    <message>
        <source>Micro-batch %1 with %2 accumulation steps (global batch %3)</source>
        <translation>微批次 %1，梯度累积 %2 步（全局批次 %3）</translation>
    </message>
    <message>
        <source>Micro-batch %1 without accumulation (global batch %1)</source>
        <translation>微批次 %1，不做梯度累积（全局批次 %1）</translation>
    </message>
    <message>
        <source>What-if set in the window</source>
        <translation>在窗口中设置的假设值</translation>
    </message>
    <message>
        <source>no SDPA before torch 2.0</source>
        <translation>torch 2.0 之前没有 SDPA</translation>
    </message>
    <message>
        <source>BF16 before sm80</source>
        <translation>sm80 之前的 BF16</translation>
    </message>
    <message>
        <source>this dtype</source>
        <translation>此数据类型</translation>
    </message>
    <message>
        <source>an attention mask</source>
        <translation>注意力掩码</translation>
    </message>
    <message>
        <source>head dim %1</source>
        <translation>头维度 %1</translation>
    </message>
    <message>
        <source>compute capability %1.%2</source>
        <translation>计算能力 %1.%2</translation>
    </message>
    <message>
        <source>training with head dim %1 on sm86-sm89</source>
        <translation>在 sm86–sm89 上以头维度 %1 训练</translation>
    </message>
    <message>
        <source>grouped-query attention</source>
        <translation>分组查询注意力</translation>
    </message>
    <message>
        <source>dropout %1 (cuDNN takes multiples of 1/16)</source>
        <translation>dropout %1（cuDNN 只接受 1/16 的倍数）</translation>
    </message>
    <message>
        <source>dropout on the CPU</source>
        <translation>CPU 上的 dropout</translation>
    </message>
    <message>
        <source>%1 with %2</source>
        <translation>%1，且 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>cuDNN first on sm90/sm100 from torch 2.9</source>
        <translation>自 torch 2.9 起在 sm90/sm100 上优先 cuDNN</translation>
    </message>
    <message>
        <source>the CPU&apos;s first choice</source>
        <translation>CPU 的首选</translation>
    </message>
    <message>
        <source>first in PyTorch&apos;s order</source>
        <translation>PyTorch 顺序中的第一个</translation>
    </message>
    <message>
        <source>Selective checkpointing recomputes the attention scores, and this model has no attention: memory and time are as without checkpointing</source>
        <translation>选择性检查点重计算的是注意力分数，而这个模型没有注意力：显存和时间都与不用检查点相同</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <comment>a file, its field that is wrong, and why (in English)</comment>
        <translation>%1 中的字段 %2 有误（英文说明）：%3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a file or a field, and what is wrong with it (in English)</comment>
        <translation>%1 有误（英文说明）：%2</translation>
    </message>
    <message>
        <source>Selective checkpointing recomputes the attention scores, and SDPA&apos;s %1 kernel saves none: memory and time are as without checkpointing; full checkpointing recomputes whole blocks</source>
        <translation>选择性检查点重计算的是注意力分数，而 SDPA 的 %1 内核不保存分数：显存和时间都与不用检查点相同；完整检查点会重计算整个块</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Headroom</source>
        <translation>Headroom</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open E&amp;xample</source>
        <translation>打开示例(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation>打开场景(&amp;O)…</translation>
    </message>
    <message>
        <source>Ctrl+O</source>
        <translation>Ctrl+O</translation>
    </message>
    <message>
        <source>&amp;Save Scenario As…</source>
        <translation>场景另存为(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+S</source>
        <translation>Ctrl+S</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export Re&amp;port (PDF)…</source>
        <translation>导出报告（PDF）(&amp;P)…</translation>
    </message>
    <message>
        <source>Export &amp;Breakdown (CSV)…</source>
        <translation>导出明细（CSV）(&amp;B)…</translation>
    </message>
    <message>
        <source>Export Result (&amp;JSON)…</source>
        <translation>导出结果（JSON）(&amp;J)…</translation>
    </message>
    <message>
        <source>&amp;Import Model (config.json)…</source>
        <translation>导入模型（config.json）(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>New or Edit Mo&amp;del…</source>
        <translation>新建或编辑模型(&amp;D)…</translation>
    </message>
    <message>
        <source>New or Edit &amp;GPU…</source>
        <translation>新建或编辑 GPU(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Copy Figure</source>
        <translation>复制图表(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Compare with a &amp;Baseline</source>
        <translation>与基线比较(&amp;B)</translation>
    </message>
    <message>
        <source>Pin the current scenario; the charts then show it beside every change</source>
        <translation>固定当前场景；此后每次改动，图表都会把它并排显示</translation>
    </message>
    <message>
        <source>Ctrl+B</source>
        <translation>Ctrl+B</translation>
    </message>
    <message>
        <source>Compare &amp;GPUs…</source>
        <translation>比较 GPU(&amp;G)…</translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <source>Guided &amp;Tour</source>
        <translation>引导教程(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <source>Reset to the &amp;Default Scenario</source>
        <translation>重置为默认场景(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>F11</source>
        <translation>F11</translation>
    </message>
    <message>
        <source>&amp;Explain Panel</source>
        <translation>解释面板(&amp;E)</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>&amp;About Headroom</source>
        <translation>关于 Headroom(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Next Pair of Charts</source>
        <translation>下一组图表(&amp;N)</translation>
    </message>
    <message>
        <source>In presentation mode: show the next two charts</source>
        <translation>演示模式下：显示接下来的两张图表</translation>
    </message>
    <message>
        <source>F10</source>
        <translation>F10</translation>
    </message>
    <message>
        <source>&amp;Serving (Inference)…</source>
        <translation>推理部署(&amp;S)…</translation>
    </message>
    <message>
        <source>The model served on this GPU: weights as stored, KV cache, largest batch and context, tokens per second</source>
        <translation>在这块 GPU 上部署模型：按存储格式的权重、KV 缓存、最大批大小与上下文、每秒词元数</translation>
    </message>
    <message>
        <source>Ctrl+Shift+I</source>
        <translation>Ctrl+Shift+I</translation>
    </message>
    <message>
        <source>&amp;Colours</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Compare with a &amp;Measurement (headroom-probe)…</source>
        <translation>与实测结果对比(&amp;M)（headroom-probe）…</translation>
    </message>
    <message>
        <source>Open a .headroom-measured.json that headroom-probe wrote on a GPU: the window takes its scenario, and the verdict states what was measured against what is predicted</source>
        <translation>打开 headroom-probe 在 GPU 上写出的 .headroom-measured.json：窗口采用其场景，结论中并列实测值与预测值</translation>
    </message>
    <message>
        <source>Scal&amp;ing over GPUs…</source>
        <translation>多 GPU 扩展(&amp;I)…</translation>
    </message>
    <message>
        <source>Throughput and memory per GPU from 1 to 1024 GPUs, over PCIe and NVLink: where communication eats the gain</source>
        <translation>1 到 1024 个 GPU 时每个 GPU 的吞吐量和显存，分别经 PCIe 和 NVLink：通信在哪里吃掉了收益</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>Plan a &amp;Multi-GPU Layout…</source>
        <translation>规划多 GPU 布局(&amp;M)…</translation>
    </message>
    <message>
        <source>Every layout of tensor, pipeline, context, expert and data parallelism, ZeRO, checkpointing and micro-batch on N GPUs, fastest first, with why the others fail</source>
        <translation>N 个 GPU 上张量、流水线、上下文、专家和数据并行，ZeRO、检查点与微批次的每种布局，最快的在前，并说明其余为何不行</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
</context>
<context>
    <name>ModelEditor</name>
    <message>
        <source>Model editor</source>
        <translation>模型编辑器</translation>
    </message>
    <message>
        <source>Based &amp;on</source>
        <translation>基于(&amp;O)</translation>
    </message>
    <message>
        <source>Start from a model in the list and change what differs</source>
        <translation>以列表中的某个模型为起点，只修改不同之处</translation>
    </message>
    <message>
        <source>&amp;Id</source>
        <translation>ID(&amp;I)</translation>
    </message>
    <message>
        <source>Lowercase letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;; also the file name</source>
        <translation>小写字母、数字、&apos;-&apos;、&apos;_&apos; 和 &apos;.&apos;；同时用作文件名</translation>
    </message>
    <message>
        <source>Na&amp;me</source>
        <translation>名称(&amp;M)</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation>层数(&amp;L)</translation>
    </message>
    <message>
        <source>Transformer blocks</source>
        <translation>Transformer 块数</translation>
    </message>
    <message>
        <source>&amp;Hidden size</source>
        <translation>隐藏维度(&amp;H)</translation>
    </message>
    <message>
        <source>Attention h&amp;eads</source>
        <translation>注意力头数(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;KV heads</source>
        <translation>KV 头数(&amp;K)</translation>
    </message>
    <message>
        <source>Key/value heads: equal to the heads for multi-head attention, fewer for grouped-query attention, 1 for multi-query</source>
        <translation>键/值头数：多头注意力时等于注意力头数，分组查询注意力时更少，多查询注意力时为 1</translation>
    </message>
    <message>
        <source>Head &amp;dim</source>
        <translation>头维度(&amp;D)</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Channels per head; auto is hidden / heads</source>
        <translation>每个头的通道数；自动即 隐藏维度 / 头数</translation>
    </message>
    <message>
        <source>&amp;FFN size</source>
        <translation>FFN 维度(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Gated FFN (SwiGLU / GeGLU)</source>
        <translation>门控 FFN（SwiGLU / GeGLU）(&amp;G)</translation>
    </message>
    <message>
        <source>act(gate(x)) * up(x): three FFN matrices instead of two</source>
        <translation>act(gate(x)) * up(x)：FFN 用三个矩阵而不是两个</translation>
    </message>
    <message>
        <source>&amp;Vocabulary</source>
        <translation>词表大小(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Max positions</source>
        <translation>最大位置数(&amp;M)</translation>
    </message>
    <message>
        <source>Rows of the learned position table; the longest sequence with learned positions</source>
        <translation>可学习位置表的行数，即使用可学习位置编码时的最长序列</translation>
    </message>
    <message>
        <source>Default &amp;sequence</source>
        <translation>默认序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>Sequence length the window starts with for this model</source>
        <translation>选中此模型时窗口采用的初始序列长度</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>&amp;Norm</source>
        <translation>归一化(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Activation</source>
        <translation>激活函数(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Positions</source>
        <translation>位置编码(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Output head</source>
        <translation>输出头(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Classes</source>
        <translation>类别数(&amp;C)</translation>
    </message>
    <message>
        <source>Outputs of a classifier head</source>
        <translation>分类头的输出数</translation>
    </message>
    <message>
        <source>&amp;Tied embeddings</source>
        <translation>绑定嵌入(&amp;T)</translation>
    </message>
    <message>
        <source>The output projection reuses the token embedding matrix</source>
        <translation>输出投影复用词元嵌入矩阵</translation>
    </message>
    <message>
        <source>Dr&amp;opout</source>
        <translation>Dropout 概率(&amp;O)</translation>
    </message>
    <message>
        <source>On embeddings, attention probabilities and residual branches</source>
        <translation>作用于嵌入、注意力概率和残差分支</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Compare with &amp;checkpoint...</source>
        <translation>与检查点比较(&amp;C)...</translation>
    </message>
    <message>
        <source>Read the header of .safetensors files (never the weights) and compare their parameter count</source>
        <translation>读取 .safetensors 文件的头部（从不读取权重），并比较其参数量</translation>
    </message>
    <message>
        <source>&amp;Import...</source>
        <translation>导入(&amp;I)...</translation>
    </message>
    <message>
        <source>Load a Hugging Face config.json (or its checkpoint directory) or a Headroom model file into the editor</source>
        <translation>将 Hugging Face 的 config.json（或其检查点目录）或 Headroom 模型文件载入编辑器</translation>
    </message>
    <message>
        <source>&amp;Export...</source>
        <translation>导出(&amp;E)...</translation>
    </message>
    <message>
        <source>Write this model as a JSON file to share</source>
        <translation>将此模型写成 JSON 文件以便分享</translation>
    </message>
    <message>
        <source>&amp;Delete saved</source>
        <translation>删除已保存项(&amp;D)</translation>
    </message>
    <message>
        <source>Delete your saved model with this id</source>
        <translation>删除你以此 ID 保存的模型</translation>
    </message>
</context>
<context>
    <name>OverrideGroup</name>
    <message>
        <source>What-if overrides</source>
        <translation>假设覆盖值</translation>
    </message>
    <message>
        <source>What-if: give this GPU another memory capacity than its datasheet figure.</source>
        <translation>假设：给这张 GPU 设定不同于数据手册的显存容量。</translation>
    </message>
    <message>
        <source>Capacit&amp;y</source>
        <translation>容量(&amp;Y)</translation>
    </message>
    <message>
        <source>The memory capacity to assume instead of the datasheet figure, in GiB.</source>
        <translation>代替数据手册数值的假设显存容量，单位 GiB。</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>What-if: another memory bandwidth than the datasheet figure (the explainer assumes 392 GB/s for the RTX A3000, whose datasheet gives 336 GB/s).</source>
        <translation>假设：不同于数据手册的显存带宽（讲解文章为 RTX A3000 假设了 392 GB/s，而数据手册给出的是 336 GB/s）。</translation>
    </message>
    <message>
        <source>Ba&amp;ndwidth</source>
        <translation>带宽(&amp;N)</translation>
    </message>
    <message>
        <source>The memory bandwidth to assume instead of the datasheet figure, in GB/s: the roofline&apos;s slope and every memory-bound kernel&apos;s time.</source>
        <translation>代替数据手册数值的假设显存带宽，单位 GB/s：决定屋顶线的斜坡和每个访存受限内核的时间。</translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <source>What-if: another peak FLOP/s, for the precision the step computes in, than the datasheet figure.</source>
        <translation>假设：对训练步所用的精度，采用不同于数据手册的峰值 FLOP/s。</translation>
    </message>
    <message>
        <source>Pea&amp;k</source>
        <translation>峰值(&amp;K)</translation>
    </message>
    <message>
        <source>The peak FLOP/s to assume instead of the datasheet figure for the precision in use, in TFLOP/s: the roofline&apos;s roof and every compute-bound kernel&apos;s time.</source>
        <translation>代替数据手册中当前精度峰值的假设值，单位 TFLOP/s：决定屋顶线的屋顶和每个计算受限内核的时间。</translation>
    </message>
    <message>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <source>Ove&amp;rhead</source>
        <translation>开销(&amp;R)</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>CUDA context and library workspaces (cuBLAS, cuDNN) that torch.cuda.memory_allocated does not count; the default comes from the GPU&apos;s generation.</source>
        <translation>torch.cuda.memory_allocated 不计入的 CUDA 上下文和库工作区（cuBLAS、cuDNN）；默认值取决于 GPU 的代际。</translation>
    </message>
</context>
<context>
    <name>ParallelGroup</name>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>&amp;ZeRO stage</source>
        <translation>ZeRO 阶段(&amp;Z)</translation>
    </message>
    <message>
        <source>ZeRO stage over the data-parallel GPUs (DeepSpeed zero_optimization.stage): 0 none (torch DDP), 1 optimizer states partitioned, 2 and the gradients (FSDP SHARD_GRAD_OP), 3 and the parameters (FSDP FULL_SHARD).</source>
        <translation>在数据并行 GPU 之间的 ZeRO 阶段（DeepSpeed zero_optimization.stage）：0 不切分（torch DDP），1 切分优化器状态，2 再切分梯度（FSDP SHARD_GRAD_OP），3 再切分参数（FSDP FULL_SHARD）。</translation>
    </message>
    <message>
        <source>&amp;Data-parallel GPUs</source>
        <translation>数据并行 GPU 数(&amp;D)</translation>
    </message>
    <message>
        <source>Data-parallel GPUs that ZeRO partitions over (logarithmic, 1 to 1024): the world size of torchrun --nproc_per_node times the nodes, or DeepSpeed&apos;s.</source>
        <translation>ZeRO 在其间切分的数据并行 GPU 数（对数刻度，1 到 1024）：torchrun 的 --nproc_per_node 乘以节点数，即 world size，DeepSpeed 亦同。</translation>
    </message>
    <message>
        <source>Data-parallel GPUs: the world size (torchrun --nnodes x --nproc_per_node); ZeRO partitions over them and each processes its own micro-batch.</source>
        <translation>数据并行 GPU 数：world size（torchrun --nnodes x --nproc_per_node）；ZeRO 在它们之间切分，每张 GPU 处理自己的微批次。</translation>
    </message>
    <message>
        <source>Tensor-parallel GPUs per repl&amp;ica</source>
        <translation>每个副本的张量并行 GPU 数(&amp;I)</translation>
    </message>
    <message>
        <source>Megatron-LM tensor parallelism (--tensor-model-parallel-size): each GPU holds 1/t of the attention heads, the FFN and the vocabulary, and all-reduces activations in every layer. The job uses data-parallel × tensor-parallel × pipeline GPUs.</source>
        <translation>Megatron-LM 张量并行（--tensor-model-parallel-size）：每张 GPU 持有 1/t 的注意力头、FFN 和词表，并在每一层对激活做 all-reduce。整个任务使用 数据并行 × 张量并行 × 流水线 张 GPU。</translation>
    </message>
    <message>
        <source>Megatron-LM sequence parallelism (--sequence-parallel) with tensor parallelism: the norms, dropouts and residual adds run on 1/t of the tokens per GPU, so their activations shrink t-fold; the all-reduces become all-gathers and reduce-scatters of the same volume.</source>
        <translation>Megatron-LM 序列并行（--sequence-parallel），与张量并行一起使用：归一化、dropout 和残差相加在每个 GPU 上只处理 1/t 的词元，其激活缩小 t 倍；all-reduce 变为同等通信量的 all-gather 和 reduce-scatter。</translation>
    </message>
    <message>
        <source>Sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>Megatron-LM pipeline parallelism (--pipeline-model-parallel-size): each stage holds a share of the blocks, the first also the embeddings, the last the head. Gradient accumulation steps are the micro-batches each step runs through the pipeline. The job uses data-parallel × tensor-parallel × pipeline GPUs.</source>
        <translation>Megatron-LM 流水线并行（--pipeline-model-parallel-size）：每个阶段持有一部分块，第一个阶段另有嵌入层，最后一个阶段另有输出头。梯度累积步数就是每步流经流水线的微批次数。整个任务使用 数据并行 × 张量并行 × 流水线 张 GPU。</translation>
    </message>
    <message>
        <source>How the pipeline orders its micro-batches: 1F1B (PipeDream-Flush, Megatron&apos;s default) holds at most p − s micro-batches on stage s; GPipe runs every forward first and holds all of them; interleaved (two model chunks per stage) halves the bubble and holds a little more.</source>
        <translation>流水线如何排列微批次：1F1B（PipeDream-Flush，Megatron 的默认）在阶段 s 上最多同时保留 p − s 个微批次；GPipe 先做完所有前向，要保留全部微批次；交错调度（每个阶段两个模型块）把气泡减半，但要多保留一些。</translation>
    </message>
    <message>
        <source>Blocks per stage. Even: each stage an equal share. Uneven (Megatron-LM --decoder-first-pipeline-num-layers, --decoder-last-pipeline-num-layers): fewer blocks on the first stage, which also holds the embeddings and under 1F1B the most micro-batches in flight, or on the last, which holds the head; the stages between share the rest equally.</source>
        <translation>每个阶段的块数。均分：每个阶段一样多。不均分（Megatron-LM --decoder-first-pipeline-num-layers、--decoder-last-pipeline-num-layers）：第一阶段少放几块（它还持有嵌入层，在 1F1B 下同时持有最多的在途微批次），或最后阶段少放几块（它持有输出头）；中间各阶段平分其余的块。</translation>
    </message>
    <message>
        <source>E&amp;xpert-parallel GPUs</source>
        <translation>专家并行 GPU 数(&amp;X)</translation>
    </message>
    <message>
        <source>Megatron-LM expert parallelism (--expert-model-parallel-size), for mixture-of-experts models: the routed experts are split over this many of the data-parallel GPUs, each keeping the dense layers whole and its share of the experts; the tokens travel to their experts and back in all-to-alls in every MoE layer. Must divide the data-parallel GPUs and the experts.</source>
        <translation>Megatron-LM 专家并行（--expert-model-parallel-size），用于混合专家（MoE）模型：路由专家分布在这么多个数据并行 GPU 上，每个 GPU 保留完整的稠密层和自己那一份专家；每个 MoE 层中，词元通过 all-to-all 发往其专家并返回。必须整除数据并行 GPU 数和专家数。</translation>
    </message>
    <message>
        <source>Context-parallel GPUs</source>
        <translation>上下文并行 GPU 数</translation>
    </message>
    <message>
        <source>Megatron-LM context parallelism (--context-parallel-size) for long sequences: each GPU holds 1/cp of every sequence, so activations shrink cp-fold, while keys and values pass round a ring of the cp GPUs beside the attention kernels. Needs fused attention and 2 × cp dividing the tokens. The job uses data-parallel × tensor-parallel × pipeline × context GPUs.</source>
        <translation>Megatron-LM 上下文并行（--context-parallel-size），用于长序列：每个 GPU 持有每个序列的 1/cp，激活缩小 cp 倍；键和值在 cp 个 GPU 组成的环上传递，与注意力内核并行。需要融合注意力，且 2 × cp 整除词元数。作业使用数据并行 × 张量并行 × 流水线 × 上下文个 GPU。</translation>
    </message>
    <message>
        <source>Memory of</source>
        <translation>显存显示</translation>
    </message>
    <message>
        <source>Which pipeline stage the memory charts and the verdict show: the most loaded (the highest peak), or one stage (Megatron&apos;s first stage under 1F1B, unless the head&apos;s logits weigh more). Step time and throughput are always the whole pipeline&apos;s.</source>
        <translation>显存图和结论显示哪个流水线阶段：负载最重的阶段（峰值最高；1F1B 下通常是 Megatron 的第一个阶段，除非输出头的 logits 更重），或指定某个阶段。每步时间和吞吐量始终是整条流水线的。</translation>
    </message>
    <message>
        <source>ZeRO-Offload: the optimizer states and the update on the CPU, DeepSpeed zero_optimization.offload_optimizer {&quot;device&quot;: &quot;cpu&quot;}. Saves their GPU memory; costs PCIe traffic and host time in every step.</source>
        <translation>ZeRO-Offload：优化器状态和参数更新放在 CPU 上，即 DeepSpeed zero_optimization.offload_optimizer {&quot;device&quot;: &quot;cpu&quot;}。省下它们占用的显存；代价是每步的 PCIe 传输和主机计算时间。</translation>
    </message>
    <message>
        <source>Off&amp;load optimizer (ZeRO-Offload)</source>
        <translation>卸载优化器（ZeRO-Offload）(&amp;L)</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>GPUs in each node (torchrun --nproc_per_node). A collective whose ranks span more than a node runs at the slower of the link between nodes and the node&apos;s own. 0: every GPU of the job in one node.</source>
        <translation>每个节点的 GPU 数（torchrun --nproc_per_node）。跨越多个节点的集合通信以节点间链路和节点内链路中较慢者的速度运行。0：作业的所有 GPU 都在一个节点内。</translation>
    </message>
    <message>
        <source>The link inside a node that torch.distributed&apos;s NCCL collectives run over, as nccl-tests measures it (all-reduce bus bandwidth): PCIe through host memory (GeForce cards without peer-to-peer, or NCCL_P2P_DISABLE=1), PCIe 4 or 5 with peer-to-peer, an NVLink bridge, NVLink with NVSwitch. Auto: what the GPU file says: its NVLink where the group fits on it (the measured figure of the same system where there is one), else its PCIe, through host memory when the file says the cards have no peer-to-peer.</source>
        <translation>torch.distributed 的 NCCL 集合通信在节点内使用的链路，按 nccl-tests 的测量（all-reduce 总线带宽）：经主机内存的 PCIe（无点对点的 GeForce 显卡，或 NCCL_P2P_DISABLE=1）、带点对点的 PCIe 4 或 5、NVLink 桥、带 NVSwitch 的 NVLink。自动：按 GPU 文件：组能放进其 NVLink 时用 NVLink（有同一系统的实测值时用实测值），否则用其 PCIe；文件说明显卡之间没有点对点时经主机内存。</translation>
    </message>
    <message>
        <source>The link between nodes that torch.distributed&apos;s NCCL uses (NCCL_IB_HCA, NCCL_SOCKET_IFNAME), per GPU at line rate: 100 Gb/s Ethernet, InfiniBand HDR (200 Gb/s) or NDR (400 Gb/s). Auto: InfiniBand HDR.</source>
        <translation>torch.distributed 的 NCCL 在节点间使用的链路（NCCL_IB_HCA、NCCL_SOCKET_IFNAME），每 GPU 线速：100 Gb/s 以太网、InfiniBand HDR（200 Gb/s）或 NDR（400 Gb/s）。自动：InfiniBand HDR。</translation>
    </message>
</context>
<context>
    <name>PdfReport</name>
    <message>
        <source>recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>image side</source>
        <translation>图像边长</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>What would help:</source>
        <translation>可行的改动：</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>峰值时</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 容量</translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Forward and backward × %1</source>
        <translation>前向与反向 × %1</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>未被重叠的通信</translation>
    </message>
    <message>
        <source>Host offload</source>
        <translation>主机卸载</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>整步</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Model FLOPs per step and GPU</source>
        <translation>每步每 GPU 的模型 FLOPs</translation>
    </message>
    <message>
        <source>MFU (%1)</source>
        <translation>MFU（%1）</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>参考来源</translation>
    </message>
    <message>
        <source>Headroom %1 report, %2</source>
        <translation>Headroom %1 报告，%2</translation>
    </message>
    <message>
        <source>Memory model: a simulation of the PyTorch eager training step (saved tensors, autocast casts, allocator lifetimes); its saved activations match PyTorch measurements byte for byte for BERT, GPT-2, Llama and torchvision models (docs/accuracy.md), its model states the ZeRO paper&apos;s tables (docs/formulas.md).</source>
        <translation>显存模型：对 PyTorch eager 训练步的模拟（保存的张量、autocast 类型转换、分配器中张量的生命周期）；其保存的激活值与 BERT、GPT-2、Llama 和 torchvision 模型的 PyTorch 实测逐字节一致（docs/accuracy.md），模型状态与 ZeRO 论文的表格一致（docs/formulas.md）。</translation>
    </message>
    <message>
        <source>Largest</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Largest: each category at its own largest during the step. These do not happen at the same time, so they add up to more than the peak.</source>
        <translation>最大值：每一类在一步训练中各自的最大占用。它们并不同时出现，所以相加会超过峰值。</translation>
    </message>
    <message>
        <source>Host-bound: GPU busy</source>
        <translation>受主机限制：GPU 忙碌</translation>
    </message>
    <message>
        <source>GPU-bound: GPU busy</source>
        <translation>受 GPU 限制：GPU 忙碌</translation>
    </message>
    <message>
        <source>Host issuing the operators</source>
        <translation>主机下发算子</translation>
    </message>
    <message>
        <source>Peak in the %1 of %2 (%3). Longest %4 that fits at this micro-batch: %5.</source>
        <translation>峰值位于%2的%1（%3）。在此微批次下放得下的%4上限：%5。</translation>
    </message>
    <message>
        <source>Needed (the verdict&apos;s figure)</source>
        <translation>需要（结论所用的数值）</translation>
    </message>
</context>
<context>
    <name>PrecisionGroup</name>
    <message>
        <source>Precision and optimizer</source>
        <translation>精度与优化器</translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <source>Number format of the step: FP32; TF32 (torch.backends.cuda.matmul.allow_tf32 = True); mixed FP16 or BF16 (torch.autocast, with torch.cuda.amp.GradScaler for FP16); pure BF16 (model.to(torch.bfloat16)); FP8 (Transformer Engine te.fp8_autocast).</source>
        <translation>训练步的数值格式：FP32；TF32（torch.backends.cuda.matmul.allow_tf32 = True）；FP16 或 BF16 混合精度（torch.autocast，FP16 另配 torch.cuda.amp.GradScaler）；纯 BF16（model.to(torch.bfloat16)）；FP8（Transformer Engine te.fp8_autocast）。</translation>
    </message>
    <message>
        <source>&amp;Weights</source>
        <translation>权重(&amp;W)</translation>
    </message>
    <message>
        <source>Where mixed precision keeps its weights: FP32 weights with 16-bit copies cast by torch.autocast, or 16-bit weights with an FP32 master copy in the optimizer, as DeepSpeed (&quot;bf16&quot;: {&quot;enabled&quot;: true}) and Megatron do.</source>
        <translation>混合精度把权重放在哪里：FP32 权重，由 torch.autocast 转出 16 位副本；或者 16 位权重，由优化器保存一份 FP32 主权重，即 DeepSpeed（&quot;bf16&quot;: {&quot;enabled&quot;: true}）和 Megatron 的做法。</translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <source>The optimizer and its states per parameter: torch.optim.AdamW / Adam (two FP32 states), SGD (none, or momentum), bitsandbytes bnb.optim.AdamW8bit (8-bit states), transformers Adafactor (factored), and the paged variants (bnb.optim.PagedAdamW) in unified memory.</source>
        <translation>优化器及其每个参数的状态：torch.optim.AdamW / Adam（两个 FP32 状态）、SGD（无状态，或动量）、bitsandbytes 的 bnb.optim.AdamW8bit（8 位状态）、transformers 的 Adafactor（分解的状态），以及放在统一内存中的分页版本（bnb.optim.PagedAdamW）。</translation>
    </message>
    <message>
        <source>&amp;Checkpointing</source>
        <translation>激活检查点(&amp;C)</translation>
    </message>
    <message>
        <source>Activation checkpointing: none; selective, the attention core recomputed (Megatron --recompute-granularity selective); or every block, torch.utils.checkpoint around each layer (HF model.gradient_checkpointing_enable()).</source>
        <translation>激活检查点：不用；选择性，重计算注意力核心（Megatron --recompute-granularity selective）；或每个块，在每层外包一层 torch.utils.checkpoint（HF model.gradient_checkpointing_enable()）。</translation>
    </message>
    <message>
        <source>A&amp;ttention</source>
        <translation>注意力(&amp;T)</translation>
    </message>
    <message>
        <source>Attention kernel: eager keeps the softmax matrix for backward (HF attn_implementation=&quot;eager&quot;); fused saves only its log-sum-exp, torch.nn.functional.scaled_dot_product_attention or FlashAttention (attn_implementation=&quot;sdpa&quot;).</source>
        <translation>注意力内核：eager 为反向保存 softmax 矩阵（HF attn_implementation=&quot;eager&quot;）；融合内核只保存 log-sum-exp，即 torch.nn.functional.scaled_dot_product_attention 或 FlashAttention（attn_implementation=&quot;sdpa&quot;）。</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>训练循环</translation>
    </message>
    <message>
        <source>The training loop around the step. Keep outputs: output = model(x); loss = loss_fn(output, y); loss.backward(), as the torch tutorials and accelerate&apos;s examples write it: the output (the logits) lives until backward has run. Drop outputs: loss = model(**batch).loss inside a function, as the Hugging Face Trainer and Lightning run it: the output is freed after the loss.</source>
        <translation>一步训练外面的 Python 循环。保留输出：output = model(x); loss = loss_fn(output, y); loss.backward()，PyTorch 教程和 accelerate 示例都这样写：模型输出（logits）一直存活到反向传播结束。丢弃输出：在函数内 loss = model(**batch).loss，Hugging Face Trainer 和 Lightning 这样运行：计算完损失后输出即被释放。</translation>
    </message>
    <message>
        <source>model.to(memory_format=torch.channels_last) and the same for each input batch: cuDNN&apos;s tensor-core convolutions work in NHWC, so on PyTorch&apos;s default NCHW tensors each convolution transposes its operands in and back out (MosaicML: channels_last speeds ResNet-50 up by about 30 % on V100 and A100). Time only; no effect on the vector units.</source>
        <translation>model.to(memory_format=torch.channels_last)，每个输入批次也如此：cuDNN 的张量核心卷积在 NHWC 下运行，因此在 PyTorch 默认的 NCHW 张量上，每个卷积都要把操作数转置进去再转回来（MosaicML：channels_last 让 ResNet-50 在 V100 和 A100 上快约 30%）。只影响时间；对向量单元没有影响。</translation>
    </message>
    <message>
        <source>Channels last (NHWC convolutions)</source>
        <translation>Channels last（NHWC 卷积）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Headroom: GPU memory and bandwidth of a training step. Run `headroom --help` for the headless commands.</source>
        <translation>Headroom：训练步的显存与带宽。运行 `headroom --help` 查看无界面命令。</translation>
    </message>
    <message>
        <source>Open a scenario file.</source>
        <translation>打开场景文件。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Start in presentation mode.</source>
        <translation>以演示模式启动。</translation>
    </message>
    <message>
        <source>Render the window to a PNG file and quit.</source>
        <translation>将窗口渲染为 PNG 文件后退出。</translation>
    </message>
    <message>
        <source>Window size, e.g. 1280x720.</source>
        <translation>窗口尺寸，例如 1280x720。</translation>
    </message>
    <message>
        <source>WxH</source>
        <translation>宽x高</translation>
    </message>
    <message>
        <source>User interface language: en or zh_CN (default: the system&apos;s).</source>
        <translation>界面语言：en 或 zh_CN（默认跟随系统）。</translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Some data files were skipped: %1</source>
        <translation>跳过了部分数据文件：%1</translation>
    </message>
    <message>
        <source>Ignored the saved scenario: %1</source>
        <translation>已忽略保存的场景：%1</translation>
    </message>
    <message>
        <source>Start the guided tour at this step (1 is the first).</source>
        <translation>从这一步开始导览（第一步为 1）。</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Colour scheme: system, light or dark (default: the one chosen in View &gt; Colours).</source>
        <translation>配色方案：system（跟随系统）、light（浅色）或 dark（深色）（默认：“视图 › 配色”中的选择）。</translation>
    </message>
</context>
<context>
    <name>ScenarioText</name>
    <message>
        <source>Fits: reserved and context %1 of %2, %3 free</source>
        <translation>放得下：预留与上下文 %1 / %2，剩余 %3</translation>
    </message>
    <message>
        <source>Does not fit: reserved and context %1 of %2, %3 over</source>
        <translation>放不下：预留与上下文 %1 / %2，超出 %3</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>在 %2 上训练 %1</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>image %1×%1 px</source>
        <translation>图像 %1×%1 px</translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation>序列长度 %1</translation>
    </message>
    <message>
        <source>ZeRO stage %1</source>
        <translation>ZeRO 阶段 %1</translation>
    </message>
    <message>
        <source>1 GPU</source>
        <translation>1 个 GPU</translation>
    </message>
    <message>
        <source>%1 data-parallel GPUs</source>
        <translation>%1 个数据并行 GPU</translation>
    </message>
    <message>
        <source>optimizer offloaded to the host</source>
        <translation>优化器卸载到主机</translation>
    </message>
    <message>
        <source>no activation checkpointing</source>
        <translation>无激活检查点</translation>
    </message>
    <message>
        <source>checkpointing: %1</source>
        <translation>激活检查点：%1</translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation>注意力：%1</translation>
    </message>
    <message>
        <source>%1 accumulation steps</source>
        <translation>梯度累积 %1 步</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>bandwidth %1 (datasheet %2)</source>
        <translation>带宽 %1（规格书 %2）</translation>
    </message>
    <message>
        <source>%1 peak %2</source>
        <translation>%1 峰值 %2</translation>
    </message>
    <message>
        <source>What-if: %1</source>
        <translation>假设：%1</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Fits: peak %1 of %2, %3 free</source>
        <translation>放得下：峰值 %1 / %2，剩余 %3</translation>
    </message>
    <message>
        <source>Does not fit: peak %1 of %2, %3 over</source>
        <translation>放不下：峰值 %1 / %2，超出 %3</translation>
    </message>
    <message>
        <source>%1 · largest micro-batch %2 · step %3 · %4 · MFU %5</source>
        <translation>%1 · 最大微批次 %2 · 每步 %3 · %4 · MFU %5</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 容量</translation>
    </message>
    <message>
        <source>every layer frozen, the head trains</source>
        <translation>所有层冻结，只训练输出头</translation>
    </message>
    <message>
        <source>first %1 layers frozen</source>
        <translation>冻结前 %1 层</translation>
    </message>
    <message>
        <source>%1 rank %2 on %3</source>
        <translation>%1，秩 %2，目标模块：%3</translation>
    </message>
    <message>
        <source>, dropout %1</source>
        <translation>，dropout %1</translation>
    </message>
    <message>
        <source>Measured on %1 for another scenario (%2): not compared</source>
        <translation>在 %1 上实测的是另一场景（%2）：不作对比</translation>
    </message>
    <message>
        <source>peak allocated %1 (predicted %2)</source>
        <translation>峰值已分配 %1（预测偏差 %2）</translation>
    </message>
    <message>
        <source>reserved %1 (predicted %2)</source>
        <translation>已保留 %1（预测偏差 %2）</translation>
    </message>
    <message>
        <source>saved activations %1 (predicted %2)</source>
        <translation>保存的激活值 %1（预测偏差 %2）</translation>
    </message>
    <message>
        <source>step %1 on the CPU (not compared)</source>
        <translation>CPU 上每步 %1（不作比较）</translation>
    </message>
    <message>
        <source>step %1 (predicted %2)</source>
        <translation>每步 %1（预测偏差 %2）</translation>
    </message>
    <message>
        <source>Measured on %1 (torch %2): %3</source>
        <translation>在 %1 上实测（torch %2）：%3</translation>
    </message>
    <message>
        <source>none, even at batch 1</source>
        <translation>无，批次为 1 也放不下</translation>
    </message>
    <message>
        <source>saves %1, fits</source>
        <translation>节省 %1，放得下</translation>
    </message>
    <message>
        <source>saves %1, not enough alone</source>
        <translation>节省 %1，单独不够</translation>
    </message>
    <message>
        <source>%1 slower (%2)</source>
        <translation>慢 %1（%2）</translation>
    </message>
    <message>
        <source>%1 faster (%2)</source>
        <translation>快 %1（%2）</translation>
    </message>
    <message>
        <source>same speed (%1)</source>
        <translation>速度不变（%1）</translation>
    </message>
    <message>
        <source>global batch %1 instead of %2</source>
        <translation>全局批次 %1（原为 %2）</translation>
    </message>
    <message>
        <source>none, not even the shortest</source>
        <translation>无，最短的也放不下</translation>
    </message>
    <message>
        <source> (the model&apos;s limit)</source>
        <translation>（模型上限）</translation>
    </message>
    <message>
        <source>Needed (the verdict&apos;s figure)</source>
        <translation>需要（结论所用的数值）</translation>
    </message>
    <message>
        <source>PyTorch: max_memory_allocated %1 · max_memory_reserved %2 · reserved + CUDA context + %3 of NCCL buffers %4 of %5</source>
        <translation>PyTorch：max_memory_allocated %1 · max_memory_reserved %2 · 预留 + CUDA 上下文 + %3 的 NCCL 缓冲区共 %4（总量 %5）</translation>
    </message>
    <message>
        <source>PyTorch: max_memory_allocated %1 · max_memory_reserved %2 · reserved + CUDA context %3 of %4</source>
        <translation>PyTorch：max_memory_allocated %1 · max_memory_reserved %2 · 预留 + CUDA 上下文共 %3（总量 %4）</translation>
    </message>
</context>
<context>
    <name>UserData</name>
    <message>
        <source>%1: cannot create the directory</source>
        <translation>%1：无法创建目录</translation>
    </message>
    <message>
        <source>%1: cannot delete (%2)</source>
        <translation>%1：无法删除（%2）</translation>
    </message>
    <message>
        <source>%1: %2: must be a finite number, got %3</source>
        <translation>%1：%2：必须是有限数值，实际为 %3</translation>
    </message>
    <message>
        <source>Save writes %1.json into your data directory (%2), where Headroom finds it at every start.</source>
        <translation>保存会把 %1.json 写入你的数据目录（%2），Headroom 每次启动时都会从那里读取。</translation>
    </message>
    <message>
        <source>Save replaces your saved GPU in %1.</source>
        <translation>保存将替换你在 %1 中已保存的 GPU。</translation>
    </message>
    <message>
        <source>A bundled GPU has the id “%1”: yours will take its place in the GPU list. The bundled file is not changed; delete yours to get it back.</source>
        <translation>已有一个内置 GPU 的 ID 是“%1”：你的 GPU 将在 GPU 列表中取代它。内置文件不会被修改；删除你的版本即可恢复内置的。</translation>
    </message>
    <message>
        <source>Save replaces your saved model in %1.</source>
        <translation>保存将替换你在 %1 中已保存的模型。</translation>
    </message>
    <message>
        <source>A bundled model has the id “%1”: yours will take its place in the model list. The bundled file is not changed; delete yours to get it back.</source>
        <translation>已有一个内置模型的 ID 是“%1”：你的模型将在模型列表中取代它。内置文件不会被修改；删除你的版本即可恢复内置的。</translation>
    </message>
</context>
<context>
    <name>headroom::gui::BaselineTable</name>
    <message>
        <source>&lt;b&gt;Baseline:&lt;/b&gt; %1&lt;br&gt;%2</source>
        <translation>&lt;b&gt;基线：&lt;/b&gt;%1&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Free (negative: over)</source>
        <translation>剩余（负数为超出）</translation>
    </message>
    <message>
        <source>Largest micro-batch</source>
        <translation>最大微批次</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>better than the baseline</source>
        <translation>优于基线</translation>
    </message>
    <message>
        <source>worse than the baseline</source>
        <translation>劣于基线</translation>
    </message>
    <message>
        <source>Peak (+ CUDA context)</source>
        <translation>峰值（含 CUDA 上下文）</translation>
    </message>
    <message>
        <source>Needed (verdict)</source>
        <translation>所需（判定）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::BatchGroup</name>
    <message>
        <source>&amp;Image size (pixels)</source>
        <translation>图像尺寸（像素）(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Sequence length (tokens)</source>
        <translation>序列长度（词元）(&amp;S)</translation>
    </message>
</context>
<context>
    <name>headroom::gui::BatchSweepView</name>
    <message>
        <source>- - with PyTorch&apos;s allocator</source>
        <extracomment>Key of the dashed curve: what the GPU holds by the caching allocator&apos;s replay (reserved + CUDA context)</extracomment>
        <translation>- - 计入 PyTorch 分配器</translation>
    </message>
    <message>
        <source>Batch sweep</source>
        <translation>微批次扫描</translation>
    </message>
    <message>
        <source>Memory at the peak against micro-batch</source>
        <translation>峰值显存随微批次的变化</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>largest that fits: %1</source>
        <translation>放得下的最大值：%1</translation>
    </message>
    <message>
        <source>nothing fits</source>
        <translation>都放不下</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ControlPanel</name>
    <message>
        <source>%1 %2 (the control shows %3)</source>
        <translation>%1 %2（控件显示 %3）</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>image side</source>
        <translation>图像边长</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>accumulation steps</source>
        <translation>梯度累积步数</translation>
    </message>
    <message>
        <source>data-parallel GPUs</source>
        <translation>数据并行 GPU 数</translation>
    </message>
    <message>
        <source>Kept from the scenario, beyond the controls&apos; range: %1. Changing that control replaces it.</source>
        <translation>保留场景中超出控件范围的值：%1。修改对应控件会替换它。</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ExportDialog</name>
    <message>
        <source>All four charts</source>
        <translation>全部四张图表</translation>
    </message>
    <message>
        <source>Memory at the peak of each phase</source>
        <translation>各阶段峰值时的显存</translation>
    </message>
    <message>
        <source>Memory against micro-batch</source>
        <translation>显存随微批次的变化</translation>
    </message>
    <message>
        <source>Memory over one training step</source>
        <translation>一个训练步内的显存变化</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Light (for print)</source>
        <translation>浅色（适合打印）</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>请选择文件。</translation>
    </message>
    <message>
        <source>The file name must end in .svg, .png or .pdf.</source>
        <translation>文件名必须以 .svg、.png 或 .pdf 结尾。</translation>
    </message>
    <message>
        <source>Cannot write to the folder %1.</source>
        <translation>无法写入文件夹 %1。</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PNG (*.png);;PDF (*.pdf)</source>
        <translation>SVG (*.svg);;PNG (*.png);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>The command that writes the same file, byte for byte; Save also writes the baseline it reads to %1</source>
        <translation>逐字节写出同一文件的命令；保存时还会把它读取的基准方案写到 %1</translation>
    </message>
    <message>
        <source>The command that writes the same file, byte for byte</source>
        <translation>逐字节写出同一文件的命令</translation>
    </message>
    <message>
        <source>Copied ✓</source>
        <translation>已复制 ✓</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>headroom::gui::FinetuneGroup</name>
    <message>
        <source>Every parameter trains: plain model training, as without PEFT.</source>
        <translation>所有参数都训练：与不用 PEFT 时的普通训练相同。</translation>
    </message>
    <message>
        <source>The embeddings and the first blocks are frozen (requires_grad_(False)); the rest and the head train.</source>
        <translation>嵌入层和前若干个块被冻结（requires_grad_(False)）；其余的块和输出头参与训练。</translation>
    </message>
    <message>
        <source>peft.get_peft_model(model, LoraConfig(r=8, target_modules=[...])): the base is frozen, low-rank adapters beside the chosen Linear layers train.</source>
        <translation>peft.get_peft_model(model, LoraConfig(r=8, target_modules=[...]))：基座模型冻结，只训练所选 Linear 层旁的低秩适配器。</translation>
    </message>
    <message>
        <source>LoraConfig(use_dora=True): LoRA plus a magnitude vector per adapted layer, which keeps more activations for backward.</source>
        <translation>LoraConfig(use_dora=True)：在 LoRA 之外为每个适配层加一个幅值向量，反向传播需要保存更多激活。</translation>
    </message>
    <message>
        <source>LoRA over a 4-bit base: from_pretrained(quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=&quot;nf4&quot;, bnb_4bit_use_double_quant=True)), prepare_model_for_kbit_training, then get_peft_model.</source>
        <translation>在 4 位量化的基座模型上做 LoRA：from_pretrained(quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=&quot;nf4&quot;, bnb_4bit_use_double_quant=True))，再调用 prepare_model_for_kbit_training 和 get_peft_model。</translation>
    </message>
    <message>
        <source>%1 is a CNN: its fine-tuning methods are not modelled, only full training.</source>
        <translation>%1 是卷积网络（CNN）：只模拟全量训练，不支持其他微调方式。</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonChart</name>
    <message>
        <source>Time per epoch</source>
        <translation>每轮时间</translation>
    </message>
    <message>
        <source>Memory needed against capacity</source>
        <translation>所需显存与容量对比</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2, does not fit</source>
        <translation>%1 / %2，放不下</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonModel</name>
    <message>
        <source>Device memory the framework can use</source>
        <translation>框架可用的显存</translation>
    </message>
    <message>
        <source>What one training step holds on the device at the scenario&apos;s micro-batch, as the window&apos;s verdict counts it: PyTorch&apos;s reserved segments and the CUDA context (the caching allocator replayed); the tensors&apos; own peak is in each cell&apos;s tooltip</source>
        <translation>按场景的微批次，一个训练步在设备上占用的显存，与窗口的判定口径一致：PyTorch 预留的段加上 CUDA 上下文（重放缓存分配器）；张量本身的峰值见各单元格的提示</translation>
    </message>
    <message>
        <source>The largest micro-batch that fits on this GPU</source>
        <translation>此 GPU 上放得下的最大微批次</translation>
    </message>
    <message>
        <source>One optimizer step: every accumulated micro-batch, the update and exposed communication</source>
        <translation>一个优化器步：所有累积的微批次、参数更新以及未被重叠的通信</translation>
    </message>
    <message>
        <source>Optimizer steps per epoch (the last, partial one counted in full) times the step time</source>
        <translation>每轮的优化器步数（最后不满的一步按整步计）乘以每步时间</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Needs at batch %1</source>
        <translation>批大小 %1 时所需</translation>
    </message>
    <message>
        <source>Fits?</source>
        <translation>放得下？</translation>
    </message>
    <message>
        <source>Max. batch</source>
        <translation>最大批大小</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Time per epoch</source>
        <translation>每轮时间</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>✔ Yes, %1 free</source>
        <translation>✔ 是，剩余 %1</translation>
    </message>
    <message>
        <source>✘ No, %1 over</source>
        <translation>✘ 否，超出 %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>%1: %2, %3 at %4</source>
        <translation>%1：%2，%3，带宽 %4</translation>
    </message>
    <message>
        <source>%1 the framework can use (the driver-reported total where known)</source>
        <translation>框架可用 %1（已知时采用驱动报告的总量）</translation>
    </message>
    <message>
        <source>Fits: needs %1 of %2 at micro-batch %3 (its tensors with the CUDA context peak at %4)</source>
        <translation>放得下：微批次 %3 时需要 %1 / %2（张量与 CUDA 上下文峰值 %4）</translation>
    </message>
    <message>
        <source>Does not fit: needs %1 of %2 at micro-batch %3 (its tensors with the CUDA context peak at %4)</source>
        <translation>放不下：微批次 %3 时需要 %1 / %2（张量与 CUDA 上下文峰值 %4）</translation>
    </message>
    <message>
        <source>The largest micro-batch that fits in %1, the caching allocator replayed</source>
        <translation>重放缓存分配器后，%1 中放得下的最大微批次</translation>
    </message>
    <message>
        <source>Even one sample does not fit</source>
        <translation>连一个样本都放不下</translation>
    </message>
    <message>
        <source>Does not fit at micro-batch %1; if the memory were there, a step would take %2 and an epoch %3</source>
        <translation>微批次 %1 时放不下；假如显存足够，每步需 %2，每轮需 %3</translation>
    </message>
    <message>
        <source>%1 optimizer steps of %2 samples; %3 per step, %4 (MFU %5)</source>
        <translation>%1 个优化器步，每步 %2 个样本；每步 %3，%4（MFU %5）</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>样本</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuComparisonView</name>
    <message>
        <source>&amp;GPUs to compare:</source>
        <translation>要比较的 GPU(&amp;G)：</translation>
    </message>
    <message>
        <source>Filter GPUs</source>
        <translation>筛选 GPU</translation>
    </message>
    <message>
        <source>&amp;Default selection</source>
        <translation>默认选择(&amp;D)</translation>
    </message>
    <message>
        <source>The explainer&apos;s RTX A3000 laptop GPU, RTX 3090, A100 and H100, and the current GPU</source>
        <translation>讲解文章中的 RTX A3000 笔记本 GPU、RTX 3090、A100、H100，以及当前 GPU</translation>
    </message>
    <message>
        <source>Data &amp;set size:</source>
        <translation>数据集大小(&amp;S)：</translation>
    </message>
    <message>
        <source> samples</source>
        <translation> 个样本</translation>
    </message>
    <message>
        <source>Samples in one epoch: sequences for language models, images for vision models</source>
        <translation>一轮中的样本数：语言模型为序列数，视觉模型为图像数</translation>
    </message>
    <message>
        <source>&amp;Copy as CSV</source>
        <translation>复制为 CSV(&amp;C)</translation>
    </message>
    <message>
        <source>Double-click a GPU to make it the current one</source>
        <translation>双击某个 GPU 将其设为当前 GPU</translation>
    </message>
    <message>
        <source>The model %1 is not in the catalog.</source>
        <translation>模型 %1 不在目录中。</translation>
    </message>
    <message>
        <source>No scenario yet.</source>
        <translation>尚无场景。</translation>
    </message>
    <message>
        <source>%1, %2 %3, %4: micro-batch %5 × %6 accumulation steps × %7 data-parallel GPUs = %8 samples per optimizer step.</source>
        <translation>%1，%2 %3，%4：微批次 %5 × 累积 %6 步 × %7 个数据并行 GPU = 每个优化器步 %8 个样本。</translation>
    </message>
    <message>
        <source>image side</source>
        <translation>图像边长</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Each GPU at its datasheet figures and its own framework overhead.</source>
        <translation>每个 GPU 均按其规格书参数和各自的框架开销计算。</translation>
    </message>
    <message>
        <source>The current scenario&apos;s what-if figures are not applied here.</source>
        <translation>此处不应用当前场景的假设值。</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuEditorDialog</name>
    <message>
        <source>Import a GPU</source>
        <translation>导入 GPU</translation>
    </message>
    <message>
        <source>Headroom GPU files (*.json);;All files (*)</source>
        <translation>Headroom GPU 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot import the GPU</source>
        <translation>无法导入 GPU</translation>
    </message>
    <message>
        <source>Export the GPU</source>
        <translation>导出 GPU</translation>
    </message>
    <message>
        <source>Headroom GPU files (*.json)</source>
        <translation>Headroom GPU 文件 (*.json)</translation>
    </message>
    <message>
        <source>Cannot export the GPU</source>
        <translation>无法导出 GPU</translation>
    </message>
    <message>
        <source>Delete the saved GPU</source>
        <translation>删除已保存的 GPU</translation>
    </message>
    <message>
        <source>Delete your saved GPU “%1”? If it took the place of a bundled GPU, the bundled one comes back.</source>
        <translation>删除你保存的 GPU“%1”？如果它取代了某个内置 GPU，内置的那个会恢复。</translation>
    </message>
    <message>
        <source>Cannot delete the GPU</source>
        <translation>无法删除 GPU</translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation>%1（自定义）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>use 1 to 64 lowercase letters, digits, &apos;-&apos; or &apos;.&apos;</source>
        <translation>请使用 1 到 64 个小写字母、数字、&apos;-&apos; 或 &apos;.&apos;</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>must be at least 0.1 GB</source>
        <translation>不能小于 0.1 GB</translation>
    </message>
    <message>
        <source>must be at least 1 GB/s</source>
        <translation>不能小于 1 GB/s</translation>
    </message>
    <message>
        <source>every GPU has an FP32 peak; enter it</source>
        <translation>每个 GPU 都有 FP32 峰值；请填写</translation>
    </message>
    <message>
        <source>must be at least 0.1 GB/s</source>
        <translation>不能小于 0.1 GB/s</translation>
    </message>
    <message>
        <source>must be smaller than the memory capacity</source>
        <translation>必须小于显存容量</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1（来自 %2）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GpuModelGroup</name>
    <message>
        <source>Language models</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>Encoders</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>Vision</source>
        <translation>视觉</translation>
    </message>
    <message>
        <source>No GPU matches “%1”</source>
        <translation>没有与“%1”匹配的 GPU</translation>
    </message>
    <message>
        <source>No model matches “%1”</source>
        <translation>没有与“%1”匹配的模型</translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation>“%1”：%2</translation>
    </message>
</context>
<context>
    <name>headroom::gui::GuidedTour</name>
    <message>
        <source>With PyTorch&apos;s caching allocator the step holds %1 of %2 (its tensors with the CUDA context peak at %3)</source>
        <translation>算上 PyTorch 缓存分配器，这一步占用 %1 / %2（其张量与 CUDA 上下文的峰值为 %3）</translation>
    </message>
    <message>
        <source>Peak %1 of %2</source>
        <translation>峰值 %1 / %2</translation>
    </message>
    <message>
        <source>&lt;p&gt;Doubling the micro-batch to %1 doubles the activations, while the model states stay the same. The chart shows memory against the micro-batch: the dashed curve, the tensors with what PyTorch&apos;s caching allocator holds besides, crosses the %2 line at the largest batch that fits, &lt;b&gt;%3&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;At %1: %4.&lt;/p&gt;</source>
        <translation>&lt;p&gt;把微批次加倍到 %1，激活值也随之加倍，而模型状态不变。图中是显存随微批次的变化：虚线（张量加上 PyTorch 缓存分配器另外占用的显存）在放得下的最大批大小 &lt;b&gt;%3&lt;/b&gt; 处越过 %2 这条线。&lt;/p&gt;&lt;p&gt;微批次为 %1 时：%4。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>it fits, with %1 free</source>
        <translation>放得下，剩余 %1</translation>
    </message>
    <message>
        <source>it does not fit: %1 over</source>
        <translation>放不下，超出 %1</translation>
    </message>
    <message>
        <source>What fills 12 GB?</source>
        <translation>12 GB 显存被什么占满？</translation>
    </message>
    <message>
        <source>&lt;p&gt;BERT-base (%1 parameters) trained in FP32 with AdamW on the RTX A3000 laptop GPU, 16 sequences of 512 tokens.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Model states&lt;/b&gt;: every parameter has a weight (4 bytes), a gradient (4) and AdamW&apos;s two moments (8): 16 bytes per parameter, &lt;b&gt;%2&lt;/b&gt; in all. They do not depend on the batch.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Activations&lt;/b&gt;: what the forward pass keeps for the backward pass, &lt;b&gt;%3&lt;/b&gt; at the peak, plus temporaries of %4. They grow with the batch and the sequence.&lt;/p&gt;&lt;p&gt;%5: %6.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在 RTX A3000 笔记本 GPU 上用 FP32 和 AdamW 训练 BERT-base（%1 个参数），每批 16 个序列，每个序列 512 个词元。&lt;/p&gt;&lt;p&gt;&lt;b&gt;模型状态&lt;/b&gt;：每个参数有一份权重（4 字节）、一份梯度（4 字节）和 AdamW 的两个动量（8 字节），即每个参数 16 字节，共 &lt;b&gt;%2&lt;/b&gt;。它们与批大小无关。&lt;/p&gt;&lt;p&gt;&lt;b&gt;激活值&lt;/b&gt;：前向传播为反向传播保留的张量，峰值时为 &lt;b&gt;%3&lt;/b&gt;，另有临时张量 %4。它们随批大小和序列长度增长。&lt;/p&gt;&lt;p&gt;%5：%6。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Why the batch size hits the wall</source>
        <translation>批大小为什么会撞墙</translation>
    </message>
    <message>
        <source>&lt;p&gt;Doubling the micro-batch to %1 doubles the activations, while the model states stay the same. The chart shows memory against the micro-batch: the curve crosses the %2 line at the largest batch that fits, &lt;b&gt;%3&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;At %1: %4.&lt;/p&gt;</source>
        <translation>&lt;p&gt;把微批次加倍到 %1，激活值也随之加倍，而模型状态不变。图中是显存随微批次的变化：曲线在放得下的最大批大小 &lt;b&gt;%3&lt;/b&gt; 处越过 %2 这条线。&lt;/p&gt;&lt;p&gt;微批次为 %1 时：%4。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>&lt;p&gt;With FP16 mixed precision (torch.autocast) most activations are stored in 2 bytes instead of 4, and the matrix multiplications run on the tensor cores. The FP32 weights stay, and FP16 copies of them are added (weight copies).&lt;/p&gt;&lt;p&gt;Largest micro-batch now &lt;b&gt;%1&lt;/b&gt;; at %2: %3. A step takes %4, %5.&lt;/p&gt;</source>
        <translation>&lt;p&gt;使用 FP16 混合精度（torch.autocast）时，大多数激活值只占 2 字节而不是 4 字节，矩阵乘法在张量核心上运行。FP32 权重仍然保留，另外多出它们的 FP16 副本（权重副本）。&lt;/p&gt;&lt;p&gt;现在最大微批次为 &lt;b&gt;%1&lt;/b&gt;；微批次为 %2 时：%3。每步耗时 %4，%5。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>&lt;p&gt;Full checkpointing keeps only each layer&apos;s input and recomputes the layer in the backward pass. The timeline shows the activations staying low through the forward pass.&lt;/p&gt;&lt;p&gt;Now %1; the largest micro-batch is &lt;b&gt;%2&lt;/b&gt;. The price is time: the forward pass runs twice, a step takes %3.&lt;/p&gt;</source>
        <translation>&lt;p&gt;完全检查点只保存每一层的输入，在反向传播时重新计算该层。时间线上可以看到，整个前向传播中激活值都保持在低位。&lt;/p&gt;&lt;p&gt;现在%1；最大微批次为 &lt;b&gt;%2&lt;/b&gt;。代价是时间：前向传播要算两遍，每步耗时 %3。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A model too big for one GPU</source>
        <translation>一块 GPU 装不下的模型</translation>
    </message>
    <message>
        <source>&lt;p&gt;GPT-2 XL has %1 parameters. Its weights, gradients and optimizer states alone take %2, more than the whole GPU: even one sequence does not fit (%3).&lt;/p&gt;</source>
        <translation>&lt;p&gt;GPT-2 XL 有 %1 个参数。仅权重、梯度和优化器状态就占 %2，超过了整块 GPU 的显存：连一个序列都放不下（%3）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>ZeRO: split the model states across GPUs</source>
        <translation>ZeRO：把模型状态分摊到多块 GPU</translation>
    </message>
    <message>
        <source>&lt;p&gt;ZeRO stage 3 over %1 data-parallel GPUs partitions the weights, gradients and optimizer states: each GPU holds a quarter and gathers the rest layer by layer. With checkpointing, %2 per GPU.&lt;/p&gt;&lt;p&gt;The cost is communication: %3 per step on this GPU&apos;s links.&lt;/p&gt;</source>
        <translation>&lt;p&gt;ZeRO 第 3 阶段在 %1 块数据并行 GPU 之间切分权重、梯度和优化器状态：每块 GPU 只保存四分之一，其余部分逐层收集。再加上激活检查点，每块 GPU %2。&lt;/p&gt;&lt;p&gt;代价是通信：在这块 GPU 的互连上每步需要 %3。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A bigger GPU</source>
        <translation>换一块更大的 GPU</translation>
    </message>
    <message>
        <source>&lt;p&gt;On an A100 with 80 GB the same model trains on one GPU at micro-batch %1: %2. The GPU comparison below puts the RTX A3000, RTX 3090, A100 and H100 side by side for this setting: capacity, largest micro-batch, step time and time per epoch.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在 80 GB 的 A100 上，同一个模型用一块 GPU、微批次 %1 就能训练：%2。下方的 GPU 对比在同样的设置下并列比较 RTX A3000、RTX 3090、A100 和 H100：容量、最大微批次、每步时间和每轮时间。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The roofline: compute or bandwidth?</source>
        <translation>屋顶线：受限于算力还是带宽？</translation>
    </message>
    <message>
        <source>&lt;p&gt;Each dot is an operator of the training step: how many FLOPs it does per byte it moves (x) against the FLOP/s it reaches (y). Left of the ridge at %1 FLOP/byte an operator is limited by the memory bandwidth (the slope, %2); right of it by the %3 peak (%4).&lt;/p&gt;&lt;p&gt;The matrix multiplications sit near the compute roof; normalization, softmax, GELU, dropout and the optimizer sit on the bandwidth slope. Drag the batch slider and watch the GEMMs move.&lt;/p&gt;</source>
        <translation>&lt;p&gt;每个点是训练步中的一个算子：横轴是它每搬运一字节所做的 FLOP 数，纵轴是它达到的 FLOP/s。在 %1 FLOP/byte 的拐点左侧，算子受显存带宽限制（斜线，%2）；右侧受 %3 峰值（%4）限制。&lt;/p&gt;&lt;p&gt;矩阵乘法位于算力屋顶附近；归一化、softmax、GELU、dropout 和优化器都落在带宽斜线上。拖动批大小滑块，观察 GEMM 点的移动。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>What bandwidth costs</source>
        <translation>带宽的代价</translation>
    </message>
    <message>
        <source>&lt;p&gt;The explainer assumes 392 GB/s; the RTX A3000 laptop GPU&apos;s datasheet says %1. With the datasheet figure the bandwidth-bound operators slow down and a step takes %2 (%3). Use the what-if fields to try any bandwidth, capacity or peak.&lt;/p&gt;&lt;p&gt;That is the tour. &lt;i&gt;Finish&lt;/i&gt; returns to where you were; &lt;i&gt;Edit › Undo&lt;/i&gt; steps back through the tour.&lt;/p&gt;</source>
        <translation>&lt;p&gt;讲解文章假设带宽为 392 GB/s；RTX A3000 笔记本 GPU 的规格书写的是 %1。按规格书数值，受带宽限制的算子会变慢，每步耗时 %2（%3）。可以用假设覆盖值尝试任意带宽、容量或峰值。&lt;/p&gt;&lt;p&gt;导览到此结束。&lt;i&gt;完成&lt;/i&gt;会回到开始导览前的场景；&lt;i&gt;编辑 › 撤销&lt;/i&gt;可以逐步回退导览。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>上一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;End Tour</source>
        <translation>结束导览(&amp;E)</translation>
    </message>
</context>
<context>
    <name>headroom::gui::InferenceView</name>
    <message>
        <source>Serving covers decoder-only language models (GPT-2, Llama, Mistral, Qwen); %1 is not one. Pick one in the model list.</source>
        <translation>推理部署只适用于仅解码器的语言模型（GPT-2、Llama、Mistral、Qwen）；%1 不是。请在模型列表中选择一个。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fits&lt;/b&gt;: peak %1 of %2, %3 free</source>
        <translation>&lt;b&gt;放得下&lt;/b&gt;：峰值 %1 / %2，剩余 %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Does not fit&lt;/b&gt;: peak %1 of %2, %3 over</source>
        <translation>&lt;b&gt;放不下&lt;/b&gt;：峰值 %1 / %2，超出 %3</translation>
    </message>
    <message>
        <source>%1: weights %2 · KV cache %3 · activations %4 · overhead %5</source>
        <translation>%1：权重 %2 · KV 缓存 %3 · 激活 %4 · 开销 %5</translation>
    </message>
    <message>
        <source>Host memory %1: llama.cpp keeps the input embedding on the CPU</source>
        <translation>主机内存 %1：llama.cpp 把输入嵌入层留在 CPU 上</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Largest batch %1 · longest context %2 tokens (the model&apos;s limit)</source>
        <translation>最大批大小 %1 · 最长上下文 %2 个词元（模型上限）</translation>
    </message>
    <message>
        <source>Largest batch %1 · longest context %2 tokens</source>
        <translation>最大批大小 %1 · 最长上下文 %2 个词元</translation>
    </message>
    <message>
        <source>Largest batch %1 · no context fits</source>
        <translation>最大批大小 %1 · 任何上下文都放不下</translation>
    </message>
    <message>
        <source>Prefill %1 · decode %2 per token · %3 tokens/s</source>
        <translation>预填充 %1 · 每词元解码 %2 · 每秒 %3 个词元</translation>
    </message>
    <message>
        <source>Roofline engine: no kernel floors or host time</source>
        <translation>屋顶线引擎：不计内核下限和主机时间</translation>
    </message>
    <message>
        <source>%1 per token: GPU %2 (kernel floors %3), host %4; the host bounds it</source>
        <translation>%1 每词元：GPU %2（其中内核下限 %3），主机 %4；受主机限制</translation>
    </message>
    <message>
        <source>%1 per token: GPU %2 (kernel floors %3), host %4; the GPU bounds it</source>
        <translation>%1 每词元：GPU %2（其中内核下限 %3），主机 %4；受 GPU 限制</translation>
    </message>
    <message>
        <source>Peak memory vs context</source>
        <translation>峰值显存与上下文长度</translation>
    </message>
    <message>
        <source>Prompt + generated tokens</source>
        <translation>上下文（提示 + 生成的词元）</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>This GPU has no tensor unit for these weights: the GEMMs are timed on another unit</source>
        <translation>这块 GPU 没有适合这种权重格式的张量单元：矩阵乘按其他单元计时</translation>
    </message>
    <message>
        <source>The context is longer than the model was trained for: rotary positions need scaling there</source>
        <translation>上下文长于模型训练时的长度：旋转位置编码需要缩放</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>The same serving on other GPUs, each at its datasheet figures</source>
        <translation>同样的推理部署在其他 GPU 上（各按其规格参数）</translation>
    </message>
    <message>
        <source>GPU (datasheet)</source>
        <translation>GPU（规格参数）</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Largest batch</source>
        <translation>最大批量</translation>
    </message>
    <message>
        <source>Longest context</source>
        <translation>最长上下文</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>%1 (%2 bits/weight)</source>
        <translation>%1（每权重 %2 位）</translation>
    </message>
    <message>
        <source>AWQ 4-bit</source>
        <translation>AWQ 4 位</translation>
    </message>
    <message>
        <source>GGUF %1</source>
        <translation>GGUF %1</translation>
    </message>
    <message>
        <source>GPTQ 4-bit</source>
        <translation>GPTQ 4 位</translation>
    </message>
    <message>
        <source>INT8 (LLM.int8)</source>
        <translation>INT8（LLM.int8）</translation>
    </message>
    <message>
        <source>NF4 (bitsandbytes)</source>
        <translation>NF4（bitsandbytes）</translation>
    </message>
    <message>
        <source>Serving a mixture-of-experts model such as %1 is not modelled yet (every expert resident, the active experts per token); the training estimate covers it.</source>
        <translation>尚未对 %1 这类混合专家模型的推理建模（所有专家常驻、每个词元激活部分专家）；训练估算涵盖它。</translation>
    </message>
    <message>
        <source>The %1 attention heads of %2 do not split evenly over %3 GPUs: pick a tensor-parallel size that divides %1.</source>
        <translation>%2 的 %1 个注意力头不能均分到 %3 个 GPU 上：请选择能整除 %1 的张量并行规模。</translation>
    </message>
    <message>
        <source>The prompt and the generated tokens (%1) exceed the %2 positions %3 learned: make them shorter.</source>
        <translation>提示词与生成的词元（%1）超过了 %3 学到的 %2 个位置：请缩短。</translation>
    </message>
    <message>
        <source>These serving settings cannot be simulated (%1).</source>
        <translation>无法模拟这些推理设置（%1）。</translation>
    </message>
    <message>
        <source>Prefill: GEMMs %1 at %2 TFLOP/s, conversions %3</source>
        <translation>预填充：GEMM %1（%2 TFLOP/s），格式转换 %3</translation>
    </message>
</context>
<context>
    <name>headroom::gui::MainWindow</name>
    <message>
        <source>About Headroom</source>
        <translation>关于 Headroom</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Headroom %1&lt;/h3&gt;&lt;p&gt;Explores the GPU memory and bandwidth of one neural-network training step: where the memory goes, whether it fits, and where each operator sits on the roofline.&lt;/p&gt;&lt;p&gt;Every figure comes from a simulation of the PyTorch training step; click any chart element for its formula and source.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Headroom %1&lt;/h3&gt;&lt;p&gt;探究神经网络一个训练步的 GPU 显存与带宽：显存用在了哪里、是否放得下，以及每个算子在屋顶线上的位置。&lt;/p&gt;&lt;p&gt;所有数字都来自对 PyTorch 训练步的模拟；点击任意图表元素即可查看其公式与来源。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 on %2 — Headroom</source>
        <translation>在 %2 上训练 %1 — Headroom</translation>
    </message>
    <message>
        <source>Copied the figure to the clipboard</source>
        <translation>已将图表复制到剪贴板</translation>
    </message>
    <message>
        <source>Cannot open the example</source>
        <translation>无法打开示例</translation>
    </message>
    <message>
        <source>Cannot open the scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>%1: gpu: unknown GPU &quot;%2&quot;</source>
        <translation>%1：gpu：未知 GPU“%2”</translation>
    </message>
    <message>
        <source>%1: model: unknown model &quot;%2&quot;</source>
        <translation>%1：model：未知模型“%2”</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Headroom scenarios (*.headroom.json *.json)</source>
        <translation>Headroom 场景 (*.headroom.json *.json)</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Headroom scenarios (*.headroom.json)</source>
        <translation>Headroom 场景 (*.headroom.json)</translation>
    </message>
    <message>
        <source>Cannot save the scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>Cannot export the figure</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>Baseline Comparison</source>
        <translation>基线比较</translation>
    </message>
    <message>
        <source>GPU Comparison</source>
        <translation>GPU 比较</translation>
    </message>
    <message>
        <source>Import Model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Model files (config.json *.json *.safetensors)</source>
        <translation>模型文件 (config.json *.json *.safetensors)</translation>
    </message>
    <message>
        <source>Cannot import the model</source>
        <translation>无法导入模型</translation>
    </message>
    <message>
        <source>Pinned this scenario as the baseline: change anything to compare</source>
        <translation>已将此场景固定为基线：做任何改动即可比较</translation>
    </message>
    <message>
        <source>Imported %1 from %2</source>
        <translation>已从 %2 导入 %1</translation>
    </message>
    <message>
        <source>Cannot open the dropped file</source>
        <translation>无法打开拖入的文件</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Serving (Inference)</source>
        <translation>推理部署</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>%1: scenario.model: &quot;%2&quot; is neither a preset nor one of your models</source>
        <translation>%1：scenario.model：“%2”既不是预设模型，也不是你的模型</translation>
    </message>
    <message>
        <source>Compare with a Measurement</source>
        <translation>与实测结果对比</translation>
    </message>
    <message>
        <source>headroom-probe measurements (*.headroom-measured.json *.json)</source>
        <translation>headroom-probe 实测文件 (*.headroom-measured.json *.json)</translation>
    </message>
    <message>
        <source>Cannot open the measurement</source>
        <translation>无法打开实测文件</translation>
    </message>
    <message>
        <source>Scaling over GPUs</source>
        <translation>多 GPU 扩展</translation>
    </message>
    <message>
        <source>Plan a Multi-GPU Layout</source>
        <translation>规划多 GPU 布局</translation>
    </message>
    <message>
        <source>The simulator refuses this value: the last one that it took stays</source>
        <translation>模拟器不接受这个值：保留它上次接受的值</translation>
    </message>
</context>
<context>
    <name>headroom::gui::MemoryChartView</name>
    <message>
        <source>does not fit with the allocator&apos;s cache: %1 over</source>
        <translation>算上分配器缓存放不下，超出 %1</translation>
    </message>
    <message>
        <source>%1: %2 (%3 with the tensors)</source>
        <translation>%1：%2（连同张量共 %3）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Held by PyTorch&apos;s caching allocator&lt;/b&gt; besides the tensors at each phase&apos;s peak: segments reserved by then and not in use (the allocator replayed over three steps). The verdict counts them.&lt;br&gt;%1</source>
        <translation>&lt;b&gt;PyTorch 缓存分配器在各阶段峰值时除张量之外占用的显存&lt;/b&gt;：到那时已预留、但未使用的段（按三个训练步重放分配器）。判定会把它们算进去。&lt;br&gt;%1</translation>
    </message>
    <message>
        <source>Phase peaks</source>
        <translation>各阶段峰值</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at the %2 peak: %3&lt;br&gt;%4&lt;br&gt;&lt;i&gt;Click for the formula and its source.&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2峰值时）：%3&lt;br&gt;%4&lt;br&gt;&lt;i&gt;点击查看公式及其来源。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Memory at the peak of each phase</source>
        <translation>各阶段峰值时的显存</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>faint: baseline (%1)</source>
        <translation>浅色：基线（%1）</translation>
    </message>
    <message>
        <source>fits: %1 free</source>
        <translation>放得下：剩余 %1</translation>
    </message>
    <message>
        <source>does not fit: %1 over</source>
        <translation>放不下，超出 %1</translation>
    </message>
    <message>
        <source>%1 capacity</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source> (what-if)</source>
        <translation>（假设）</translation>
    </message>
    <message>
        <source>Fwd</source>
        <extracomment>Short for Forward, Backward and Optimizer under the bars of a narrow chart</extracomment>
        <translation>前向</translation>
    </message>
    <message>
        <source>Bwd</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Optim</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>- - %1</source>
        <translation>- - %1</translation>
    </message>
    <message>
        <source>out of memory in the %1 with the allocator&apos;s cache: %2 over</source>
        <translation>算上分配器缓存，在%1阶段显存不足，超出 %2</translation>
    </message>
    <message>
        <source>out of memory in the %1: %2 over</source>
        <translation>在%1阶段显存不足，超出 %2</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ModelEditorDialog</name>
    <message>
        <source>Import a model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Model files (config.json *.json);;All files (*)</source>
        <translation>模型文件 (config.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot import the model</source>
        <translation>无法导入模型</translation>
    </message>
    <message>
        <source>Compare with a checkpoint</source>
        <translation>与检查点比较</translation>
    </message>
    <message>
        <source>safetensors files (*.safetensors);;All files (*)</source>
        <translation>safetensors 文件 (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read the checkpoint</source>
        <translation>无法读取检查点</translation>
    </message>
    <message>
        <source>Export the model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <source>Headroom model files (*.json)</source>
        <translation>Headroom 模型文件 (*.json)</translation>
    </message>
    <message>
        <source>Cannot export the model</source>
        <translation>无法导出模型</translation>
    </message>
    <message>
        <source>Delete the saved model</source>
        <translation>删除已保存的模型</translation>
    </message>
    <message>
        <source>Delete your saved model “%1”? If it took the place of a bundled model, the bundled one comes back.</source>
        <translation>删除你保存的模型“%1”？如果它取代了某个内置模型，内置的那个会恢复。</translation>
    </message>
    <message>
        <source>Cannot delete the model</source>
        <translation>无法删除模型</translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation>%1（自定义）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>must be between 1 and %1</source>
        <translation>必须在 1 到 %1 之间</translation>
    </message>
    <message>
        <source>use 1 to 64 lowercase letters, digits, &apos;-&apos;, &apos;_&apos; or &apos;.&apos;</source>
        <translation>请使用 1 到 64 个小写字母、数字、&apos;-&apos;、&apos;_&apos; 或 &apos;.&apos;</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>must divide the hidden size (%1) unless a head dim is set</source>
        <translation>除非设置了头维度，否则必须能整除隐藏维度（%1）</translation>
    </message>
    <message>
        <source>must divide the attention heads (%1)</source>
        <translation>必须能整除注意力头数（%1）</translation>
    </message>
    <message>
        <source>learned positions need at least one</source>
        <translation>使用可学习位置编码时至少需要 1 个位置</translation>
    </message>
    <message>
        <source>is longer than the %1 learned positions</source>
        <translation>超过了 %1 个可学习位置</translation>
    </message>
    <message>
        <source>a classifier head needs at least one class</source>
        <translation>分类头至少需要一个类别</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>自动（%1）</translation>
    </message>
    <message>
        <source>Config-based count: correct the fields listed below first.</source>
        <translation>按配置计算的参数量：请先更正下面列出的字段。</translation>
    </message>
    <message>
        <source>Config-based count: &lt;b&gt;%1&lt;/b&gt; parameters (%2)</source>
        <translation>按配置计算：&lt;b&gt;%1&lt;/b&gt; 个参数（%2）</translation>
    </message>
    <message>
        <source>Published for %1: %2</source>
        <translation>%1 的公开数据：%2</translation>
    </message>
    <message>
        <source>%1: %2 is a vision model; the editor makes language transformers. Pick it in the model list as it is.</source>
        <translation>%1：%2 是视觉模型，而本编辑器只用于语言 Transformer。请直接在模型列表中选用它。</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1（来自 %2）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::OverrideGroup</name>
    <message>
        <source>What-if overrides (active)</source>
        <translation>假设覆盖值（已启用）</translation>
    </message>
    <message>
        <source>What-if overrides</source>
        <translation>假设覆盖值</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ParallelGroup</name>
    <message>
        <source>one node</source>
        <translation>单节点</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>1 (no tensor parallelism)</source>
        <translation>1（不做张量并行）</translation>
    </message>
    <message>
        <source>1 (no pipeline)</source>
        <translation>1（不用流水线）</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>Interleaved ×%1</source>
        <translation>交错 ×%1</translation>
    </message>
    <message>
        <source>1 (whole sequences on every GPU)</source>
        <translation>1（每个 GPU 上都是完整序列）</translation>
    </message>
    <message>
        <source>%1 (1/%1 of each sequence per GPU)</source>
        <translation>%1（每个 GPU 持有每个序列的 1/%1）</translation>
    </message>
    <message>
        <source>1 (all %1 experts on every GPU)</source>
        <translation>1（每个 GPU 上都有全部 %1 个专家）</translation>
    </message>
    <message>
        <source>%1 (experts per GPU: %2)</source>
        <translation>%1（每个 GPU 的专家数：%2）</translation>
    </message>
    <message>
        <source>the most loaded stage</source>
        <translation>负载最重的阶段</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>stage %1 (blocks %2)</source>
        <translation>阶段 %1（块 %2）</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>even (%1)</source>
        <translation>均分（%1）</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>In a node: %1, %2 GB/s</source>
        <translation>节点内：%1，%2 GB/s</translation>
    </message>
    <message>
        <source>Between nodes: %1, %2 GB/s per GPU</source>
        <translation>节点间：%1，每 GPU %2 GB/s</translation>
    </message>
    <message>
        <source>Between nodes: InfiniBand HDR</source>
        <translation>节点间：InfiniBand HDR</translation>
    </message>
    <message>
        <source>In a node: the GPU file&apos;s links</source>
        <translation>节点内：GPU 文件中的链路</translation>
    </message>
    <message>
        <source>the GPU&apos;s PCIe</source>
        <translation>该 GPU 的 PCIe</translation>
    </message>
    <message>
        <source>the GPU&apos;s own link</source>
        <translation>该 GPU 自身的链路</translation>
    </message>
    <message>
        <source>In a node: auto (%1, %2 GB/s)</source>
        <translation>节点内：自动（%1，%2 GB/s）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::PipelineScheduleView</name>
    <message>
        <source>Pipeline schedule: stage %1 works %2 of the pipeline&apos;s %3 and waits %4 (the bubble); blue forward, orange backward</source>
        <translation>流水线调度：阶段 %1 在流水线的 %3 中工作 %2，等待 %4（气泡）；蓝色为前向，橙色为反向</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>%1 of the %2 step</source>
        <translation>%1（整步 %2）</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Stage %1, micro-batch %2: %3, %4 to %5</source>
        <translation>阶段 %1，微批次 %2：%3，%4 至 %5</translation>
    </message>
    <message>
        <source> (model chunk %1)</source>
        <translation>（模型块 %1）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::PlanView</name>
    <message numerus="yes">
        <source>Planning %n GPU(s)…</source>
        <translation>
            <numerusform>正在为 %n 个 GPU 规划…</numerusform>
        </translation>
    </message>
    <message>
        <source>interleaved ×%1</source>
        <translation>交错 ×%1</translation>
    </message>
    <message>
        <source>%1 · first and last stage %2 blocks each</source>
        <translation>%1 · 首末阶段各 %2 块</translation>
    </message>
    <message>
        <source>%1 · first stage %2 blocks</source>
        <translation>%1 · 第一阶段 %2 块</translation>
    </message>
    <message>
        <source>%1 · last stage %2 blocks</source>
        <translation>%1 · 最后阶段 %2 块</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Rejected: %1</source>
        <translation>被排除：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n layout(s) simulated; none fits: the lowest peaks are listed.</source>
        <translation>
            <numerusform>已模拟 %n 种布局；没有放得下的：列出峰值最低的。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layout(s) simulated; those that fit, fastest first (★ on the front of memory per GPU against step time). Double-click one to apply it.</source>
        <translation>
            <numerusform>已模拟 %n 种布局；放得下的按最快在前排列（★ 表示位于每 GPU 显存与步时间的前沿上）。双击一行即可应用。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;GPUs</source>
        <translation>GPU 数(&amp;G)</translation>
    </message>
    <message>
        <source>per &amp;node</source>
        <translation>每节点(&amp;N)</translation>
    </message>
    <message>
        <source>global &amp;batch</source>
        <translation>全局批大小(&amp;B)</translation>
    </message>
    <message>
        <source>t</source>
        <translation>t</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>cp</source>
        <translation>cp</translation>
    </message>
    <message>
        <source>dp</source>
        <translation>dp</translation>
    </message>
    <message>
        <source>ep</source>
        <translation>ep</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>SP</source>
        <translation>SP</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>accumulation</source>
        <translation>累积</translation>
    </message>
    <message>
        <source>peak/GPU</source>
        <translation>峰值/GPU</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Layouts that fit: step time against memory per GPU</source>
        <translation>放得下的布局：步时间与每 GPU 显存</translation>
    </message>
    <message>
        <source>peak per GPU (GiB)</source>
        <translation>每 GPU 峰值（GiB）</translation>
    </message>
    <message>
        <source>layouts</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>step (s)</source>
        <translation>步（秒）</translation>
    </message>
    <message>
        <source>levers</source>
        <translation>手段</translation>
    </message>
    <message>
        <source>It would fit with: %1.</source>
        <translation>改用以下手段即可放下：%1。</translation>
    </message>
    <message>
        <source>GPUs with room for the nearest layout: %1.</source>
        <translation>能放下最接近布局的 GPU：%1。</translation>
    </message>
    <message>
        <source>t beyond a node: tensor parallelism keeps its ranks on one node</source>
        <translation>t 超出一个节点：张量并行的各个进程须在同一节点内</translation>
    </message>
    <message>
        <source>heads not divisible: t must divide the attention heads, key/value heads and FFN width</source>
        <translation>头数不能整除：t 必须整除注意力头数、键/值头数和 FFN 宽度</translation>
    </message>
    <message>
        <source>adapters (LoRA, QLoRA) under tensor parallelism are not modelled</source>
        <translation>张量并行下的适配器（LoRA、QLoRA）尚未建模</translation>
    </message>
    <message>
        <source>p above the blocks: each stage needs at least one block</source>
        <translation>p 大于层数：每个阶段至少需要一层</translation>
    </message>
    <message>
        <source>p does not divide the blocks evenly</source>
        <translation>p 不能均分各层</translation>
    </message>
    <message>
        <source>context parallelism needs a token sequence and fused attention</source>
        <translation>上下文并行需要词元序列和融合注意力</translation>
    </message>
    <message>
        <source>context parallelism needs 2 cp to divide the tokens</source>
        <translation>上下文并行要求 2 cp 整除词元数</translation>
    </message>
    <message>
        <source>global batch not divisible by micro-batch x dp</source>
        <translation>全局批次不能被 微批次 × dp 整除</translation>
    </message>
    <message>
        <source>more than 1048576 micro-batches per step</source>
        <translation>每步超过 1048576 个微批次</translation>
    </message>
    <message>
        <source>interleaving needs 2p to divide the blocks and p the micro-batches per step</source>
        <translation>交错调度要求 2p 整除层数、p 整除每步的微批次数</translation>
    </message>
    <message>
        <source>sequence parallelism needs t to divide the tokens</source>
        <translation>序列并行要求 t 整除词元数</translation>
    </message>
    <message>
        <source>ZeRO-2/3 with pipeline parallelism: DeepSpeed refuses the pair</source>
        <translation>ZeRO-2/3 与流水线并行：DeepSpeed 不允许这种组合</translation>
    </message>
    <message>
        <source>does not fit: the most loaded rank&apos;s peak is above the GPU&apos;s memory</source>
        <translation>放不下：负载最重的进程的峰值超过 GPU 显存</translation>
    </message>
    <message>
        <source>t %1</source>
        <translation>t %1</translation>
    </message>
    <message>
        <source>p %1</source>
        <translation>p %1</translation>
    </message>
    <message>
        <source>cp %1</source>
        <translation>cp %1</translation>
    </message>
    <message>
        <source>dp %1</source>
        <translation>dp %1</translation>
    </message>
    <message>
        <source>ep %1</source>
        <translation>ep %1</translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>checkpointing: %1</source>
        <translation>激活检查点：%1</translation>
    </message>
    <message>
        <source>micro-batch %1 × %2</source>
        <translation>微批次 %1 × %2</translation>
    </message>
    <message>
        <source>Layouts</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>GPU types</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>&amp;tokens to train (billions)</source>
        <translation>训练词元数，十亿(&amp;T)</translation>
    </message>
    <message>
        <source>GPU t&amp;ypes (%1)</source>
        <translation>GPU 型号 (%1)(&amp;Y)</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>time to train</source>
        <translation>训练时间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 时</translation>
    </message>
    <message>
        <source>fastest layout</source>
        <translation>最快布局</translation>
    </message>
    <message numerus="yes">
        <source>Planning %n GPU type(s)…</source>
        <translation>
            <numerusform>正在为 %n 种 GPU 型号规划…</numerusform>
        </translation>
    </message>
    <message>
        <source>lowest peak %1</source>
        <translation>最低峰值 %1</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>%1 billion tokens</source>
        <translation>%1 十亿词元</translation>
    </message>
    <message>
        <source>USD per GPU-hour</source>
        <translation>美元/GPU 时</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Type what a GPU-hour of this type costs you: the cost is the GPU-hours times it</source>
        <translation>输入该型号每 GPU 时的价格：费用即 GPU 时乘以它</translation>
    </message>
    <message>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message numerus="yes">
        <source>The same job on %n GPU(s) of each type: the time to train %1 and the GPU-hours, by the fastest layout that fits (as `headroom plan --gpu … --tokens`), fastest first. Type a price per GPU-hour for the cost; double-click a type to apply its GPU and layout.</source>
        <translation>
            <numerusform>同一任务在每种型号的 %n 个 GPU 上：按放得下的最快布局计算训练 %1 的时间和 GPU 时（同 `headroom plan --gpu … --tokens`），最快的在前。输入每 GPU 时的价格即得费用；双击一种型号即可应用它的 GPU 和布局。</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU types that fit: time to train against what it costs</source>
        <translation>放得下的 GPU 型号：训练时间与花费</translation>
    </message>
    <message>
        <source>time (h)</source>
        <translation>时间（小时）</translation>
    </message>
    <message>
        <source>none both faster and cheaper</source>
        <translation>没有既更快又更便宜的</translation>
    </message>
    <message>
        <source>cost (USD)</source>
        <translation>花费（美元）</translation>
    </message>
    <message>
        <source>GPU-hours (type prices for the cost)</source>
        <translation>GPU 时（填入单价即得花费）</translation>
    </message>
    <message>
        <source>%v of %m layouts decided</source>
        <translation>已判定 %v / %m 个布局</translation>
    </message>
    <message>
        <source>selective recomputation: the attention kernel saves no scores to recompute (the same as none)</source>
        <translation>选择性重计算：注意力内核不保存可重计算的分数（与不用检查点相同）</translation>
    </message>
</context>
<context>
    <name>headroom::gui::RooflineView</name>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>&lt;b&gt;Whole training step&lt;/b&gt;&lt;br&gt;%1 per step, %2 moved&lt;br&gt;intensity %3 FLOP/byte&lt;br&gt;achieved %4 in %5</source>
        <translation>&lt;b&gt;整个训练步&lt;/b&gt;&lt;br&gt;每步 %1，传输 %2&lt;br&gt;算术强度 %3 FLOP/byte&lt;br&gt;实际达到 %4，用时 %5</translation>
    </message>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>Roofline of the training step</source>
        <translation>训练步的屋顶线</translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/byte）</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source> (what-if)</source>
        <translation>（假设）</translation>
    </message>
    <message>
        <source>ridge %1 FLOP/B</source>
        <translation>脊点 %1 FLOP/B</translation>
    </message>
    <message>
        <source>%1 (what-if)</source>
        <translation>%1（假设）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;br&gt;%4 FLOP, %5 moved, intensity %6 FLOP/byte&lt;br&gt;attainable %7, achieved %8&lt;br&gt;%9 of the step (%10), %11</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2，%3）&lt;br&gt;%4 FLOP，传输 %5，算术强度 %6 FLOP/byte&lt;br&gt;可达 %7，实际 %8&lt;br&gt;占训练步的 %9（%10），%11</translation>
    </message>
    <message>
        <source>memory-bound</source>
        <translation>访存受限</translation>
    </message>
    <message>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <source>&lt;b&gt;The step against its links&lt;/b&gt;&lt;br&gt;%1 sent per step at %2, %3 FLOP per byte sent&lt;br&gt;communication %4 of the %5 step, %6 of it not hidden</source>
        <translation>&lt;b&gt;训练步与其链路&lt;/b&gt;&lt;br&gt;每步以 %2 发送 %1，每发送一字节 %3 FLOP&lt;br&gt;通信 %4（整步 %5），其中 %6 未被隐藏</translation>
    </message>
    <message>
        <source>links %1</source>
        <translation>链路 %1</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ScalingView</name>
    <message>
        <source>Nothing to scale.</source>
        <translation>没有可扩展的内容。</translation>
    </message>
    <message numerus="yes">
        <source>Each added GPU is another data-parallel replica of %n GPU(s), with the same micro-batch: perfect scaling keeps %1 per GPU (dashed).</source>
        <translation>
            <numerusform>每增加的 GPU 都是另一个由 %n 个 GPU 组成的数据并行副本，微批次不变：理想扩展将保持每个 GPU %1（虚线）。</numerusform>
        </translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Over PCIe</source>
        <translation>经 PCIe</translation>
    </message>
    <message>
        <source>Throughput per GPU against GPUs</source>
        <translation>每个 GPU 的吞吐量与 GPU 数</translation>
    </message>
    <message>
        <source>Memory per GPU (most loaded rank) against GPUs</source>
        <translation>每个 GPU 的显存（负载最重的进程）与 GPU 数</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>perfect scaling</source>
        <translation>理想扩展</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>%1: %2 of it at %3 GPUs, %4 at %5.</source>
        <translation>%1：%3 个 GPU 时保留其 %2，%5 个时保留 %4。</translation>
    </message>
    <message>
        <source>images/s</source>
        <translation>图像/秒</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>With NVLink</source>
        <translation>有 NVLink 时</translation>
    </message>
    <message>
        <source>GPUs (8 per node; the link in brackets joins the nodes)</source>
        <translation>GPU 数（每节点 8 个；括号中是节点间链路）</translation>
    </message>
    <message>
        <source>PCIe (+ 100 GbE)</source>
        <translation>PCIe（+ 100 GbE）</translation>
    </message>
    <message>
        <source>NVLink pairs (+ IB)</source>
        <translation>NVLink 成对（+ IB）</translation>
    </message>
    <message>
        <source>NVLink (+ IB)</source>
        <translation>NVLink（+ IB）</translation>
    </message>
    <message>
        <source>It does not fit on any number of these GPUs up to %1.</source>
        <translation>在最多 %1 块这种 GPU 上都放不下。</translation>
    </message>
    <message>
        <source>It fits from %1 GPUs on, where ZeRO shards enough of the states (the marked points do not fit).</source>
        <translation>从 %1 块 GPU 起放得下：ZeRO 把足够多的状态切分到各块 GPU 上（标出的点放不下）。</translation>
    </message>
    <message>
        <source>From %1 GPUs on it does not fit (the marked points): each GPU then also holds data parallelism&apos;s gradient buckets and NCCL&apos;s buffers.</source>
        <translation>从 %1 块 GPU 起放不下（标出的点）：每块 GPU 还要放数据并行的梯度桶和 NCCL 的缓冲区。</translation>
    </message>
</context>
<context>
    <name>headroom::gui::ScenarioHistory</name>
    <message>
        <source>micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>data-parallel GPUs</source>
        <translation>数据并行 GPU 数</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>gradient accumulation</source>
        <translation>梯度累积</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>mixed-precision style</source>
        <translation>混合精度方式</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>optimizer offload</source>
        <translation>优化器卸载</translation>
    </message>
    <message>
        <source>what-if figures</source>
        <translation>假设值</translation>
    </message>
    <message>
        <source>framework overhead</source>
        <translation>框架开销</translation>
    </message>
    <message>
        <source>open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>example scenario</source>
        <translation>示例场景</translation>
    </message>
    <message>
        <source>suggested change</source>
        <translation>建议的改动</translation>
    </message>
    <message>
        <source>reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>tour step</source>
        <translation>教程步骤</translation>
    </message>
    <message>
        <source>change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>fine-tuning method</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA target modules</source>
        <translation>LoRA 目标模块</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>frozen layers</source>
        <translation>冻结层数</translation>
    </message>
    <message>
        <source>tensor-parallel GPUs</source>
        <translation>张量并行 GPU 数</translation>
    </message>
    <message>
        <source>pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <source>host CPU speed</source>
        <translation>主机 CPU 速度</translation>
    </message>
    <message>
        <source>blocks per stage</source>
        <translation>每阶段块数</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA Graph</translation>
    </message>
    <message>
        <source>training loop</source>
        <translation>训练循环</translation>
    </message>
    <message>
        <source>channels last</source>
        <translation>通道在后（channels last）</translation>
    </message>
    <message>
        <source>expert-parallel GPUs</source>
        <translation>专家并行 GPU 数</translation>
    </message>
    <message>
        <source>context-parallel GPUs</source>
        <translation>上下文并行 GPU 数</translation>
    </message>
    <message>
        <source>sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>link in a node</source>
        <translation>节点内互连</translation>
    </message>
    <message>
        <source>link between nodes</source>
        <translation>节点间互连</translation>
    </message>
    <message>
        <source>expandable segments</source>
        <translation>可扩展段（expandable segments）</translation>
    </message>
    <message>
        <source>cuDNN workspace</source>
        <translation>cuDNN 工作区</translation>
    </message>
    <message>
        <source>plan layout</source>
        <translation>规划方案</translation>
    </message>
    <message>
        <source>measured run</source>
        <translation>实测运行</translation>
    </message>
</context>
<context>
    <name>headroom::gui::TimelineView</name>
    <message>
        <source>Timeline</source>
        <translation>显存时间线</translation>
    </message>
    <message>
        <source>Memory over one training step</source>
        <translation>一个训练步内的显存变化</translation>
    </message>
    <message>
        <source>time within the step (%)</source>
        <translation>训练步内的时间（%）</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>peak in the %1 of %2: %3</source>
        <translation>峰值位于%2的%1：%3</translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>measured max_memory_allocated %1</source>
        <translation>实测 max_memory_allocated %1</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>time (%)</source>
        <translation>时间（%）</translation>
    </message>
    <message>
        <source>100 % = %1</source>
        <translation>100% = %1</translation>
    </message>
    <message>
        <source>100 % = %1: one of %2 micro-batches and the optimizer; the step takes %3</source>
        <translation>100% = %1：%2 个微批次中的一个加优化器；整步 %3</translation>
    </message>
    <message>
        <source>100 % = %1 without communication; the step takes %2</source>
        <translation>100% = %1，不含通信；整步 %2</translation>
    </message>
    <message>
        <source>100 % = %1, 1 of %2 micro-batches; step %3</source>
        <translation>100% = %1，%2 个微批次之一；整步 %3</translation>
    </message>
    <message>
        <source>100 % = %1; step %2 with communication</source>
        <translation>100% = %1；含通信整步 %2</translation>
    </message>
    <message>
        <source>%1 used</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <source>needs %1</source>
        <translation>需要 %1</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>peak %1; %2</source>
        <translation>峰值 %1；%2</translation>
    </message>
</context>
<context>
    <name>headroom::gui::VerdictWidget</name>
    <message>
        <source>Decided by PyTorch&apos;s caching allocator replayed under the GPU&apos;s memory</source>
        <translation>由在 GPU 显存容量下重放的 PyTorch 缓存分配器判定</translation>
    </message>
    <message>
        <source>Decided by the simulated peak</source>
        <translation>由模拟峰值判定</translation>
    </message>
    <message>
        <source>✔ Fits: %1 of %2 used, %3 free</source>
        <translation>✔ 放得下：已用 %1 / %2，剩余 %3</translation>
    </message>
    <message>
        <source>✘ Does not fit: needs %1 of %2, %3 over</source>
        <translation>✘ 放不下：需要 %1 / %2，超出 %3</translation>
    </message>
    <message>
        <source>Peak in the %1 of %2 (%3)</source>
        <translation>峰值位于%2的%1（%3）</translation>
    </message>
    <message>
        <source>recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>longest %1: …</source>
        <translation>%1上限：…</translation>
    </message>
    <message>
        <source>image side</source>
        <translation>图像边长</translation>
    </message>
    <message>
        <source>sequence</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Looking for changes that would make it fit…</source>
        <translation>正在寻找能让它放得下的改动…</translation>
    </message>
    <message>
        <source>none, even at batch 1</source>
        <translation>没有，批次为 1 也放不下</translation>
    </message>
    <message>
        <source>No change or combination of changes makes it fit; a GPU with more memory or more data-parallel GPUs with ZeRO would.</source>
        <translation>任何单项或组合修改都放不下；需要显存更大的 GPU，或用 ZeRO 增加数据并行 GPU。</translation>
    </message>
    <message>
        <source>%1 parameters</source>
        <translation>参数量 %1</translation>
    </message>
    <message>
        <source>%1 parameters, %2 trainable (%3, %4)</source>
        <translation>参数量 %1，可训练 %2（%3，%4）</translation>
    </message>
    <message>
        <source>PyTorch: max_memory_reserved …</source>
        <translation>PyTorch：max_memory_reserved …</translation>
    </message>
    <message>
        <source>%1 · largest micro-batch that fits: &lt;b&gt;%2&lt;/b&gt; · %3&lt;br&gt;Step %4 · %5 · MFU %6 of %7 · %8&lt;br&gt;%9</source>
        <translation>%1 · 放得下的最大微批次：&lt;b&gt;%2&lt;/b&gt; · %3&lt;br&gt;每步 %4 · %5 · MFU %6（峰值：%7）· %8&lt;br&gt;%9</translation>
    </message>
    <message>
        <source>%1 &lt;a href=&quot;time&quot;&gt;(%2–%3)&lt;/a&gt;</source>
        <translation>%1&lt;a href=&quot;time&quot;&gt;（%2–%3）&lt;/a&gt;</translation>
    </message>
    <message>
        <source>Stage %1 of %2, the most loaded: %3</source>
        <translation>第 %1 / %2 阶段（负载最重）：%3</translation>
    </message>
    <message>
        <source>Stage %1 of %2: %3</source>
        <translation>第 %1 / %2 阶段：%3</translation>
    </message>
    <message>
        <source>%1, of it pipeline bubble %2</source>
        <translation>%1，其中流水线气泡 %2</translation>
    </message>
    <message>
        <source>%1, &lt;a href=&quot;time&quot;&gt;host-bound&lt;/a&gt; (GPU busy %2)</source>
        <translation>%1，&lt;a href=&quot;time&quot;&gt;受主机限制&lt;/a&gt;（GPU 忙 %2）</translation>
    </message>
    <message>
        <source>%1, &lt;a href=&quot;time&quot;&gt;GPU-bound&lt;/a&gt;</source>
        <translation>%1，&lt;a href=&quot;time&quot;&gt;受 GPU 限制&lt;/a&gt;</translation>
    </message>
    <message>
        <source>(hide)</source>
        <translation>（收起）</translation>
    </message>
    <message>
        <source>(all %1 warnings)</source>
        <translation>（全部 %1 条警告）</translation>
    </message>
    <message>
        <source>(more)</source>
        <translation>（展开）</translation>
    </message>
    <message>
        <source>What would help:</source>
        <translation>可行的改动：</translation>
    </message>
    <message numerus="yes">
        <source>(%n more)</source>
        <translation>
            <numerusform>（还有 %n 项）</numerusform>
        </translation>
    </message>
    <message>
        <source>(fewer)</source>
        <translation>（收起）</translation>
    </message>
    <message>
        <source>longest %1 that fits: %2</source>
        <translation>放得下的%1上限：%2</translation>
    </message>
    <message>
        <source>Largest micro-batch that fits: &lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;Step %3 · %4</source>
        <translation>放得下的最大微批次：&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;每步 %3 · %4</translation>
    </message>
</context>
</TS>
