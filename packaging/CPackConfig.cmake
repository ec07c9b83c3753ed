# Install rules for everything but the binary (src/CMakeLists.txt installs that), and a Debian package:
#   cmake --preset release && cmake --build --preset release && (cd build/release && cpack -G DEB)
# gives build/release/headroom_0.1.0_amd64.deb. scripts/check-package.sh builds, unpacks and runs it.

include(GNUInstallDirs)

set(HEADROOM_APP_ID io.github.headroom.Headroom) # == QGuiApplication::setDesktopFileName() in src/gui/shell/guiapp.cpp
set(HEADROOM_HOMEPAGE "https://github.com/headroom-app/headroom")
set(HEADROOM_PACKAGE_MAINTAINER "The Headroom authors <headroom-app@users.noreply.github.com>"
    CACHE STRING "Maintainer field of the Debian package")

# qt_standard_project_setup() gives installed targets a relocatable RUNPATH ($ORIGIN:$ORIGIN/../lib). The package
# installs into /usr, where the Qt libraries are found without one (and Debian policy forbids a needless RUNPATH).
if(TARGET headroom)
    set_target_properties(headroom PROPERTIES INSTALL_RPATH "")
endif()

# Desktop integration, when there is a window to launch: the desktop file, the metainfo and the icon are all named
# by the application id.
if(HEADROOM_BUILD_GUI)
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/${HEADROOM_APP_ID}.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/${HEADROOM_APP_ID}.metainfo.xml
            DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/${HEADROOM_APP_ID}.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# The binary embeds the GPU files and model presets (src/app/CMakeLists.txt); the package also ships them as plain
# files for users to read and copy into their own data directory. The binary does not read these copies.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/gpus/ DESTINATION ${CMAKE_INSTALL_DATADIR}/headroom/gpus
        FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/models/ DESTINATION ${CMAKE_INSTALL_DATADIR}/headroom/models
        FILES_MATCHING PATTERN "*.json")

# headroom-probe (tools/probe): measures a scenario with PyTorch on the user's machine. Without transformers it
# builds the models from the hf_reference transcriptions, which it finds in ../share/headroom/probe beside its bin/.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/probe/headroom-probe DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/tools/hf_reference/common.py ${PROJECT_SOURCE_DIR}/tools/hf_reference/gpt2.py
              ${PROJECT_SOURCE_DIR}/tools/hf_reference/bert.py ${PROJECT_SOURCE_DIR}/tools/hf_reference/llama.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/headroom/probe)

# Documentation: the README, the top-level docs/*.md (file formats, formulas) and the copyright file Debian expects.
file(GLOB _headroom_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${_headroom_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME headroom)
set(CPACK_PACKAGE_VENDOR "The Headroom authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${HEADROOM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${HEADROOM_HOMEPAGE}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU memory and bandwidth explorer for neural-network training")
# Debian wants the extended description in lines of under 80 columns; CPack indents them and turns "" into " .".
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
    "Headroom shows how much GPU memory and bandwidth one training step of a"
    "neural network needs. Pick a GPU and a model, change the batch size,"
    "sequence length, precision, ZeRO stage, data-parallel GPUs, activation"
    "checkpointing and optimizer, and see memory by category against the GPU's"
    "capacity, whether the step fits, the largest batch that fits, and every"
    "operator of the step on the GPU's roofline."
    ""
    "It is an offline desktop tool built on one simulator of the PyTorch"
    "training step; the same simulator runs headless from the command line"
    "(headroom estimate, headroom export).")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # the release preset is RelWithDebInfo; the package ships the stripped binary
set(CPACK_THREADS 0)      # compress with every core

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # headroom_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${HEADROOM_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# Debian 12 runtime packages. With dpkg-shlibdeps (dpkg-dev, installed by scripts/deps.sh) they come from the
# libraries the binary links, at the versions its symbols need: libqt6core6, libqt6gui6, libqt6widgets6,
# libqt6charts6, libqt6svg6 (QSvgGenerator export; also what draws the SVG app icon), libc6, libstdc++6, libgcc-s1.
# The toolchain links --as-needed, so Qt6::PrintSupport, Qt6::Concurrent and Qt6::OpenGL, which the binary names
# but does not call into, are not dependencies (PDF export uses QPdfWriter from Qt Gui). Without dpkg-shlibdeps
# the same list is written out by hand. scripts/check-package.sh checks the Qt packages are in the result.
find_program(HEADROOM_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(HEADROOM_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1 (>= 3.0), libqt6core6 (>= 6.4.2), libqt6gui6 (>= 6.4.2), \
libqt6widgets6 (>= 6.4.2), libqt6charts6 (>= 6.4.2), libqt6svg6 (>= 6.4.2)")
endif()
# Qt's own Chinese (standard buttons, file dialogs): Language installs qtbase_zh_CN when it is there.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")

include(CPack)
