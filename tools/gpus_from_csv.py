#!/usr/bin/env python3
"""Generate the GPU catalog (gpus/*.json, format "headroom-gpu" version 1) from the reference table.

Inputs:  gpu-specs.csv (one row per GPU, the numbers) and gpu-specs.md (its "Sources" section gives each source's
         title and how it was read), plus gpu-specs-extra.csv / gpu-specs-extra.md: the GPUs added for issue 10
         (laptop, China-market and current data-center parts). The extra CSV carries its own per-figure source,
         confidence and note columns (src_*, conf_*, note_*), the laptop TGP range and what is not published, so
         its rows need no entries in the tables below. All four default to docs/references/ in the repository.
Output:  one pretty-printed JSON file per CSV row, named <id>.json, in gpus/ (the loader is parseGpuSpec in
         src/core/spec/gpuspec.cpp).

Every number comes from a CSV cell; this script only decides which of a row's sources back which figure, writes
the explanatory notes, and adds Headroom's framework-overhead allowance (not a hardware figure). Deterministic
and idempotent: same inputs, byte-identical files. Standard library only.

    python3 tools/gpus_from_csv.py                # write gpus/*.json
    python3 tools/gpus_from_csv.py --check        # exit 1 if any file would change (or is stale/missing)
"""

import argparse
import csv
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_REF = REPO / "docs" / "references"

# CSV id -> catalog id (file name = catalog id + ".json").
CATALOG_IDS = {
    "rtx_a3000_laptop_6gb": "rtx-a3000-6gb-laptop",
    "rtx_a3000_laptop_12gb": "rtx-a3000-12gb-laptop",
    "rtx_a2000_12gb": "rtx-a2000-12gb",
    "rtx_a4000": "rtx-a4000",
    "rtx_a5000": "rtx-a5000",
    "rtx_a6000": "rtx-a6000",
    "rtx_6000_ada": "rtx-6000-ada",
    "gtx_1080_ti": "gtx-1080-ti",
    "rtx_2080_ti": "rtx-2080-ti",
    "rtx_3060_12gb": "rtx-3060-12gb",
    "rtx_3080_10gb": "rtx-3080-10gb",
    "rtx_3090": "rtx-3090",
    "rtx_4060_ti_16gb": "rtx-4060-ti-16gb",
    "rtx_4070": "rtx-4070",
    "rtx_4080": "rtx-4080",
    "rtx_4090": "rtx-4090",
    "rtx_5090": "rtx-5090",
    "t4": "t4",
    "v100_sxm2_16gb": "v100-sxm2-16gb",
    "v100_sxm2_32gb": "v100-sxm2-32gb",
    "v100_pcie_16gb": "v100-pcie-16gb",
    "v100_pcie_32gb": "v100-pcie-32gb",
    "a10": "a10",
    "a30": "a30",
    "a40": "a40",
    "l4": "l4",
    "l40s": "l40s",
    "a100_40gb_pcie": "a100-pcie-40gb",
    "a100_40gb_sxm4": "a100-sxm4-40gb",
    "a100_80gb_pcie": "a100-pcie-80gb",
    "a100_80gb_sxm4": "a100-sxm4-80gb",
    "h100_pcie": "h100-pcie-80gb",
    "h100_sxm5": "h100-sxm5-80gb",
    "h200_sxm": "h200-sxm-141gb",
    "gh200_96gb": "gh200-96gb",
    "gh200_144gb": "gh200-144gb",
    "b200_hgx": "b200-hgx",
    "mi210": "mi210",
    "mi250x": "mi250x",
    "mi300x": "mi300x",
}

