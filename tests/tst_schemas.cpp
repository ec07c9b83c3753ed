// The JSON Schemas of the four file formats (docs/schema/*.schema.json, described in docs/formats.md) against the
// loaders, which are the source of truth: parseGpuSpec (src/core/spec/gpuspec.cpp), parseModelSpec
// (src/core/spec/modelspec.cpp), parseScenario (src/core/simulate/scenario.cpp) and parseMeasured
// (src/core/report/measured.cpp). A small validator for the subset of JSON Schema 2020-12 the schemas use checks that
// every bundled file validates, that each bad file (tests/data/bad/) the loaders refuse for a reason a schema can state
// is refused by the schema at the same field, and that schema and loader agree on thousands of mutations of real files.
// Set HEADROOM_SCHEMA_DUMP=dir to write every checked document and the validator's verdict there, to compare with
// another validator (python-jsonschema) by hand.

#include "gpuspec.h"
#include "measured.h"
#include "modelspec.h"
#include "scenario.h"
#include "schemavalidator.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>

using namespace headroom;
using headroom::test::element;
using headroom::test::member;
using headroom::test::SchemaError;
using headroom::test::SchemaValidator;
using nlohmann::json;

namespace {

const QString kSource = QStringLiteral(HEADROOM_SOURCE_DIR);

std::string readText(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

// The loader of a format; its error, or nothing when it accepts the text.
std::optional<Error> load(const std::string& format, const std::string& text)
{
    auto error = [](const auto& r) { return r ? std::nullopt : std::optional<Error>(r.error()); };
    if (format == "headroom-gpu")
        return error(parseGpuSpec(text, "gpu"));
    if (format == "headroom-model")
        return error(parseModelSpec(text, "model"));
    if (format == "headroom-measured")
        return error(parseMeasured(text, "measured"));
    return error(parseScenario(text, "scenario"));
}

std::string schemaFile(const std::string& format) { return format + ".schema.json"; }

std::string describe(const std::vector<SchemaError>& errors)
{
    std::string s;
    for (std::size_t i = 0; i < errors.size() && i < 6; ++i)
        s += "\n    " + (errors[i].at.empty() ? std::string("(top level)") : errors[i].at) + ": " + errors[i].message;
    return s;
}

// Whether the schema reports a fault at the loader's field or inside it (an item of the array the loader names).
bool atField(const std::vector<SchemaError>& errors, const std::string& field)
{
    const std::string f = field == "(top level)" ? std::string() : field;
    return std::any_of(errors.begin(), errors.end(), [&](const SchemaError& e) {
        return e.at == f || (!f.empty() && e.at.rfind(f, 0) == 0 && (e.at[f.size()] == '.' || e.at[f.size()] == '['));
    });
}

// The timing object headroom-probe 0.2 wrote for a 2-block GPT-2 on the CPU (tools/probe/headroom-probe --device cpu
// --batch 2 --seq 32 --precision fp32 --attention eager --steps 2; the `*_all` lists shortened).
const char* const kProbeTiming = R"({"host_seconds": 0.0515, "host_seconds_all": [0.053, 0.0515],
    "issue_seconds": 0.56, "issue_seconds_all": [1.03, 0.56], "kernels": 249, "gpu_busy_seconds": null,
    "aten_ops": 463})";

