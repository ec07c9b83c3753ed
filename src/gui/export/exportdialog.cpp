#include "exportdialog.h"

#include "estimatecommand.h"
#include "ui_exportdialog.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextDocument>
#include <QTimer>

namespace headroom::gui {

namespace {

    // A word as a POSIX shell reads it back unchanged: bare when it is made of safe characters, else in single
    // quotes (a quote inside written as '\'').
    QString shellWord(const QString& s)
    {
        static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=+,@%-]+$"));
        if (safe.match(s).hasMatch())
            return s;
        QString q = s;
        q.replace(QLatin1String("'"), QLatin1String("'\\''"));
        return QLatin1Char('\'') + q + QLatin1Char('\'');
    }

} // namespace

ExportDialog::ExportDialog(const Scenario& scenario, QWidget* parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::ExportDialog>())
    , m_scenario(scenario)
{
    m_ui->setupUi(this);
    m_ui->chartCombo->addItem(tr("All four charts"), int(FigureChart::All));
    m_ui->chartCombo->addItem(tr("Memory at the peak of each phase"), int(FigureChart::Memory));
    m_ui->chartCombo->addItem(tr("Memory against micro-batch"), int(FigureChart::Sweep));
    m_ui->chartCombo->addItem(tr("Memory over one training step"), int(FigureChart::Timeline));
    m_ui->chartCombo->addItem(tr("Roofline"), int(FigureChart::Roofline));
    m_ui->paletteCombo->addItem(tr("Light (for print)"), false);
    m_ui->paletteCombo->addItem(tr("Dark"), true);
    connect(m_ui->browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    // The whole command, wrapped over three lines, rather than a one-line field that showed its start only.
    m_ui->commandEdit->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_ui->commandEdit->setFixedHeight(
        3 * m_ui->commandEdit->fontMetrics().lineSpacing()
        + 2 * (m_ui->commandEdit->frameWidth() + int(m_ui->commandEdit->document()->documentMargin())) + 4);
    m_ui->commandLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_ui->copyButton->setMinimumWidth(m_ui->copyButton->sizeHint().width()
                                      + m_ui->copyButton->fontMetrics().horizontalAdvance(QStringLiteral("✓ ")));
    connect(m_ui->copyButton, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(commandLine());
        // Said on the button, where the eye is, for two seconds.
        m_ui->copyButton->setText(tr("Copied ✓"));
        QTimer::singleShot(2000, this, [this] { m_ui->copyButton->setText(tr("Copy")); });
    });
    connect(m_ui->buttons, &QDialogButtonBox::accepted, this, [this] {
        if (problem().isEmpty())
            accept();
    });
    connect(m_ui->buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QObject* o : std::initializer_list<QObject*> { m_ui->chartCombo, m_ui->paletteCombo })
        connect(static_cast<QComboBox*>(o), &QComboBox::currentIndexChanged, this, &ExportDialog::update);
    for (QSpinBox* s : { m_ui->widthSpin, m_ui->heightSpin })
        connect(s, &QSpinBox::valueChanged, this, &ExportDialog::update);
    connect(m_ui->scaleSpin, &QDoubleSpinBox::valueChanged, this, &ExportDialog::update);
    connect(m_ui->captionCheck, &QCheckBox::toggled, this, &ExportDialog::update);
    connect(m_ui->presentationCheck, &QCheckBox::toggled, this, &ExportDialog::update);
    connect(m_ui->pathEdit, &QLineEdit::textChanged, this, &ExportDialog::update);
    update();
}

ExportDialog::~ExportDialog() = default;

FigureOptions ExportDialog::options() const
{
    FigureOptions o;
    o.chart = FigureChart(m_ui->chartCombo->currentData().toInt());
    o.size = QSize(m_ui->widthSpin->value(), m_ui->heightSpin->value());
    o.scale = m_ui->scaleSpin->value();
    o.caption = m_ui->captionCheck->isChecked();
    o.dark = m_ui->paletteCombo->currentData().toBool();
    o.presentation = m_ui->presentationCheck->isChecked();
    return o;
}