# Which of a row's sources back which figure. The CSV lists sources per row, not per cell; these choices follow
# the source descriptions in gpu-specs.md ("what it is") and the row notes. Keys: cap, rep (driver-reported MiB),
# bus, bw, fp32, tensor (all tensor units), pcie, link. A key that is absent falls back to every row source except
# NV-CUDA-CC and PCIIDS-GA104 (those back the compute capability and the SKU identity, not a figure).
ATTRIBUTION = {
    "rtx_a3000_laptop_6gb": dict(cap=["TPU-A3000-6", "FPSBENCH-A3000"], bus=["TPU-A3000-6", "FPSBENCH-A3000"],
                                 bw=["TPU-A3000-6", "FPSBENCH-A3000"],
                                 fp32=["TPU-A3000-6", "FPSBENCH-A3000", "HF-PR1962"],
                                 tensor=["TPU-A3000-6", "FPSBENCH-A3000"], pcie=["TPU-A3000-6"]),
    "rtx_a3000_laptop_12gb": dict(cap=["TPU-A3000-12", "HMC-A3000-12"], rep=["GIST-A3000"],
                                  bus=["TPU-A3000-12", "USERDOC-A3000"], bw=["TPU-A3000-12", "USERDOC-A3000"],
                                  fp32=["TPU-A3000-12", "HMC-A3000-12", "HF-PR1962"],
                                  tensor=["HMC-A3000-12", "USERDOC-A3000"], pcie=["USERDOC-A3000", "GIST-A3000"]),
    "rtx_a2000_12gb": dict(cap=["NV-A2000", "TPU-A2000"], bus=["TPU-A2000", "CPUTRONIC-A2000"],
                           bw=["NV-A2000", "TPU-A2000", "CPUTRONIC-A2000"], fp32=["NV-A2000", "TPU-A2000"],
                           tensor=["NV-A2000", "CPUTRONIC-A2000"], pcie=["NV-A2000", "TPU-A2000"]),
    "rtx_a4000": dict(cap=["NV-A4000-DS"], bus=["NV-A4000-DS", "SYSRQ-A4000"], bw=["NV-A4000-DS", "SYSRQ-A4000"],
                      fp32=["NV-A4000-DS"], tensor=["NV-A4000-DS"], pcie=["NV-A4000-DS"]),
    "rtx_a5000": dict(cap=["NV-A5000", "TPU-A5000"], bus=["TPU-A5000"], bw=["NV-A5000", "TPU-A5000"],
                      fp32=["NV-A5000", "TPU-A5000"], tensor=["NV-A5000"], pcie=["NV-A5000", "TPU-A5000"],
                      link=["NV-A5000"]),
    "rtx_a6000": dict(cap=["NV-A6000", "NV-GA102-WP", "TPU-A6000"],
                      bus=["NV-GA102-WP", "TPU-A6000", "SYSRQ-3060-A6000"],
                      bw=["NV-A6000", "NV-GA102-WP", "SYSRQ-3060-A6000"], fp32=["NV-A6000", "NV-GA102-WP"],
                      tensor=["NV-GA102-WP", "NV-A6000", "LLMANALYSIS", "LLMVIEWER"], pcie=["NV-A6000"],
                      link=["NV-A6000"]),
    "rtx_6000_ada": dict(cap=["NV-RTX6000ADA", "GRAFIK-RTX6000ADA"], bus=["GRAFIK-RTX6000ADA"],
                         bw=["NV-RTX6000ADA", "GRAFIK-RTX6000ADA"],
                         fp32=["NV-RTX6000ADA", "GRAFIK-RTX6000ADA", "CPUTRONIC-RTX6000ADA"],
                         tensor=["NV-RTXPROBW-WP", "NV-RTX6000ADA"], pcie=["NV-RTX6000ADA"]),
    "gtx_1080_ti": dict(cap=["VORTEZ-1080TI"], bus=["VORTEZ-1080TI"], bw=["VORTEZ-1080TI"],
                        fp32=["VORTEZ-1080TI", "BITTECH-TURING"], pcie=["VORTEZ-1080TI"]),
    "rtx_2080_ti": dict(cap=["NV-TURING-WP", "SPICE-2080TI"], bus=["NV-TURING-WP", "SPICE-2080TI"],
                        bw=["NV-TURING-WP", "SPICE-2080TI"], fp32=["NV-TURING-WP", "BITTECH-TURING"],
                        tensor=["NV-TURING-WP"], pcie=["TPU-2080TI"], link=["NV-TURING-WP"]),
    "rtx_3060_12gb": dict(cap=["SYSRQ-3060-A6000", "GURU3D-4060TI"], bus=["SYSRQ-3060-A6000", "GURU3D-4060TI"],
                          bw=["SYSRQ-3060-A6000", "GURU3D-4060TI"], fp32=["SYSRQ-3060-A6000"],
                          tensor=["SYSRQ-3060-A6000"], pcie=["SYSRQ-3060-A6000"]),
    "rtx_3080_10gb": dict(cap=["NV-GA102-WP", "ATIZONE-3080"], bus=["NV-GA102-WP", "ATIZONE-3080", "LAMBDA-CSV"],
                          bw=["NV-GA102-WP", "ATIZONE-3080"], fp32=["NV-GA102-WP"], tensor=["NV-GA102-WP"],
                          pcie=["NV-GA102-WP"]),
    "rtx_3090": dict(cap=["NV-GA102-WP", "HOLYNERD-3090"], bus=["NV-GA102-WP", "HOLYNERD-3090", "LAMBDA-CSV"],
                     bw=["NV-GA102-WP", "HOLYNERD-3090"], fp32=["NV-GA102-WP", "HOLYNERD-3090"],
                     tensor=["NV-GA102-WP", "NV-RTXBW-WP"], pcie=["NV-GA102-WP"], link=["NV-GA102-WP"]),
    "rtx_4060_ti_16gb": dict(cap=["CPUTRONIC-4060TI16", "FPSREVIEW-4060TI"],
                             bus=["FPSREVIEW-4060TI", "GURU3D-4060TI"], bw=["FPSREVIEW-4060TI", "GURU3D-4060TI"],
                             fp32=["CPUTRONIC-4060TI16"], tensor=["FPSREVIEW-4060TI"],
                             pcie=["CPUTRONIC-4060TI16", "GURU3D-4060TI"]),
    "rtx_4070": dict(cap=["CLUB386-40", "FPSREVIEW-4070"], bus=["CLUB386-40", "FPSREVIEW-4070"],
                     bw=["CLUB386-40", "FPSREVIEW-4070"], fp32=["CLUB386-40"], tensor=["CLUB386-40"],
                     pcie=["FPSREVIEW-4070"]),
    "rtx_4080": dict(cap=["NV-ADA-WP", "CLUB386-40"], bus=["NV-ADA-WP", "CLUB386-40"],
                     bw=["NV-ADA-WP", "CLUB386-40"], fp32=["NV-ADA-WP", "CLUB386-40"], tensor=["NV-ADA-WP"],
                     pcie=["NV-ADA-WP"]),
    "rtx_4090": dict(cap=["NV-ADA-WP", "CLUB386-40"], bus=["NV-ADA-WP", "CLUB386-40"],
                     bw=["NV-ADA-WP", "CLUB386-40"], fp32=["NV-ADA-WP", "CLUB386-40"], tensor=["NV-ADA-WP"],
                     pcie=["NV-ADA-WP"]),
    "rtx_5090": dict(cap=["NV-5090", "LXF-5090"], bus=["NV-RTXBW-WP", "LXF-5090"],
                     bw=["NV-5090", "NV-RTXBW-WP", "LXF-5090"], fp32=["NV-RTXBW-WP", "LXF-5090"],
                     tensor=["NV-RTXBW-WP"], pcie=["SPHERON-5090"]),
    "t4": dict(cap=["NV-T4-DS"], bus=["SYSRQ-T4"], bw=["SYSRQ-T4"], fp32=["NV-T4-DS"], tensor=["NV-T4-DS"],
               pcie=["NV-T4-DS"]),
    "v100_sxm2_16gb": dict(cap=["NV-V100-DS"], bus=["TECHRIVAL-V100"], bw=["NV-V100-DS"],
                           fp32=["NV-V100-DS", "LLMANALYSIS"], tensor=["NV-V100-DS", "LLMANALYSIS"],
                           pcie=["NV-V100-DS"], link=["NV-V100-DS"]),
    "v100_sxm2_32gb": dict(cap=["NV-V100-DS"], bus=["TECHRIVAL-V100"], bw=["NV-V100-DS"],
                           fp32=["NV-V100-DS", "LLMANALYSIS"], tensor=["NV-V100-DS", "LLMANALYSIS"],
                           pcie=["NV-V100-DS"], link=["NV-V100-DS"]),
    "v100_pcie_16gb": dict(cap=["NV-V100-DS"], bus=["SYSRQ-V100"], bw=["NV-V100-DS"],
                           fp32=["NV-V100-DS", "LLMANALYSIS"], tensor=["NV-V100-DS", "LLMANALYSIS"],
                           pcie=["NV-V100-DS"]),
    # TECHRIVAL-V100 (the Volta launch table, cited by the SXM2 rows) is borrowed for the bus width; see EXTRA_SOURCES.
    "v100_pcie_32gb": dict(cap=["NV-V100-DS"], bus=["TECHRIVAL-V100"], bw=["NV-V100-DS"],
                           fp32=["NV-V100-DS", "LLMANALYSIS"], tensor=["NV-V100-DS", "LLMANALYSIS"],
                           pcie=["NV-V100-DS"]),
    "a10": dict(cap=["NV-A10-DS"], bus=["NV-A10-DS"], bw=["NV-A10-DS"], fp32=["NV-A10-DS"], tensor=["NV-A10-DS"],
                pcie=["NV-A10-DS"]),
    "a30": dict(cap=["NV-A30-DS"], rep=["DEVICEQUERY-A30"], bus=["DEVICEQUERY-A30"], bw=["NV-A30-DS"],
                fp32=["NV-A30-DS"], tensor=["NV-A30-DS"], pcie=["NV-A30-DS"], link=["NV-A30-DS"]),
    "a40": dict(cap=["NV-A40-DS"], bus=["SYSRQ-A40"], bw=["NV-A40-DS"], fp32=["NV-A40-DS"], tensor=["NV-A40-DS"],
                pcie=["NV-A40-DS"], link=["NV-A40-DS"]),
    "l4": dict(cap=["NV-L4-DS"], bus=["FPSBENCH-L4"], bw=["NV-L4-DS", "FPSBENCH-L4"], fp32=["NV-L4-DS"],
               tensor=["NV-L4-DS"], pcie=["NV-L4-DS"]),
    "l40s": dict(cap=["NV-L40S-DS", "MLENG"], bus=["NV-L40S-DS"], bw=["NV-L40S-DS", "MLENG"],
                 fp32=["NV-L40S-DS"], tensor=["NV-L40S-DS", "MLENG"], pcie=["NV-L40S-DS"]),
    "a100_40gb_pcie": dict(cap=["NV-A100-DS", "NV-A100-PB40"], bus=["THUNDER-A100", "NV-AMPERE-WP"],
                           bw=["NV-A100-DS", "THUNDER-A100"], fp32=["NV-A100-DS", "NV-AMPERE-WP"],
                           tensor=["NV-A100-DS", "NV-AMPERE-WP", "GLENN-A100"], pcie=["NV-A100-DS", "NV-A100-PB40"],
                           link=["NV-A100-DS"]),
    "a100_40gb_sxm4": dict(cap=["NV-A100-DS"], rep=["UPB-A100"], bus=["UPB-A100", "THUNDER-A100"],
                           bw=["NV-A100-DS", "THUNDER-A100"], fp32=["NV-A100-DS", "GLENN-A100"],
                           tensor=["NV-A100-DS", "GLENN-A100"], pcie=["NV-A100-DS"], link=["NV-A100-DS"]),
    "a100_80gb_pcie": dict(cap=["NV-A100-DS", "NV-A100-PB80"], bus=["THUNDER-A100", "TPU-A100-80-PCIE"],
                           bw=["NV-A100-DS", "NV-A100-PB80", "THUNDER-A100"], fp32=["NV-A100-DS"],
                           tensor=["NV-A100-DS"], pcie=["NV-A100-DS", "NV-A100-PB80"],
                           link=["NV-A100-DS", "NV-A100-PB80"]),
    "a100_80gb_sxm4": dict(cap=["NV-A100-DS"], bus=["ANAND-H200", "THUNDER-A100"], bw=["NV-A100-DS", "THUNDER-A100"],
                           fp32=["NV-A100-DS", "GLENN-A100"], tensor=["NV-A100-DS", "GLENN-A100", "LLMANALYSIS"],
                           pcie=["NV-A100-DS"], link=["NV-A100-DS"]),
    "h100_pcie": dict(cap=["NV-H100-DS", "MLENG"], bus=["NV-H100PCIE-PB"], bw=["NV-H100-DS", "NV-H100PCIE-PB"],
                      fp32=["NV-H100-DS"], tensor=["NV-H100-DS", "MLENG"], pcie=["NV-H100-DS", "NV-H100PCIE-PB"],
                      link=["NV-H100-DS"]),
    "h100_sxm5": dict(cap=["NV-H100-DS"], bus=["ANAND-H200"], bw=["NV-H100-DS"], fp32=["NV-H100-DS"],
                      tensor=["NV-H100-DS", "MLENG", "LLMANALYSIS"], pcie=["NV-H100-DS"], link=["NV-H100-DS"]),
    "h200_sxm": dict(cap=["NV-H200", "MLPERF-H200"], bus=["ANAND-H200"], bw=["NV-H200", "ANAND-H200"],
                     fp32=["NV-H200", "MLENG"], tensor=["NV-H200", "MLENG"], pcie=["MLPERF-H200"],
                     link=["MLPERF-H200"]),
    "gh200_96gb": dict(cap=["NV-GH200", "SPHERON-GH200", "NISHIKI-GH200"], bw=["NV-GH200", "NISHIKI-GH200"],
                       fp32=["MLENG"], tensor=["MLENG"], pcie=["NV-GH200", "SPHERON-GH200"], link=["NV-GH200"]),
    "gh200_144gb": dict(cap=["NV-GH200"], bw=["NV-GH200"], fp32=["MLENG"], tensor=["MLENG"], pcie=["NV-GH200"],
                        link=["NV-GH200"]),
    "b200_hgx": dict(cap=["NV-HGX", "NV-DGXB200"], bus=["HMC-B200"], bw=["NV-HGX"], fp32=["NV-HGX"],
                     tensor=["NV-HGX"], pcie=["NV-HGX"], link=["NV-HGX"]),
    "mi210": dict(cap=["AMD-MI210", "ANAND-MI210", "ROCM-SPECS"], bus=["ANAND-MI210"], bw=["AMD-MI210", "ANAND-MI210"],
                  fp32=["AMD-MI210", "ANAND-MI210"], tensor=["AMD-MI210", "ANAND-MI210"], pcie=["AMD-MI210"],
                  link=["AMD-MI210", "ANAND-MI210"]),
    "mi250x": dict(cap=["AMD-MI250X", "ZEXRON-MI250X", "ROCM-SPECS"], bus=["WSM-MI250X"],
                   bw=["AMD-MI250X", "ZEXRON-MI250X", "WSM-MI250X"], fp32=["AMD-MI250X", "ZEXRON-MI250X"],
                   tensor=["AMD-MI250X", "ZEXRON-MI250X"], pcie=["AMD-MI250X"], link=["AMD-MI250X", "WSM-MI250X"]),
    "mi300x": dict(cap=["AMD-MI300X", "ROCM-SPECS", "MLPERF-MI300X"], bus=["AMD-MI300X"],
                   bw=["AMD-MI300X", "MLENG"], fp32=["AMD-MI300X", "MLENG"], tensor=["AMD-MI300X", "MLENG"],
                   pcie=["MLPERF-MI300X", "AMD-MI300X"], link=["AMD-MI300X"]),
}

