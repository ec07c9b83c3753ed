#pragma once

// A main window over the bundled catalog with its settings in a temporary folder, for the offscreen window tests.

#include "appsettings.h"
#include "catalogloader.h"
#include "mainwindow.h"
#include "simulationcontroller.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace headroom::test {

struct WindowFixture {
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<gui::AppSettings> settings;
    std::unique_ptr<gui::SimulationController> controller;
    std::unique_ptr<gui::MainWindow> window;

    // The default scenario in a 1600 x 900 window, shown; false when it could not be applied.
    bool open()
    {
        dir = std::make_unique<QTemporaryDir>();
        settings = std::make_unique<gui::AppSettings>(dir->filePath(QStringLiteral("settings.ini")), nullptr);
        controller = std::make_unique<gui::SimulationController>(CatalogLoader::bundled());
        window = std::make_unique<gui::MainWindow>(controller.get(), settings.get());
        if (!window->applyScenario(defaultScenario()))
            return false;
        window->resize(1600, 900);
        window->show();
        return QTest::qWaitForWindowExposed(window.get());
    }
    void close()
    {
        window.reset();
        controller.reset();
        settings.reset();
    }
};

} // namespace headroom::test
