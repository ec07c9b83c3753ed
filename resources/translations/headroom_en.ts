<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CheckpointComparison</name>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>headroom::gui::PlanView</name>
    <message numerus="yes">
        <source>Planning %n GPU(s)…</source>
        <translation>
            <numerusform>Planning %n GPU…</numerusform>
            <numerusform>Planning %n GPUs…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layout(s) simulated; none fits: the lowest peaks are listed.</source>
        <translation>
            <numerusform>%n layout simulated; none fits: the lowest peaks are listed.</numerusform>
            <numerusform>%n layouts simulated; none fits: the lowest peaks are listed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layout(s) simulated; those that fit, fastest first (★ on the front of memory per GPU against step time). Double-click one to apply it.</source>
        <translation>
            <numerusform>%n layout simulated; those that fit, fastest first (★ on the front of memory per GPU against step time). Double-click one to apply it.</numerusform>
            <numerusform>%n layouts simulated; those that fit, fastest first (★ on the front of memory per GPU against step time). Double-click one to apply it.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Planning %n GPU type(s)…</source>
        <translation>
            <numerusform>Planning %n GPU type…</numerusform>
            <numerusform>Planning %n GPU types…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The same job on %n GPU(s) of each type: the time to train %1 and the GPU-hours, by the fastest layout that fits (as `headroom plan --gpu … --tokens`), fastest first. Type a price per GPU-hour for the cost; double-click a type to apply its GPU and layout.</source>
        <translation>
            <numerusform>The same job on %n GPU of each type: the time to train %1 and the GPU-hours, by the fastest layout that fits (as `headroom plan --gpu … --tokens`), fastest first. Type a price per GPU-hour for the cost; double-click a type to apply its GPU and layout.</numerusform>
            <numerusform>The same job on %n GPUs of each type: the time to train %1 and the GPU-hours, by the fastest layout that fits (as `headroom plan --gpu … --tokens`), fastest first. Type a price per GPU-hour for the cost; double-click a type to apply its GPU and layout.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>headroom::gui::ScalingView</name>
    <message numerus="yes">
        <source>Each added GPU is another data-parallel replica of %n GPU(s), with the same micro-batch: perfect scaling keeps %1 per GPU (dashed).</source>
        <translation>
            <numerusform>Each added GPU is another data-parallel replica of %n GPU, with the same micro-batch: perfect scaling keeps %1 per GPU (dashed).</numerusform>
            <numerusform>Each added GPU is another data-parallel replica of %n GPUs, with the same micro-batch: perfect scaling keeps %1 per GPU (dashed).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>headroom::gui::VerdictWidget</name>
    <message numerus="yes">
        <source>(%n more)</source>
        <translation>
            <numerusform>(%n more)</numerusform>
            <numerusform>(%n more)</numerusform>
        </translation>
    </message>
</context>
</TS>
