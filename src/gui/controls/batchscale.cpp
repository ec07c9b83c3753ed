#include "batchscale.h"

#include <algorithm>
#include <cmath>

namespace headroom::gui {

int BatchScale::logPosition(std::int64_t value)
{
    const double v = double(std::clamp<std::int64_t>(value, 1, kMaxValue));
    return int(std::lround(kPositions * std::log2(v) / std::log2(double(kMaxValue))));
}

void BatchScale::anchor(std::int64_t value, int position, int positionsPerValue)
{
    m_value = std::clamp<std::int64_t>(value, 1, kMaxValue);
    m_step = std::max(1, positionsPerValue);
    const int logPlace = logPosition(m_value);
    m_position = position < 0 || std::abs(position - logPlace) > kMaxDrift ? logPlace
                                                                           : std::clamp(position, 0, kPositions);
    // The linear zone ends where it runs out of values or of slider, a position short of the slider's ends so that
    // those always show 1 and 4096.
    const std::int64_t below = std::min<std::int64_t>(
        { kFineValues, m_value - 1, std::max(0, m_position - 1) / m_step });
    const std::int64_t above = std::min<std::int64_t>(
        { kFineValues, kMaxValue - m_value, std::max(0, kPositions - m_position - 1) / m_step });
    m_lowValue = m_value - below;
    m_lowPosition = m_position - int(below) * m_step;
    m_highValue = m_value + above;
    m_highPosition = m_position + int(above) * m_step;
}

std::int64_t BatchScale::value(int position) const
{
    if (position >= m_lowPosition && position <= m_highPosition)
        return m_value + std::int64_t(std::lround(double(position - m_position) / m_step));
    if (position > m_highPosition) {
        // Logarithmic from the zone's end to 4096 at the last position.
        const double t = double(position - m_highPosition) / double(kPositions - m_highPosition);
        const double v = double(m_highValue) * std::pow(double(kMaxValue) / double(m_highValue), t);
        return std::clamp<std::int64_t>(std::llround(v), m_highValue, kMaxValue);
    }
    // From 1 at position 0 to the zone's start.
    if (m_lowPosition <= 0 || m_lowValue <= 1)
        return 1;
    const double t = double(position) / double(m_lowPosition);
    return std::clamp<std::int64_t>(std::llround(std::pow(double(m_lowValue), t)), 1, m_lowValue);
}

int BatchScale::position(std::int64_t value) const
{
    // The formula's rounding can land one position off the value on the logarithmic parts: the nearest position
    // that shows the value, where one does.
    const int p = formulaPosition(value);
    for (int d : { 0, 1, -1, 2, -2 }) {
        const int q = std::clamp(p + d, 0, kPositions);
        if (this->value(q) == std::clamp<std::int64_t>(value, 1, kMaxValue))
            return q;
    }
    return p;
}

int BatchScale::formulaPosition(std::int64_t value) const
{
    const std::int64_t v = std::clamp<std::int64_t>(value, 1, kMaxValue);
    if (v >= m_lowValue && v <= m_highValue)
        return m_position + int(v - m_value) * m_step;
    if (v > m_highValue) {
        const double t = std::log(double(v) / double(m_highValue)) / std::log(double(kMaxValue) / double(m_highValue));
        return m_highPosition + int(std::lround(t * (kPositions - m_highPosition)));
    }
    if (m_lowValue <= 1)
        return 0;
    return int(std::lround(m_lowPosition * std::log(double(v)) / std::log(double(m_lowValue))));
}

} // namespace headroom::gui
