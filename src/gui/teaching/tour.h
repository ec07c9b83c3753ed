#pragma once

// The guided tour: the explainer's lessons walked through on the live charts. Each step sets a scenario (one undo
// step each), frames the chart that shows the lesson, and explains it with the numbers of the result on screen:
// what fills 12 GB, why the batch size hits the wall, what mixed precision, checkpointing, ZeRO and a bigger GPU
// each change, and what the roofline says about bandwidth. Ending the tour returns to the scenario it started from.

#include "tourhost.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace headroom::gui {

// A thick frame drawn over a widget (the chart a tour step talks about); mouse events pass through.
class HighlightFrame : public QWidget {
    Q_OBJECT

public:
    explicit HighlightFrame(QWidget* parent = nullptr);
    void setTarget(QWidget* target);
    QWidget* target() const { return m_target; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow();
    QPointer<QWidget> m_target;
};

class GuidedTour : public QWidget {
    Q_OBJECT

public:
    GuidedTour(TourHost* host, QWidget* parent);
    ~GuidedTour() override;

    int stepCount() const;
    int step() const { return m_step; }
    bool running() const { return m_step >= 0; }
    QString stepTitle() const;
    QString stepText() const; // HTML, with the current result's numbers
    QWidget* highlighted() const;

public slots:
    void start();
    void next();
    void back();
    void stop();        // returns to the scenario the tour started from
    void refreshText(); // the text quotes the result on screen: the host calls this when the result changes

signals:
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Step {
        std::function<QString()> title;
        std::function<Scenario(const Scenario&)> scenario;
        std::function<QString(const SimulationResult&)> text;
        std::function<TourHost::Target()> target;
    };
    void buildSteps();
    static std::vector<Step> memorySteps();
    static std::vector<Step> scaleSteps();
    void show(int index);

    TourHost* m_host;
    std::vector<Step> m_steps;
    int m_step = -1;
    std::optional<Scenario> m_startScenario;
    bool m_openedComparison = false; // the tour showed the GPU comparison and hides it again
    HighlightFrame* m_frame = nullptr;
    QLabel* m_counter = nullptr;
    QLabel* m_title = nullptr;
    QTextBrowser* m_text = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_end = nullptr;
};

} // namespace headroom::gui