void ExportDialog::setOptions(const FigureOptions& o)
{
    m_ui->chartCombo->setCurrentIndex(std::max(0, m_ui->chartCombo->findData(int(o.chart))));
    m_ui->widthSpin->setValue(o.size.width());
    m_ui->heightSpin->setValue(o.size.height());
    m_ui->scaleSpin->setValue(o.scale);
    m_ui->captionCheck->setChecked(o.caption);
    m_ui->paletteCombo->setCurrentIndex(o.dark ? 1 : 0);
    m_ui->presentationCheck->setChecked(o.presentation);
    update();
}

QString ExportDialog::path() const { return m_ui->pathEdit->text().trimmed(); }

void ExportDialog::setLanguage(const QString& setting)
{
    m_language = setting;
    update();
}

void ExportDialog::setBaseline(const std::optional<Scenario>& baseline)
{
    m_baseline = baseline;
    update();
}

QString ExportDialog::baselinePath() const
{
    const QFileInfo f(path().isEmpty() ? QStringLiteral("figure.svg") : path());
    const QString name = f.completeBaseName() + QStringLiteral(".baseline.headroom.json");
    return path().isEmpty() ? name : QDir(f.path()).filePath(name);
}
void ExportDialog::setPath(const QString& path) { m_ui->pathEdit->setText(path); }

QString ExportDialog::problem() const
{
    if (path().isEmpty())
        return tr("Choose a file.");
    if (!figureFormatForPath(path()))
        return tr("The file name must end in .svg, .png or .pdf.");
    if (auto e = options().validate())
        return *e;
    const QFileInfo dir(QFileInfo(path()).absolutePath());
    if (!dir.isDir() || !dir.isWritable())
        return tr("Cannot write to the folder %1.").arg(dir.absoluteFilePath());
    return {};
}

QString ExportDialog::commandLine() const
{
    const FigureOptions o = options();
    QStringList a { QStringLiteral("headroom"), QStringLiteral("export") };
    a << scenarioToArguments(m_scenario);
    a << QStringLiteral("--chart") << toString(o.chart) << QStringLiteral("--width") << QString::number(o.size.width())
      << QStringLiteral("--height") << QString::number(o.size.height());
    if (figureFormatForPath(path()) == FigureFormat::Png)
        a << QStringLiteral("--scale") << QString::number(o.scale);
    if (!o.caption)
        a << QStringLiteral("--no-caption");
    if (o.dark)
        a << QStringLiteral("--palette") << QStringLiteral("dark");
    if (o.presentation)
        a << QStringLiteral("--presentation");
    if (!m_language.isEmpty())
        a << QStringLiteral("--language") << m_language;
    if (m_baseline)
        a << QStringLiteral("--baseline") << baselinePath();
    a << QStringLiteral("--out") << (path().isEmpty() ? QStringLiteral("figure.svg") : path());
    for (QString& s : a)
        s = shellWord(s);
    return a.join(QLatin1Char(' '));
}

void ExportDialog::update()
{
    const bool png = figureFormatForPath(path()) == FigureFormat::Png || path().isEmpty();
    m_ui->scaleSpin->setEnabled(png);
    const QString p = problem();
    m_ui->messageLabel->setText(p);
    m_ui->messageLabel->setVisible(!p.isEmpty() && !path().isEmpty());
    m_ui->buttons->button(QDialogButtonBox::Save)->setEnabled(p.isEmpty());
    if (const QString command = commandLine(); m_ui->commandEdit->toPlainText() != command)
        m_ui->commandEdit->setPlainText(command);
    m_ui->commandEdit->setToolTip(
        m_baseline ? tr("The command that writes the same file, byte for byte; Save also writes the baseline it "
                        "reads to %1")
                         .arg(QDir::toNativeSeparators(baselinePath()))
                   : tr("The command that writes the same file, byte for byte"));
}

void ExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Figure"),
                                                        path().isEmpty() ? QStringLiteral("figure.svg") : path(),
                                                        tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf)"));
    if (!chosen.isEmpty())
        setPath(chosen);
}

} // namespace headroom::gui