// Loader faults no JSON Schema keyword can state, by bad file. A file listed here must pass the schema, so that the
// list stays true when the schemas change.
const std::map<QString, const char*> kBeyondSchema {
    { QStringLiteral("gpu/undefined-source.json"), "a figure cites an id the sources table lacks (cross-reference)" },
    { QStringLiteral("gpu/overhead-exceeds-memory.json"),
      "overhead compared with capacity (arithmetic across fields)" },
    { QStringLiteral("gpu/duplicate-key.json"), "a repeated key (JSON Schema sees one parsed value)" },
    { QStringLiteral("gpu/duplicate-id.json"), "a repeated key" },
    { QStringLiteral("gpu/duplicate-source-id.json"), "a repeated key" },
    { QStringLiteral("gpu/deep-nesting-closed.json"), "nesting depth (a parser limit)" },
    { QStringLiteral("model/heads-not-dividing.json"), "divisibility of two fields" },
    { QStringLiteral("model/kv-heads-not-dividing.json"), "divisibility of two fields" },
    { QStringLiteral("model/patch-larger-than-image.json"), "comparison of two fields" },
    { QStringLiteral("model/cnn-duplicate-layer-name.json"), "uniqueness of layer names" },
    { QStringLiteral("model/cnn-undefined-input.json"), "inputs must name an earlier layer (cross-reference)" },
    { QStringLiteral("model/cnn-forward-reference.json"), "inputs must name an earlier layer (cross-reference)" },
    { QStringLiteral("model/cnn-self-reference.json"), "inputs must name an earlier layer (cross-reference)" },
    { QStringLiteral("model/duplicate-key.json"), "a repeated key" },
    { QStringLiteral("model/cnn-duplicate-key.json"), "a repeated key" },
    { QStringLiteral("model/deep-nesting-closed.json"), "nesting depth (a parser limit)" },
    { QStringLiteral("scenario/duplicate-key.json"), "a repeated key" },
    { QStringLiteral("scenario/embedded-model-duplicate-key.json"), "a repeated key" },
    { QStringLiteral("scenario/deep-nesting-closed.json"), "nesting depth (a parser limit)" },
};

// Mutations whose verdict depends on a cross-reference, which the schema cannot see: renaming an id a figure cites
// or a layer another layer reads, or deleting a cited source.
bool crossReference(const std::string& pointer, const std::string& mutation)
{
    static const std::regex citedId(
        R"(^/(memory|compute_tflops|links)/[^/]+/sources/\d+$|^/framework_overhead_mib/sources/\d+$)");
    static const std::regex sourceEntry(R"(^/sources/[^/]+$)");
    static const std::regex layerName(R"(/cnn/layers/\d+/(name|inputs/\d+)$)");
    const bool renamed = mutation == "\"Bogus Value!\"";
    return (renamed && (std::regex_search(pointer, citedId) || std::regex_search(pointer, layerName)))
        || (mutation == "delete" && std::regex_search(pointer, sourceEntry));
}

// Every node of a document, sampling long layer lists: the first three layers and the first of each operator.
void collectPointers(const json& v, const json::json_pointer& at, std::vector<json::json_pointer>& out)
{
    if (!at.empty())
        out.push_back(at);
    if (v.is_object()) {
        for (const auto& [key, value] : v.items())
            collectPointers(value, at / key, out);
    } else if (v.is_array()) {
        std::set<std::string> ops;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const bool newOp = v[i].is_object() && v[i].contains("op") && ops.insert(v[i]["op"].dump()).second;
            if (i < 3 || newOp)
                collectPointers(v[i], at / i, out);
        }
    }
}

} // namespace

class TestSchemas : public QObject {
    Q_OBJECT

private:
    SchemaValidator m_validator;
    std::ofstream m_dump; // HEADROOM_SCHEMA_DUMP/index.txt: "<n> <format> <valid|invalid>", document in <n>.json
    int m_dumped = 0;

    // The schema's errors for a document (written to the dump directory when one is set).
    std::vector<SchemaError> validate(const std::string& format, const json& doc)
    {
        auto errors = m_validator.validate(doc, schemaFile(format));
        if (m_dump.is_open()) {
            const QString dir = qEnvironmentVariable("HEADROOM_SCHEMA_DUMP");
            std::ofstream(QStringLiteral("%1/%2.json").arg(dir).arg(m_dumped).toStdString()) << doc.dump();
            m_dump << m_dumped++ << ' ' << format << ' ' << (errors.empty() ? "valid" : "invalid") << '\n';
        }
        return errors;
    }