# Sources a file needs beyond its CSV row's source_ids. Ids that exist in gpu-specs.md are taken from there;
# the others are defined here with url "".
EXTRA_SOURCES = {
    "v100_pcie_32gb": ["TECHRIVAL-V100"],
    "a30": ["DEVICEQUERY-A30"],
}
LOCAL_SOURCES = {
    "DEVICEQUERY-A30": {
        "title": "Public deviceQuery dump of an NVIDIA A30 found in a code index, repository not exposed: 24169 MiB "
                 "total, 3072-bit bus, 1215 MHz memory clock, 24 MiB L2 (as described in gpu-specs.md, A30 notes; "
                 "not among the CSV row's source_ids)",
        "url": "",
    },
    "HEADROOM-OVERHEAD": {
        "title": "Headroom default: CUDA/ROCm context plus library workspaces under PyTorch, typically a few hundred "
                 "MiB (gpu-specs.md conventions); not a hardware figure, edit to match nvidia-smi minus "
                 "torch.cuda.memory_reserved()",
        "url": "",
    },
}

# Figures whose confidence differs from the row's confidence_memory / confidence_compute, with the reason taken
# from the row notes or the source descriptions.
CONFIDENCE_OVERRIDES = {
    # FP32 is a published boost-clock figure; only the tensor rates of these rows are derived.
    ("rtx_a3000_laptop_6gb", "fp32"): "secondary",    # TechPowerUp reference clocks
    ("rtx_a3000_laptop_12gb", "fp32"): "secondary",   # TechPowerUp / hmc-tech
    ("rtx_a2000_12gb", "fp32"): "datasheet",
    ("rtx_a4000", "fp32"): "datasheet",
    ("rtx_a5000", "fp32"): "datasheet",
    ("rtx_3060_12gb", "fp32"): "secondary",           # TechPowerUp-derived page
    ("rtx_4060_ti_16gb", "fp32"): "secondary",
    ("rtx_4070", "fp32"): "secondary",
    # Tensor rates the row notes call DERIVED on rows whose compute confidence is otherwise datasheet.
    ("rtx_a6000", "tf32"): "derived",                 # half the BF16 rate, by the A40 ratio
    ("rtx_6000_ada", "tf32"): "derived",              # 1/2x BF16 with Ada ratios
    # Bus widths not printed by the vendor (row notes say where they come from).
    ("a10", "bus"): "derived",                        # GA102 configuration, 600 = 384 x 12.5 / 8
    ("l40s", "bus"): "derived",                       # 864 GB/s / 18 Gbps x 8
    ("a30", "bus"): "secondary",                      # public deviceQuery dump
    ("a40", "bus"): "secondary",                      # TechPowerUp-derived
    ("l4", "bus"): "secondary",                       # TechPowerUp figure
    ("h100_sxm5", "bus"): "secondary",                # AnandTech
    ("h200_sxm", "bus"): "secondary",                 # AnandTech
    ("b200_hgx", "bus"): "secondary",                 # hmc-tech
    ("rtx_a5000", "bus"): "secondary",
    ("rtx_6000_ada", "bus"): "secondary",
    ("rtx_a2000_12gb", "bus"): "secondary",
    ("v100_sxm2_16gb", "bus"): "secondary",
    ("v100_sxm2_32gb", "bus"): "secondary",
    ("v100_pcie_16gb", "bus"): "secondary",
    ("v100_pcie_32gb", "bus"): "secondary",
    ("a100_40gb_sxm4", "bus"): "secondary",
    ("a100_80gb_pcie", "bus"): "secondary",
    ("a100_80gb_sxm4", "bus"): "secondary",
    ("mi250x", "bus"): "secondary",
}

