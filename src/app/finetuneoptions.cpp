#include "finetuneoptions.h"

#include "optionparse.h"
#include "scenario.h"

namespace headroom {

namespace {

    const QCommandLineOption kFinetune({ QStringLiteral("finetune") },
                                       QStringLiteral("What trains: full (default), freeze (embeddings and the "
                                                      "first --frozen-layers blocks frozen), lora, dora or qlora "
                                                      "(LoRA over an NF4 base, as PEFT and bitsandbytes run them)."),
                                       QStringLiteral("method"));
    const QCommandLineOption kRank({ QStringLiteral("lora-rank") }, QStringLiteral("LoRA rank r (default 8, PEFT's)."),
                                   QStringLiteral("N"));
    const QCommandLineOption kAlpha({ QStringLiteral("lora-alpha") },
                                    QStringLiteral("LoRA alpha (default 8, PEFT's); scaling = alpha / r."),
                                    QStringLiteral("N"));
    const QCommandLineOption kDropout({ QStringLiteral("lora-dropout") },
                                      QStringLiteral("Dropout on the adapters' input (default 0, PEFT's)."),
                                      QStringLiteral("P"));
    const QCommandLineOption kTargets({ QStringLiteral("lora-targets") },
                                      QStringLiteral("Comma-separated module names to adapt (q_proj,v_proj; query; "
                                                     "c_attn; attn.q) or all-linear (default: PEFT's for the "
                                                     "architecture, q and v)."),
                                      QStringLiteral("LIST"));
    const QCommandLineOption kTask({ QStringLiteral("task") },
                                   QStringLiteral("The head to train: causal-lm, masked-lm, seq-cls "
                                                  "(*ForSequenceClassification) or token-cls "
                                                  "(*ForTokenClassification); default: the model's own."),
                                   QStringLiteral("task"));
    const QCommandLineOption kLabels({ QStringLiteral("num-labels") },
                                     QStringLiteral("Classes of a seq-cls or token-cls head (default 2, "
                                                    "transformers')."),
                                     QStringLiteral("N"));
    const QCommandLineOption kFrozen({ QStringLiteral("frozen-layers") },
                                     QStringLiteral("With --finetune freeze: blocks frozen from the input side "
                                                    "(default: all, only the head trains)."),
                                     QStringLiteral("N"));

    QString optionFor(const std::string& field)
    {
        QString f = QString::fromStdString(field);
        if (f == QLatin1String("sequence_length"))
            return QStringLiteral("seq");
        if (f == QLatin1String("tensor_parallel"))
            return QStringLiteral("tp");
        if (f == QLatin1String("sequence_parallel"))
            return QStringLiteral("sp");
        if (f == QLatin1String("pipeline_parallel"))
            return QStringLiteral("pp");
        if (f == QLatin1String("virtual_stages"))
            return QStringLiteral("vpp");
        if (f == QLatin1String("first_stage_layers"))
            return QStringLiteral("pp-first-layers");
        if (f == QLatin1String("last_stage_layers"))
            return QStringLiteral("pp-last-layers");
        if (f == QLatin1String("expert_parallel"))
            return QStringLiteral("ep");
        if (f == QLatin1String("context_parallel"))
            return QStringLiteral("cp");
        if (f == QLatin1String("gradient_accumulation"))
            return QStringLiteral("grad-accum");
        f.replace(QLatin1Char('_'), QLatin1Char('-'));
        return f;
    }

} // namespace

void addFinetuneOptions(QCommandLineParser& parser)
{
    parser.addOptions({ kFinetune, kRank, kAlpha, kDropout, kTargets, kFrozen, kTask, kLabels });
}

std::optional<QString> readFinetuneOptions(const QCommandLineParser& p, TrainingConfig* c)
{
    std::optional<QString> e;
    if ((e = choice(p, kTask, &taskFromString, "causal-lm, masked-lm, seq-cls, token-cls", &c->task)))
        return e;
    if ((e = integer(p, kLabels, 1, 1 << 20, &c->numLabels)))
        return e;
    if (p.isSet(kLabels) && c->task != Task::SequenceClassification && c->task != Task::TokenClassification)
        return QStringLiteral("--num-labels needs --task seq-cls or token-cls");
    FinetuneConfig* f = &c->finetune;
    if ((e = choice(p, kFinetune, &finetuneFromString, "full, freeze, lora, dora, qlora", &f->method)))
        return e;
    if ((e = integer(p, kRank, 1, 1 << 16, &f->loraRank)))
        return e;
    if ((e = number(p, kAlpha, 1e-6, 1e6, &f->loraAlpha)))
        return e;
    if ((e = number(p, kDropout, 0.0, 0.99, &f->loraDropout)))
        return e;
    if ((e = integer(p, kFrozen, -1, int(kMaxModelLayers), &f->frozenLayers)))
        return e;
    if (p.isSet(kTargets)) {
        f->loraTargets.clear();
        for (const QString& part : p.value(kTargets).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString name = part.trimmed();
            if (name.isEmpty())
                continue;
            if (name.size() > 64)
                return QStringLiteral("--lora-targets: \"%1\" is longer than 64 characters").arg(name.left(64));
            f->loraTargets.push_back(name.toStdString());
        }
        if (f->loraTargets.empty())
            return QStringLiteral("--lora-targets: give module names separated by commas, or all-linear");
    }
    const bool loraOptions = p.isSet(kRank) || p.isSet(kAlpha) || p.isSet(kDropout) || p.isSet(kTargets);
    if (loraOptions && !f->adapters())
        return QStringLiteral("--lora-rank, --lora-alpha, --lora-dropout and --lora-targets need --finetune lora, "
                              "dora or qlora");
    if (p.isSet(kFrozen) && f->method != FinetuneMethod::Freeze)
        return QStringLiteral("--frozen-layers needs --finetune freeze");
    return std::nullopt;
}

std::optional<QString> checkFinetuneForModel(const ModelSpec& model, const TrainingConfig& c)
{
    if (auto e = validateForModel(model, c, "command line"))
        return QStringLiteral("--%1: %2").arg(optionFor(e->field), QString::fromStdString(e->message));
    return std::nullopt;
}

void appendFinetuneArguments(const TrainingConfig& c, QStringList& a)
{
    auto str = [](std::string_view v) { return QString::fromLatin1(v.data(), qsizetype(v.size())); };
    if (c.task != Task::Model) {
        a << QStringLiteral("--task") << str(toString(c.task));
        if (c.task == Task::SequenceClassification || c.task == Task::TokenClassification)
            a << QStringLiteral("--num-labels") << QString::number(c.numLabels);
    }
    const FinetuneConfig& f = c.finetune;
    if (f.method == FinetuneMethod::Full)
        return;
    a << QStringLiteral("--finetune") << str(toString(f.method));
    if (f.method == FinetuneMethod::Freeze && f.frozenLayers >= 0)
        a << QStringLiteral("--frozen-layers") << QString::number(f.frozenLayers);
    if (!f.adapters())
        return;
    a << QStringLiteral("--lora-rank") << QString::number(f.loraRank) << QStringLiteral("--lora-alpha")
      << QString::number(f.loraAlpha, 'g', 12) << QStringLiteral("--lora-dropout")
      << QString::number(f.loraDropout, 'g', 12);
    if (!f.loraTargets.empty()) {
        QStringList names;
        for (const std::string& t : f.loraTargets)
            names << QString::fromStdString(t);
        a << QStringLiteral("--lora-targets") << names.join(QLatin1Char(','));
    }
}

} // namespace headroom