    static json readJson(const QString& relative)
    {
        return json::parse(readText(kSource + QLatin1Char('/') + relative));
    }

private slots:
    void initTestCase()
    {
        for (const char* format : { "headroom-gpu", "headroom-model", "headroom-scenario", "headroom-measured" })
            m_validator.add(schemaFile(format),
                            readJson(QStringLiteral("docs/schema/") + QString::fromStdString(schemaFile(format))));
        if (qEnvironmentVariableIsSet("HEADROOM_SCHEMA_DUMP")) {
            QDir().mkpath(qEnvironmentVariable("HEADROOM_SCHEMA_DUMP"));
            m_dump.open((qEnvironmentVariable("HEADROOM_SCHEMA_DUMP") + QStringLiteral("/index.txt")).toStdString());
        }
    }

    void schemasUseOnlyCheckedKeywords_data()
    {
        QTest::addColumn<QString>("format");
        for (const char* format : { "headroom-gpu", "headroom-model", "headroom-scenario", "headroom-measured" })
            QTest::newRow(format) << QString::fromLatin1(format);
    }

    void schemasUseOnlyCheckedKeywords()
    {
        QFETCH(QString, format);
        const std::string file = schemaFile(format.toStdString());
        const json& schema = m_validator.document(file);
        QVERIFY(schema.value("$schema", "") == "https://json-schema.org/draft/2020-12/schema");
        QVERIFY(schema.value("$id", "").ends_with("/docs/schema/" + file));
        QVERIFY(schema["properties"]["format"]["const"] == format.toStdString());
        std::vector<std::string> unknown;
        // Walks schema positions only: the values of enum and const are data.
        std::function<void(const json&, const std::string&)> walk = [&](const json& s, const std::string& at) {
            if (!s.is_object())
                return;
            for (const auto& [key, value] : s.items()) {
                if (!SchemaValidator::keywords().count(key))
                    unknown.push_back(at + "/" + key);
                else if (key == "properties" || key == "$defs")
                    for (const auto& [name, sub] : value.items())
                        walk(sub, at + "/" + key + "/" + name);
                else if (key == "allOf" || key == "anyOf" || key == "oneOf")
                    for (std::size_t i = 0; i < value.size(); ++i)
                        walk(value[i], at + "/" + key + "/" + std::to_string(i));
                else if (key == "items" || key == "contains" || key == "not" || key == "if" || key == "then"
                         || key == "else" || key == "additionalProperties")
                    walk(value, at + "/" + key);
            }
        };
        walk(schema, "");
        QVERIFY2(unknown.empty(),
                 qPrintable(QStringLiteral("keywords this validator does not check: ")
                            + QString::fromStdString(json(unknown).dump())));
    }