# Extra per-figure notes that the generic rules below cannot produce.
FIGURE_NOTES = {
    ("t4", "bw"): "256-bit x 10 Gbps / 8 = 320 GB/s from clocks (TechPowerUp-derived); NVIDIA's T4 datasheet "
                  "(NV-T4-DS) prints 300 GB/s. The reference table keeps 320; set 300 to use the vendor's number",
    ("v100_sxm2_16gb", "bw"): "NVIDIA states 900 GB/s; TechPowerUp computes 897 from clocks (4096-bit x ~1.75 Gbps / 8)",
    ("v100_sxm2_32gb", "bw"): "NVIDIA states 900 GB/s; TechPowerUp computes 897 from clocks (4096-bit x ~1.75 Gbps / 8)",
    ("v100_pcie_16gb", "bw"): "NVIDIA states 900 GB/s; TechPowerUp computes 897 from clocks (4096-bit x ~1.75 Gbps / 8)",
    ("v100_pcie_32gb", "bw"): "NVIDIA states 900 GB/s; TechPowerUp computes 897 from clocks (4096-bit x ~1.75 Gbps / 8)",
    ("v100_pcie_32gb", "bus"): "4096-bit HBM2 (four stacks) as on every GV100 board; the CSV row's own sources do not "
                               "print it, so the Volta launch table cited by the SXM2 rows is borrowed",
    ("a100_80gb_sxm4", "bw"): "NVIDIA states 2,039 GB/s; ~3.2 Gbps HBM2e (AnandTech) x 5120-bit / 8 = ~2,048",
    ("h100_sxm5", "bw"): "NVIDIA states 3.35 TB/s; 5.24 Gbps (AnandTech) x 5120-bit / 8 = ~3,354",
    ("a10", "bus"): "from the GA102 configuration (not printed in the datasheet); 600 GB/s = 384-bit x 12.5 Gbps / 8",
    ("l40s", "bus"): "derived: 864 GB/s / 18 Gbps x 8 (not printed in the datasheet)",
    ("a30", "bus"): "from a public deviceQuery dump (memory clock 1215 MHz)",
    ("a30", "rep"): "driver-reported total (deviceQuery: 24169 MiB)",
    ("a100_40gb_sxm4", "rep"): "driver-reported total (deviceQuery on an A100 40GB NVLink node: 40441 MiB, ~39.5 GiB)",
    ("rtx_a3000_laptop_12gb", "rep"): "driver-reported total (NVIDIA System Information: 12288 MB dedicated)",
    ("h200_sxm", "bus"): "6144-bit (all six HBM3e stacks) per AnandTech; not in NVIDIA's H200 material",
    ("b200_hgx", "bus"): "hmc-tech's figure (secondary); NVIDIA does not print a bus width",
    ("b200_hgx", "cap"): "current HGX B200 table; the March 2024 launch brief said 192 GB and an HGX B200 node "
                         "reports ~179 GB",
    ("b200_hgx", "bw"): "current HGX B200 table; the launch brief and the DGX B200 datasheet (64 TB/s for 8 GPUs) "
                        "say 8 TB/s",
    ("b200_hgx", "fp32"): "current HGX B200 table; the March 2024 launch brief said 80 TFLOPS",
    ("gh200_96gb", "cap"): "GPU HBM3 only; the Grace CPU adds 480 GB LPDDR5X reachable over NVLink-C2C",
    ("gh200_144gb", "cap"): "NVIDIA's product page (144 GB at 4.9 TB/s); the Aug-2023 announcement said 141 GB at "
                            "~5 TB/s and ml-engineering lists 141 GB / 4.8 TB/s. Treat as 141-144 GB. GPU HBM3e only; "
                            "the Grace CPU adds LPDDR5X reachable over NVLink-C2C",
    ("gh200_144gb", "bw"): "NVIDIA's product page; the Aug-2023 announcement said ~5 TB/s, ml-engineering 4.8 TB/s",
    ("mi250x", "cap"): "AMD states 128 GiB (ROCm table). The package holds TWO GPUs (GCDs) of 64 GB / 1.6 TB/s each "
                       "and frameworks see two devices: for a single-device fit use 64",
    ("mi250x", "bw"): "both GCDs together; each GCD (one framework device) has half",
}

