// Reading .safetensors headers: totals per dtype from a well-formed header, malformed headers refused with the tensor
// and the reason, and files whose length prefix or size disagree with their header refused before or after parsing.
// The files are built here: 8-byte little-endian length, JSON header, zero bytes for the data.

#include "modelimport.h"
#include "safetensors.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace headroom;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& header, qint64 dataBytes,
                  std::optional<quint64> declaredLength = std::nullopt)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    uchar prefix[8];
    qToLittleEndian<quint64>(declaredLength.value_or(quint64(header.size())), prefix);
    f.write(reinterpret_cast<const char*>(prefix), 8);
    f.write(header);
    f.write(QByteArray(dataBytes, '\0'));
    return path;
}

// Five tensors listed out of offset order, a rank-0 and an empty tensor, a packed FP4 tensor, metadata, and the
// trailing spaces the format allows as padding.
const QByteArray kGoodHeader = R"({"__metadata__":{"format":"pt","source":"test"},
 "b":{"dtype":"BF16","shape":[4],"data_offsets":[24,32]},
 "a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},
 "scalar":{"dtype":"I64","shape":[],"data_offsets":[32,40]},
 "empty":{"dtype":"F8_E4M3","shape":[0,5],"data_offsets":[40,40]},
 "packed":{"dtype":"F4","shape":[3,2],"data_offsets":[40,43]}}    )";

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

private slots:
    void summary();
    void malformedHeaders_data();
    void malformedHeaders();
    void malformedFiles_data();
    void malformedFiles();
};

void TestSafetensors::summary()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SafetensorsSummary s;
    const auto error = readSafetensorsHeader(writeFile(dir, QStringLiteral("model.safetensors"), kGoodHeader, 43), &s);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QCOMPARE(s.tensors, std::int64_t(5));
    QCOMPARE(s.parameters, std::uint64_t(6 + 4 + 1 + 0 + 6));
    QCOMPARE(s.dataBytes, std::uint64_t(43));
    QCOMPARE(s.byDtype.size(), std::size_t(5));
    QCOMPARE(s.byDtype.at("F32").elements, std::uint64_t(6));
    QCOMPARE(s.byDtype.at("F32").bytes, std::uint64_t(24));
    QCOMPARE(s.byDtype.at("BF16").bytes, std::uint64_t(8));
    QCOMPARE(s.byDtype.at("I64").tensors, std::int64_t(1));
    QCOMPARE(s.byDtype.at("F8_E4M3").elements, std::uint64_t(0));
    QCOMPARE(s.byDtype.at("F4").bytes, std::uint64_t(3)); // 6 four-bit elements
    QCOMPARE(s.metadata.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(s.metadata.at("format")), QStringLiteral("pt"));
}

void TestSafetensors::malformedHeaders_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("mentions");
    auto row = [](const char* name, const char* header, const char* field, const char* mentions) {
        QTest::newRow(name) << QByteArray(header) << QString::fromUtf8(field) << QString::fromUtf8(mentions);
    };
    row("not an object", R"( {"w":{}})", "", "starting with '{'");
    row("not JSON", R"({"w":)", "", "not valid JSON");
    row("tensor not an object", R"({"w":5})", "w", "must be an object");
    row("missing dtype", R"({"w":{"shape":[1],"data_offsets":[0,4]}})", "w.dtype", "is required");
    row("unknown dtype", R"({"w":{"dtype":"F12","shape":[1],"data_offsets":[0,4]}})", "w.dtype",
        "unknown dtype \"F12\"");
    row("shape not a list", R"({"w":{"dtype":"F32","shape":4,"data_offsets":[0,16]}})", "w.shape", "must be an array");
    row("negative dimension", R"({"w":{"dtype":"F32","shape":[2,-1],"data_offsets":[0,4]}})", "w.shape[1]",
        "non-negative");
    row("fractional dimension", R"({"w":{"dtype":"F32","shape":[2.5],"data_offsets":[0,4]}})", "w.shape[0]",
        "non-negative whole");
    row("overflowing shape", R"({"w":{"dtype":"U8","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,1]}})",
        "w.shape", "more than 2^53");
    row("three offsets", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}})", "w.data_offsets",
        "the limit is 2");
    row("one offset", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4]}})", "w.data_offsets", "[begin, end]");
    row("negative offset", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}})", "w.data_offsets[0]",
        "non-negative");
    row("end before begin", R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", "w.data_offsets",
        "before it begins");
    row("size disagrees with shape", R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,10]}})", "w.data_offsets",
        "take 8");
    row("half a byte", R"({"w":{"dtype":"F4","shape":[3],"data_offsets":[0,1]}})", "w.shape", "whole number of bytes");
    row("gap before the first", R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", "w.data_offsets",
        "bytes 0 to 4 of the data unused");
    row("gap between",
        R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
        "b.data_offsets", "unused");
    row("overlap",
        R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
        "b.data_offsets", "overlaps");
    row("metadata not strings", R"({"__metadata__":{"format":1}})", "__metadata__.format", "must be a string");
    row("metadata not an object", R"({"__metadata__":["pt"]})", "__metadata__", "must be an object");
}

void TestSafetensors::malformedHeaders()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, field);
    QFETCH(QString, mentions);
    const auto r = parseSafetensorsHeader(header.toStdString(), "m.safetensors");
    QVERIFY2(!r.ok(), header.constData());
    const QString message = QString::fromStdString(r.error().toString());
    QCOMPARE(QString::fromStdString(r.error().field), field);
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("m.safetensors: ")), qPrintable(message));
}

void TestSafetensors::malformedFiles_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<qint64>("dataBytes");
    QTest::addColumn<qint64>("declaredLength"); // -1: the header's real length
    QTest::addColumn<QString>("mentions");
    const QByteArray one = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    QTest::newRow("shorter than the length prefix")
        << QByteArray() << qint64(0) << qint64(-2) << QStringLiteral("8-byte header length");
    QTest::newRow("header above 100 MiB")
        << one << qint64(8) << qint64(200) * 1048576 << QStringLiteral("above the 100 MiB limit");
    QTest::newRow("header past the end") << one << qint64(0) << qint64(one.size() + 100)
                                         << QStringLiteral("longer than the");
    QTest::newRow("truncated data") << one << qint64(4) << qint64(-1)
                                    << QStringLiteral("describes 8 bytes of tensor data, but 4");
    QTest::newRow("trailing data") << one << qint64(12) << qint64(-1) << QStringLiteral("but 12 bytes follow it");
    QTest::newRow("bad header") << QByteArray(R"({"w":{"dtype":"F32"}})") << qint64(0) << qint64(-1)
                                << QStringLiteral("w.shape: is required");
}

void TestSafetensors::malformedFiles()
{
    QFETCH(QByteArray, header);
    QFETCH(qint64, dataBytes);
    QFETCH(qint64, declaredLength);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path;
    if (declaredLength == -2) {
        path = dir.filePath(QStringLiteral("short.safetensors"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x10\0\0", 3);
    } else {
        path = writeFile(dir, QStringLiteral("m.safetensors"), header, dataBytes,
                         declaredLength < 0 ? std::nullopt : std::optional<quint64>(quint64(declaredLength)));
    }
    SafetensorsSummary s;
    const auto error = readSafetensorsHeader(path, &s);
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(mentions), qPrintable(*error));
    QVERIFY2(error->startsWith(path), qPrintable(*error));
}

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
