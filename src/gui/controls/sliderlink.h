#pragma once

// A slider beside its spin box, as the control panel's micro-batch, sequence and data-parallel rows are: moving one
// sets the other, and the value goes out as an edit.

#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

namespace headroom::gui {

// Logarithmic sliders: ten positions per doubling from `minimum`.
inline std::int64_t fromLog(int position, double minimum) { return std::llround(minimum * std::exp2(position / 10.0)); }
inline int toLog(double value, double minimum)
{
    return int(std::lround(10.0 * std::log2(std::max(value, minimum) / minimum)));
}

// Keeps `slider` and `spin` in step and sends each value with send(value, dragging): `dragging` while the slider is
// held, and once more, not dragging, when it is let go (one undo step per drag). Nothing moves or goes out while
// `*quiet` (the owner is setting its controls from a scenario).
template <typename ToValue, typename ToPosition, typename Send>
void linkSliderAndSpin(QObject* context, QSlider* slider, QSpinBox* spin, const bool* quiet, ToValue toValue,
                       ToPosition toPosition, Send send)
{
    auto echo = std::make_shared<bool>(false); // one setting the other
    QObject::connect(slider, &QSlider::valueChanged, context, [=](int position) {
        if (*quiet || *echo)
            return;
        *echo = true;
        spin->setValue(int(toValue(position)));
        *echo = false;
        send(std::int64_t(spin->value()), slider->isSliderDown());
    });
    QObject::connect(slider, &QSlider::sliderReleased, context, [=] { send(std::int64_t(spin->value()), false); });
    QObject::connect(spin, &QSpinBox::valueChanged, context, [=](int value) {
        if (*quiet || *echo)
            return;
        *echo = true;
        slider->setValue(toPosition(value));
        *echo = false;
        send(std::int64_t(value), false);
    });
}

} // namespace headroom::gui