GPU_LINK_NOTES = {
    "rtx_a5000": "NVLink bridge, 2 GPUs only",
    "rtx_a6000": "NVLink bridge, 2 GPUs only",
    "rtx_2080_ti": "NVLink bridge, 2 GPUs only",
    "rtx_3090": "NVLink bridge, 2 GPUs only",
    "a30": "NVLink bridge, 2 GPUs only",
    "a40": "NVLink bridge, 2 GPUs only",
    "a100_40gb_pcie": "optional NVLink bridge pairing 2 GPUs; without it GPU-GPU traffic uses PCIe",
    "a100_80gb_pcie": "optional NVLink bridge pairing 2 GPUs; without it GPU-GPU traffic uses PCIe",
    "h100_pcie": "NVLink bridge; without it GPU-GPU traffic uses PCIe",
    "v100_sxm2_16gb": "NVLink 2.0",
    "v100_sxm2_32gb": "NVLink 2.0",
    "a100_40gb_sxm4": "NVLink 3.0, 12 links",
    "a100_80gb_sxm4": "NVLink 3.0",
    "h100_sxm5": "NVLink 4, 18 links",
    "h200_sxm": "NVLink 4, 18 links",
    "gh200_96gb": "NVLink 4 GPU-GPU in NVLink-switch systems",
    "gh200_144gb": "NVLink 4 GPU-GPU in NVLink-switch systems",
    "b200_hgx": "NVLink 5",
    "mi210": "3 Infinity Fabric links (bridge), up to 300 GB/s",
    "mi250x": "up to 8 Infinity Fabric links x 100 GB/s (some used GCD-GCD / CPU)",
    "mi300x": "7 Infinity Fabric links x 128 GB/s",
}

# How many GPUs the link joins. Bridges pair two cards (MI210's Infinity Fabric bridge joins up to four); SXM and
# OAM boards join eight; DGX GH200 joins 256 superchips over NVLink switches. Beyond it, collectives use the host
# link (PCIe or the network), which is what Headroom times them on.
GPU_LINK_DOMAIN = {
    "rtx_a5000": 2, "rtx_a6000": 2, "rtx_2080_ti": 2, "rtx_3090": 2, "a30": 2, "a40": 2,
    "a100_40gb_pcie": 2, "a100_80gb_pcie": 2, "h100_pcie": 2,
    "v100_sxm2_16gb": 8, "v100_sxm2_32gb": 8, "a100_40gb_sxm4": 8, "a100_80gb_sxm4": 8,
    "h100_sxm5": 8, "h200_sxm": 8, "b200_hgx": 8,
    "gh200_96gb": 256, "gh200_144gb": 256,
    "mi210": 4, "mi250x": 8, "mi300x": 8,
}

PCIE_X16 = {"3": 32, "4": 64, "5": 128, "6": 256}  # GB/s bidirectional, gpu-specs.md conventions

# Rows that have no PCIe host link: the GPU reaches its host CPU over NVLink-C2C. pcie_gb_per_s is the host link
# Headroom uses for optimizer-offload timing, so it carries the C2C figure (a published number, not a PCIe rate).
HOST_LINK_C2C = {
    "gh200_96gb": 900,
    "gh200_144gb": 900,
}

OVERHEAD_MIB = [  # architecture prefix -> Headroom default allowance
    ("Pascal", 300), ("Volta", 300), ("Turing", 300),
    ("Ampere", 400), ("Ada", 400),
    ("Hopper", 500), ("Blackwell", 500),
    ("CDNA", 400),
    ("Gaudi", 500), ("Da Vinci", 500),  # extra rows carry their own overhead note (placeholders, not measured)
]

# Filled from gpu-specs-extra.csv by load_extra(): per-figure notes the generic rules cannot produce (fp32, tensor,
# pcie, link), overhead overrides, and the power / not-published sentences of the file notes.
EXTRA_NOTES = {}
EXTRA_OVERHEAD = {}
EXTRA_ROW_TEXT = {}

