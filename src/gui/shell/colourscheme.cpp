#include "colourscheme.h"

#include "appsettings.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace headroom::gui {

ColourScheme::ColourScheme()
    : m_systemStyle(QApplication::style()->name())
    , m_systemPalette(QApplication::palette())
{
}

QStringList ColourScheme::available() { return { QString(), QStringLiteral("light"), QStringLiteral("dark") }; }

QPalette ColourScheme::dark()
{
    QPalette p;
    const QColor window(0x2B, 0x2B, 0x2E), base(0x1E, 0x1E, 0x20), text(0xE8, 0xE8, 0xE8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xB2));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x56, 0xB4, 0xE9));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    return p;
}

void ColourScheme::apply(const QString& scheme)
{
    if (!isValid(scheme))
        return;
    if (scheme.isEmpty()) {
        QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        QApplication::setPalette(m_systemPalette);
    } else {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(scheme == QLatin1String("dark") ? dark() : QApplication::style()->standardPalette());
    }
    m_current = scheme;
}

void ColourScheme::follow(AppSettings& settings)
{
    QObject::connect(&settings, &AppSettings::colourSchemeChanged, &settings,
                     [this](const QString& scheme) { apply(scheme); });
}

} // namespace headroom::gui