    void bundledFilesValidate_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("path");
        const std::pair<const char*, QString> folders[] = {
            { "headroom-gpu", QStringLiteral("gpus") },
            { "headroom-model", QStringLiteral("resources/models") },
            { "headroom-scenario", QStringLiteral("resources/scenarios") },
            { "headroom-measured", QStringLiteral("tests/data/measured") }
        };
        int rows = 0;
        for (const auto& [format, folder] : folders) {
            for (const QString& name : QDir(kSource + QLatin1Char('/') + folder)
                                           .entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
                const QString path = folder + QLatin1Char('/') + name;
                QTest::newRow(qPrintable(path)) << QString::fromLatin1(format) << path;
                ++rows;
            }
        }
        QVERIFY(rows >= 40 + 15 + 7 + 1);
    }

    void bundledFilesValidate()
    {
        QFETCH(QString, format);
        QFETCH(QString, path);
        const std::string text = readText(kSource + QLatin1Char('/') + path);
        const auto loaderError = load(format.toStdString(), text);
        QVERIFY2(!loaderError, loaderError ? loaderError->toString().c_str() : "");
        const auto errors = validate(format.toStdString(), json::parse(text));
        QVERIFY2(errors.empty(), describe(errors).c_str());
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        const std::pair<const char*, QString> folders[] = { { "headroom-gpu", QStringLiteral("gpu") },
                                                            { "headroom-model", QStringLiteral("model") },
                                                            { "headroom-scenario", QStringLiteral("scenario") } };
        for (const auto& [format, folder] : folders) {
            const QDir dir(kSource + QStringLiteral("/tests/data/bad/") + folder);
            for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
                // Text that is not JSON (syntax, NaN, 1e400, bad UTF-8) is the parser's business, not a schema's.
                if (!json::accept(readText(dir.filePath(name))))
                    continue;
                const QString file = folder + QLatin1Char('/') + name;
                QTest::newRow(qPrintable(file)) << QString::fromLatin1(format) << file;
            }
        }
    }

    void badFiles()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        const std::string text = readText(kSource + QStringLiteral("/tests/data/bad/") + file);
        const auto loaderError = load(format.toStdString(), text);
        QVERIFY2(loaderError, "the loader accepts a file in tests/data/bad");
        const auto errors = validate(format.toStdString(), json::parse(text));
        if (auto beyond = kBeyondSchema.find(file); beyond != kBeyondSchema.end()) {
            QVERIFY2(errors.empty(),
                     qPrintable(
                         QStringLiteral("listed as beyond the schema (%1), but the schema refuses it:%2")
                             .arg(QString::fromLatin1(beyond->second), QString::fromStdString(describe(errors)))));
            return;
        }
        QVERIFY2(!errors.empty(),
                 qPrintable(QStringLiteral("the schema accepts what the loader refuses: ")
                            + QString::fromStdString(loaderError->toString())));
        QVERIFY2(atField(errors, loaderError->field),
                 qPrintable(QStringLiteral("loader: %1; schema:%2")
                                .arg(QString::fromStdString(loaderError->toString()),
                                     QString::fromStdString(describe(errors)))));
    }

    // The examples of docs/formats.md (its ```json blocks) are complete files: the loader and the schema accept them,
    // and the ids a scenario names are in the bundled catalog.
    void docExamples()
    {
        static const QRegularExpression block(QStringLiteral("```json\\n(.*?)```"),
                                              QRegularExpression::DotMatchesEverythingOption);
        const QString page = QString::fromStdString(readText(kSource + QStringLiteral("/docs/formats.md")));
        std::set<std::string> formats;
        int examples = 0;
        for (auto it = block.globalMatch(page); it.hasNext(); ++examples) {
            const std::string text = it.next().captured(1).toStdString();
            const json doc = json::parse(text);
            const std::string format = doc.value("format", "");
            formats.insert(format);
            const auto loaderError = load(format, text);
            QVERIFY2(!loaderError, loaderError ? loaderError->toString().c_str() : "");
            const auto errors = validate(format, doc);
            QVERIFY2(errors.empty(), describe(errors).c_str());
            if (format == "headroom-scenario") {
                QVERIFY2(test::catalog().gpu(doc["gpu"].get<std::string>()), doc["gpu"].dump().c_str());
                QVERIFY2(doc["model"].is_object() || test::catalog().model(doc["model"].get<std::string>()),
                         doc["model"].dump().c_str());
            }
        }
        QCOMPARE_GE(examples, 5);
        QVERIFY(
            formats
            == std::set<std::string>({ "headroom-gpu", "headroom-model", "headroom-scenario", "headroom-measured" }));
    }

    // Hand-picked cases, with the verdict both must give.
    void handPicked_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON text, or "delete"
        QTest::addColumn<bool>("valid");
        const QString gpu = QStringLiteral("gpus/rtx-a3000-12gb-laptop.json");
        const QString bert = QStringLiteral("resources/models/bert-base.json");
        const QString resnet = QStringLiteral("resources/models/resnet50.json");
        const QString scenario = QStringLiteral("resources/scenarios/01-bert-base-fp32.headroom.json");
        auto row = [](const char* name, const QString& base, const char* pointer, const char* value, bool valid) {
            QTest::newRow(name) << base << QString::fromLatin1(pointer) << QString::fromLatin1(value) << valid;
        };
        row("gpu: missing id", gpu, "/id", "delete", false);
        row("gpu: version 2", gpu, "/version", "2", false);
        row("gpu: version 1.0 (a whole number)", gpu, "/version", "1.0", true);
        row("gpu: negative bandwidth", gpu, "/memory/bandwidth_gb_per_s/value", "-5", false);
        row("gpu: confidence user", gpu, "/memory/capacity_gb/confidence", "\"user\"", true);
        row("gpu: empty confidence", gpu, "/memory/capacity_gb/confidence", "\"\"", true);
        row("gpu: null optional field", gpu, "/segment", "null", true);
        row("gpu: null required field", gpu, "/vendor", "null", false);
        row("gpu: underscore in id", gpu, "/id", "\"my_gpu\"", false);
        row("gpu: unknown key is ignored", gpu, "/bandwith_gb_per_s", "336", true);
        row("model: missing id", bert, "/id", "delete", false);
        row("model: version 2", bert, "/version", "2", false);
        row("model: underscore in id", bert, "/id", "\"my_model\"", true);
        row("model: empty name", bert, "/name", "\"\"", true);
        row("model: rotary_fraction 1", bert, "/transformer/rotary_fraction", "1", true);
        row("model: rotary_fraction 0", bert, "/transformer/rotary_fraction", "0", false);
        row("model: head_dim 0 (hidden / heads)", bert, "/transformer/head_dim", "0", true);
        row("model: unknown norm_impl", bert, "/transformer/norm_impl", "\"bf16\"", false);
        row("model: layer named input", resnet, "/cnn/layers/1/name", "\"input\"", false);
        row("model: conv without kernel", resnet, "/cnn/layers/0/kernel", "delete", false);
        row("model: kernel on batchnorm is ignored", resnet, "/cnn/layers/1/kernel", "0", true);
        row("scenario: unknown precision", scenario, "/precision", "\"fp4\"", false);
        row("scenario: version 2", scenario, "/version", "2", false);
        row("scenario: missing gpu", scenario, "/gpu", "delete", false);
        row("scenario: null precision (default)", scenario, "/precision", "null", true);
        row("scenario: micro_batch 8.0", scenario, "/micro_batch", "8.0", true);
        row("scenario: ZeRO stage 4", scenario, "/zero_stage", "4", false);
        // The probe's timing object (issue 27): optional, each figure null where not measured; counts are whole.
        const QString measured = QStringLiteral("tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json");
        row("measured: timing", measured, "/timing", kProbeTiming, true);
        row("measured: null timing", measured, "/timing", "null", true);
        row("measured: timing without figures", measured, "/timing", "{}", true);
        row("measured: null kernels", measured, "/timing", R"({"kernels": null, "gpu_busy_seconds": null})", true);
        row("measured: half a kernel", measured, "/timing", R"({"kernels": 0.5})", false);
        row("measured: negative host time", measured, "/timing", R"({"host_seconds": -0.1})", false);
        row("measured: timing as a number", measured, "/timing", "0.1", false);
        row("scenario: embedded model", scenario, "/model", readText(kSource + QLatin1Char('/') + bert).c_str(), true);
    }

    void handPicked()
    {
        QFETCH(QString, base);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(bool, valid);
        json doc = readJson(base);
        const json::json_pointer p(pointer.toStdString());
        if (value == QLatin1String("delete"))
            doc[p.parent_pointer()].erase(p.back());
        else
            doc[p] = json::parse(value.toStdString());
        const std::string format = doc["format"].get<std::string>();
        const auto loaderError = load(format, doc.dump());
        const auto errors = validate(format, doc);
        QVERIFY2(!loaderError == valid, loaderError ? loaderError->toString().c_str() : "the loader accepts it");
        QVERIFY2(errors.empty() == valid, errors.empty() ? "the schema accepts it" : describe(errors).c_str());
    }

    // Every node of real files deleted, nulled, replaced by [] and by values of other types or out of range: the
    // schema and the loader must give the same verdict, and the schema must name the loader's field.
    void mutations_data()
    {
        QTest::addColumn<QString>("base");
        for (const char* base :
             { "gpus/rtx-a3000-12gb-laptop.json", "gpus/h100-sxm5-80gb.json", "resources/models/bert-base.json",
               "resources/models/llama-3-8b.json", "resources/models/vit-b-16.json", "resources/models/resnet50.json",
               "resources/models/efficientnet-b0.json", "resources/scenarios/01-bert-base-fp32.headroom.json",
               "tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json", "embedded", "measured with timing" })
            QTest::newRow(base) << QString::fromLatin1(base);
    }

    void mutations()
    {
        QFETCH(QString, base);
        json doc;
        if (base == QLatin1String("embedded")) { // a scenario carrying its own (here: BERT-base's) model
            doc = readJson(QStringLiteral("resources/scenarios/01-bert-base-fp32.headroom.json"));
            doc["model"] = readJson(QStringLiteral("resources/models/bert-base.json"));
        } else if (base == QLatin1String("measured with timing")) { // a probe 0.2 file's optional timing object
            doc = readJson(QStringLiteral("tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json"));
            doc["timing"] = json::parse(kProbeTiming);
        } else {
            doc = readJson(base);
        }
        const std::string format = doc["format"].get<std::string>();
        std::vector<json::json_pointer> pointers;
        collectPointers(doc, json::json_pointer(), pointers);
        int agreedValid = 0, agreedInvalid = 0, skipped = 0;
        QStringList disagreements;
        for (const auto& p : pointers) {
            const json& node = doc[p];
            std::vector<json> values { nullptr, node.is_array() ? json::object() : json::array() };
            if (node.is_number())
                values.insert(values.end(), { -1, 0, 0.5, 1e12 });
            else if (node.is_string())
                values.push_back("Bogus Value!");
            else if (node.is_boolean())
                values.push_back("yes");
            const bool inObject = doc[p.parent_pointer()].is_object();
            for (std::size_t i = inObject ? 0 : 1; i <= values.size(); ++i) {
                json mutated = doc;
                const std::string mutation = i == 0 ? "delete" : values[i - 1].dump();
                if (i == 0)
                    mutated[p.parent_pointer()].erase(p.back());
                else
                    mutated[p] = values[i - 1];
                if (crossReference(p.to_string(), mutation)) {
                    ++skipped;
                    continue;
                }
                const auto loaderError = load(format, mutated.dump());
                const auto errors = validate(format, mutated);
                const QString what = QStringLiteral("%1 := %2")
                                         .arg(QString::fromStdString(p.to_string()), QString::fromStdString(mutation));
                if (bool(loaderError) != !errors.empty())
                    disagreements << QStringLiteral("%1: loader %2, schema %3%4")
                                         .arg(what,
                                              loaderError ? QString::fromStdString(loaderError->toString())
                                                          : QStringLiteral("accepts"),
                                              errors.empty() ? QStringLiteral("accepts") : QStringLiteral("refuses"),
                                              QString::fromStdString(describe(errors)));
                else if (loaderError && !atField(errors, loaderError->field))
                    disagreements << QStringLiteral("%1: loader names %2, schema:%3")
                                         .arg(what, QString::fromStdString(loaderError->field),
                                              QString::fromStdString(describe(errors)));
                else
                    ++(loaderError ? agreedInvalid : agreedValid);
            }
        }
        qInfo("%s: %d mutations refused by both, %d accepted by both, %d skipped as cross-references", qPrintable(base),
              agreedInvalid, agreedValid, skipped);
        QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.mid(0, 12).join(QLatin1Char('\n'))));
        QCOMPARE_GT(agreedInvalid, 50);
        QCOMPARE_GT(agreedValid, 10);
    }
};

QTEST_APPLESS_MAIN(TestSchemas)
#include "tst_schemas.moc"