# Rows whose vendor tensor headline is sparsity-doubled (gpu-specs.md conventions).
SPARSE_HEADLINE = {"rtx_a2000_12gb", "rtx_a4000", "rtx_a5000", "rtx_a6000", "rtx_6000_ada", "l4", "h100_pcie",
                   "h100_sxm5", "h200_sxm", "gh200_96gb", "gh200_144gb", "b200_hgx"}
# Professional parts whose FP32-accumulate policy NVIDIA does not state (assumed not halved).
ACCUMULATE_ASSUMED = {"rtx_a3000_laptop_6gb", "rtx_a3000_laptop_12gb", "rtx_a2000_12gb", "rtx_a4000", "rtx_a5000"}

UNIT_COLUMNS = [
    ("fp32", "fp32_nontensor_TFLOPS"),
    ("tf32", "tf32_tensor_dense_TFLOPS"),
    ("fp16", "fp16_tensor_dense_fp32_accumulate_TFLOPS"),
    ("bf16", "bf16_tensor_dense_TFLOPS"),
    ("fp8", "fp8_tensor_dense_TFLOPS"),
]


def fail(msg):
    sys.exit("gpus_from_csv: " + msg)


def num(cell):
    """CSV cell -> int or float (as written), None when empty."""
    cell = cell.strip()
    if not cell:
        return None
    if not re.fullmatch(r"\d+(\.\d+)?", cell):
        fail("not a plain number: %r" % cell)
    return float(cell) if "." in cell else int(cell)


def fmt(v):
    return ("%d" % v) if float(v).is_integer() else repr(float(v))


def parse_sources_section(md_text):
    """'* **ID** — URL — what it is — how it was read' entries of the '## Sources' section."""
    start = md_text.find("\n## Sources")
    if start < 0:
        fail("gpu-specs.md has no '## Sources' section")
    end = md_text.find("\n## ", start + 1)
    section = md_text[start:end if end > 0 else len(md_text)]
    out = {}
    for m in re.finditer(r"^\* \*\*([A-Z0-9][A-Z0-9-]*)\*\* — (.*)$", section, re.M):
        parts = m.group(2).split(" — ")
        if len(parts) != 3:
            fail("source %s: expected 'URL — what — how', got %r" % (m.group(1), m.group(2)))
        url, what, how = (p.strip() for p in parts)
        if url.startswith("("):
            entry = {"title": "%s (%s; %s)" % (what, url.strip("()"), how), "url": ""}
        else:
            entry = {"title": "%s (%s)" % (what, how), "url": url}
        out[m.group(1)] = (entry, url)
    return out


def row_sources(row, md_sources):
    ids = [s.strip() for s in row["source_ids"].split(";")]
    urls = [u.strip() for u in row["source_urls"].split("|")]
    if len(ids) != len(urls):
        fail("%s: %d source ids but %d urls" % (row["id"], len(ids), len(urls)))
    table = {}
    for sid, url in zip(ids, urls):
        if sid not in md_sources:
            fail("%s: source %s is not in gpu-specs.md" % (row["id"], sid))
        entry, md_url = md_sources[sid]
        if md_url != url:
            fail("%s: source %s url differs between CSV (%r) and md (%r)" % (row["id"], sid, url, md_url))
        table[sid] = dict(entry)
    for sid in EXTRA_SOURCES.get(row["id"], []):
        table[sid] = dict(LOCAL_SOURCES[sid]) if sid in LOCAL_SOURCES else dict(md_sources[sid][0])
    table["HEADROOM-OVERHEAD"] = dict(LOCAL_SOURCES["HEADROOM-OVERHEAD"])
    return table


def figure(value, sources, note=None, confidence=None):
    f = {"value": value, "sources": list(sources)}
    if note:
        f["note"] = note
    if confidence:
        f["confidence"] = confidence
    return f


def build(row, md_sources):
    rid = row["id"]
    table = row_sources(row, md_sources)
    attrib = ATTRIBUTION.get(rid, {})
    default = [s for s in table if s not in ("NV-CUDA-CC", "PCIIDS-GA104", "HEADROOM-OVERHEAD")]

    def src(key):
        ids = attrib.get(key, default)
        for s in ids:
            if s not in table:
                fail("%s: figure %s cites %s, which the file does not define" % (rid, key, s))
        return ids

    def conf(key, base):
        return CONFIDENCE_OVERRIDES.get((rid, key), base)

    conf_mem = row["confidence_memory"]
    conf_cmp = row["confidence_compute"]
    nvidia_geforce = row["vendor"] == "NVIDIA" and row["segment"] in ("consumer desktop", "consumer laptop")
    amd = row["vendor"] == "AMD"

    # ---- memory
    memory = {}
    cap = num(row["memory_capacity_GB"])
    cap_note = FIGURE_NOTES.get((rid, "cap"))
    gib = num(row["memory_capacity_GiB_vendor_stated"])
    if gib is not None and not cap_note:
        cap_note = "AMD states %s GiB (ROCm table); vendor GB read as GiB" % fmt(gib)
    if not cap_note and num(row["reported_total_memory_MiB"]) is not None:
        cap_note = "vendor GB; Headroom uses the driver-reported total (reported_mib) where present"
    if not cap_note:
        cap_note = "vendor GB (physically GiB of DRAM); the driver exposes roughly 1-3% less"
    memory["capacity_gb"] = figure(cap, src("cap"), cap_note, conf("cap", conf_mem))
    rep = num(row["reported_total_memory_MiB"])
    if rep is not None:
        memory["reported_mib"] = figure(rep, src("rep"), FIGURE_NOTES.get((rid, "rep"), "driver-reported total"),
                                        "secondary")
    memory["type"] = row["memory_type"]
    bus = num(row["memory_bus_width_bits"])
    if bus is not None:
        memory["bus_width_bits"] = figure(bus, src("bus"), FIGURE_NOTES.get((rid, "bus")), conf("bus", conf_mem))
    bw = num(row["memory_bandwidth_GB_per_s"])
    rate = num(row["memory_data_rate_Gbps_per_pin"])
    bw_note = FIGURE_NOTES.get((rid, "bw"))
    if not bw_note and bus is not None and rate is not None:
        calc = bus * rate / 8
        if abs(calc - bw) <= 0.0005 * bw:
            bw_note = "%s-bit x %s Gbps / 8" % (fmt(bus), fmt(rate))
        else:
            bw_note = "published figure; %s-bit x %s Gbps / 8 = %.1f" % (fmt(bus), fmt(rate), calc)
    if not bw_note:
        bw_note = "published figure"
    memory["bandwidth_gb_per_s"] = figure(bw, src("bw"), bw_note, conf("bw", conf_mem))

    # ---- compute
    compute = {}
    fp16acc = num(row["fp16_tensor_dense_fp16_accumulate_TFLOPS"])
    for unit, column in UNIT_COLUMNS:
        v = num(row[column])
        if v is None:
            if unit == "fp32":
                fail("%s: fp32 is required" % rid)
            continue
        notes = []
        if unit == "fp32":
            if row["vendor"] not in ("Intel", "Huawei"):  # accelerators without a GPU-style vector peak: see the note
                notes.append("non-tensor (vector) rate at boost clock")
            if amd:
                notes.append("FP32 matrix (MFMA) rate is in the notes")
            if rid.startswith("rtx_a3000"):
                notes.append("reference clock; laptop TGP is OEM-set")
            if (rid, "fp32") in EXTRA_NOTES:
                notes.append(EXTRA_NOTES[(rid, "fp32")])
        else:
            notes.append("dense tensor")
            if unit == "fp16":
                notes.append("FP32 accumulate (the mixed-precision training rate)")
                if fp16acc is not None and fp16acc != v:
                    notes.append("%s with FP16 accumulate" % fmt(fp16acc))
                if amd:
                    notes.append("MFMA accumulates in FP32")
            elif unit in ("tf32", "bf16"):
                notes.append("FP32 accumulate")
            elif unit == "fp8" and nvidia_geforce:
                notes.append("FP32 accumulate; 2x with FP16 accumulate")
            if nvidia_geforce and unit != "fp8":
                notes.append("GeForce runs FP32-accumulate tensor math at half the FP16-accumulate rate")
            if rid in ACCUMULATE_ASSUMED:
                notes.append("assumes no GeForce-style FP32-accumulate halving (NVIDIA does not state the policy)")
            if rid in SPARSE_HEADLINE:
                notes.append("vendor headline figures are with sparsity (2x)")
            if conf_cmp == "derived":
                notes.append("derived from SMs x clock x per-SM rate (see notes)")
            if (rid, "tensor") in EXTRA_NOTES:
                notes.append(EXTRA_NOTES[(rid, "tensor")])
        key = "fp32" if unit == "fp32" else "tensor"
        compute[unit] = figure(v, src(key), "; ".join(notes), conf(unit, conf_cmp))

    # ---- links
    links = {}
    gen, lanes = row["pcie_gen"].strip(), num(row["pcie_lanes"])
    if rid in HOST_LINK_C2C:
        if gen or lanes:
            fail("%s: has a PCIe gen/lanes and a C2C host link" % rid)
        links["pcie_gb_per_s"] = figure(
            HOST_LINK_C2C[rid], src("pcie"),
            "no PCIe host link: the GPU reaches the Grace CPU (LPDDR5X) over NVLink-C2C, 900 GB/s bidirectional; "
            "this field is the host link Headroom uses for offload timing, so it carries the C2C figure",
            "secondary")
    else:
        if gen not in PCIE_X16 or lanes is None:
            fail("%s: cannot map PCIe gen %r lanes %r" % (rid, gen, lanes))
        value = PCIE_X16[gen] * lanes / 16
        value = int(value) if float(value).is_integer() else value
        pnote = "PCIe %s.0 x%s, bidirectional" % (gen, fmt(lanes))
        if rid == "rtx_a3000_laptop_12gb":
            pnote += "; x8 (32 GB/s) in some laptops (Dell Precision report)"
        elif rid == "rtx_a3000_laptop_6gb":
            pnote += "; lane count is laptop-dependent"
        if (rid, "pcie") in EXTRA_NOTES:
            pnote += "; " + EXTRA_NOTES[(rid, "pcie")]
        links["pcie_gb_per_s"] = figure(value, src("pcie"), pnote, conf("pcie", None))
    link = num(row["gpu_interconnect_bidirectional_GB_per_s"])
    if link is not None:
        if rid not in GPU_LINK_NOTES:
            fail("%s: no GPU_LINK_NOTES entry for its GPU-GPU link" % rid)
        lnote = GPU_LINK_NOTES[rid] + "; bidirectional aggregate"
        if (rid, "link") in EXTRA_NOTES:
            lnote += "; " + EXTRA_NOTES[(rid, "link")]
        links["gpu_link_gb_per_s"] = figure(link, src("link"), lnote, conf("link", None))
        if rid not in GPU_LINK_DOMAIN:
            fail("%s: no GPU_LINK_DOMAIN entry for its GPU-GPU link" % rid)
        links["gpu_link_max_gpus"] = GPU_LINK_DOMAIN[rid]
    if row["interconnect_notes"].strip():
        links["notes"] = row["interconnect_notes"].strip()

    # ---- overhead
    arch = row["architecture"]
    mib = next((v for prefix, v in OVERHEAD_MIB if arch.startswith(prefix)), None)
    if mib is None:
        fail("%s: no overhead default for architecture %r" % (rid, arch))
    runtime, libs = ("ROCm", "rocBLAS/MIOpen") if amd else ("CUDA", "cuBLAS/cuDNN")
    onote = ("%s context plus %s workspaces under PyTorch; Headroom's default for %s, not a hardware figure"
             % (runtime, libs, arch.split(" (")[0]))
    if rid in EXTRA_OVERHEAD:
        mib, onote = EXTRA_OVERHEAD[rid]
    overhead = figure(mib, ["HEADROOM-OVERHEAD"], onote, "estimate")

    # ---- notes
    parts = [row["notes"].strip()]
    if row["unsupported_formats"].strip():
        parts.append("Not supported: %s." % row["unsupported_formats"].strip().rstrip("."))
    if row["vendor_sparse_figures"].strip():
        parts.append("Vendor sparse figures: %s." % row["vendor_sparse_figures"].strip().rstrip("."))
    extra = []
    int8 = num(row["int8_tensor_dense_TOPS"])
    if int8 is not None:
        extra.append("INT8 tensor %s TOPS dense" % fmt(int8))
    if fp16acc is not None:
        extra.append("FP16 tensor with FP16 accumulate %s TFLOPS dense" % fmt(fp16acc))
    if rate is not None:
        extra.append("memory data rate %s Gbps per pin" % fmt(rate))
    l2 = num(row["l2_cache_MB"])
    if l2 is not None:
        extra.append("L2 %s MB" % fmt(l2))
    tdp = num(row["tdp_W"])
    if tdp is not None:
        extra.append("TDP %s W" % fmt(tdp))
    if extra:
        parts.append("Other reference figures: %s." % "; ".join(extra))
    power, unpublished, csv_name = EXTRA_ROW_TEXT.get(rid, ("", "", "gpu-specs.csv"))
    if power:
        parts.append("Power: %s." % power.rstrip("."))
    if unpublished:
        parts.append("Not published or not found in the stored sources: %s." % unpublished.rstrip("."))
    parts.append("Confidence: memory %s, compute %s (overall %s). Reference id: %s (%s)."
                 % (conf_mem, conf_cmp, row["confidence"], rid, csv_name))

    return {
        "format": "headroom-gpu",
        "version": 1,
        "id": CATALOG_IDS[rid],
        "name": row["name"].strip(),
        "vendor": row["vendor"].strip(),
        "segment": row["segment"].strip(),
        "architecture": arch.strip(),
        "chip": row["gpu_chip"].strip(),
        "compute_capability": row["compute_capability_or_gfx_target"].strip(),
        "launch_year": num(row["launch_year"]),
        "memory": memory,
        "compute_tflops": compute,
        "links": links,
        "framework_overhead_mib": overhead,
        "notes": " ".join(p for p in parts if p),
        "sources": table,
    }


def load_extra(row, csv_name):
    """Registers an extra-CSV row's per-figure columns in the tables build() reads."""
    rid = row["id"]
    if rid in CATALOG_IDS or row["catalog_id"] in CATALOG_IDS.values():
        fail("%s: id or catalog id %r is used twice" % (rid, row["catalog_id"]))
    CATALOG_IDS[rid] = row["catalog_id"]

    def ids(cell):
        return [s.strip() for s in cell.split(";") if s.strip()]

    attrib = {}
    for key, col in (("cap", "src_capacity"), ("bus", "src_bus"), ("bw", "src_bandwidth"), ("fp32", "src_fp32"),
                     ("tensor", "src_tensor"), ("pcie", "src_pcie"), ("link", "src_link")):
        if ids(row[col]):
            attrib[key] = ids(row[col])
    ATTRIBUTION[rid] = attrib
    for key, col in (("cap", "conf_capacity"), ("bus", "conf_bus"), ("bw", "conf_bandwidth"), ("fp32", "conf_fp32"),
                     ("tf32", "conf_tf32"), ("fp16", "conf_fp16"), ("bf16", "conf_bf16"), ("fp8", "conf_fp8"),
                     ("pcie", "conf_pcie"), ("link", "conf_link")):
        if row[col].strip():
            CONFIDENCE_OVERRIDES[(rid, key)] = row[col].strip()
    for key, col in (("cap", "note_capacity"), ("bus", "note_bus"), ("bw", "note_bandwidth")):
        if row[col].strip():
            FIGURE_NOTES[(rid, key)] = row[col].strip()
    for key, col in (("fp32", "note_fp32"), ("tensor", "note_tensor"), ("pcie", "note_pcie"), ("link", "note_link")):
        if row[col].strip():
            EXTRA_NOTES[(rid, key)] = row[col].strip()
    if row["gpu_interconnect_bidirectional_GB_per_s"].strip():
        GPU_LINK_NOTES[rid] = row["gpu_link_note"].strip() or "GPU-GPU link"
        GPU_LINK_DOMAIN[rid] = num(row["gpu_link_max_gpus"]) or 2
    if row["host_link_c2c_GB_per_s"].strip():
        HOST_LINK_C2C[rid] = num(row["host_link_c2c_GB_per_s"])
    if row["overhead_MiB"].strip():
        EXTRA_OVERHEAD[rid] = (num(row["overhead_MiB"]), row["overhead_note"].strip())
    EXTRA_ROW_TEXT[rid] = (row["power_notes"].strip(), row["not_published"].strip(), csv_name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", type=Path, default=DEFAULT_REF / "gpu-specs.csv")
    ap.add_argument("--md", type=Path, default=DEFAULT_REF / "gpu-specs.md")
    ap.add_argument("--extra-csv", type=Path, default=DEFAULT_REF / "gpu-specs-extra.csv")
    ap.add_argument("--extra-md", type=Path, default=DEFAULT_REF / "gpu-specs-extra.md")
    ap.add_argument("--out", type=Path, default=REPO / "gpus")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file would change")
    args = ap.parse_args()

    md_sources = parse_sources_section(args.md.read_text(encoding="utf-8"))
    with args.csv.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    seen = [r["id"] for r in rows]
    if sorted(seen) != sorted(CATALOG_IDS) or len(set(seen)) != len(seen):
        fail("CSV ids and CATALOG_IDS differ: only in CSV %s, only in script %s"
             % (sorted(set(seen) - set(CATALOG_IDS)), sorted(set(CATALOG_IDS) - set(seen))))
    unused = set(ATTRIBUTION) - set(seen)
    if unused:
        fail("ATTRIBUTION names unknown rows %s" % sorted(unused))
    if args.extra_csv.exists():
        extra_md = parse_sources_section(args.extra_md.read_text(encoding="utf-8"))
        for sid, entry in extra_md.items():
            if sid in md_sources and md_sources[sid] != entry:
                fail("source %s is defined differently in %s and %s" % (sid, args.md.name, args.extra_md.name))
            md_sources[sid] = entry
        with args.extra_csv.open(newline="", encoding="utf-8") as fh:
            extra_rows = list(csv.DictReader(fh))
        for row in extra_rows:
            load_extra(row, args.extra_csv.name)
        rows += extra_rows

    wanted = {}
    for row in rows:
        doc = build(row, md_sources)
        wanted[doc["id"] + ".json"] = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

    stale = sorted(p.name for p in args.out.glob("*.json") if p.name not in wanted) if args.out.is_dir() else []
    changed = []
    for name, text in wanted.items():
        path = args.out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            changed.append(name)
            if not args.check:
                args.out.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    if args.check:
        if changed or stale:
            print("out of date: %s; not generated by this script: %s" % (changed or "none", stale or "none"))
            return 1
        print("%d files up to date" % len(wanted))
        return 0
    print("%d files, %d written%s" % (len(wanted), len(changed),
                                       ("; not generated by this script: %s" % stale) if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
