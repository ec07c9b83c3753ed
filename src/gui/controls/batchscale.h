#pragma once

// The micro-batch slider's scale. A logarithmic slider reaches 1 to 4096 in one drag but moves by hundreds per pixel
// at the large end ("a short drag jumps from 4 to 891"), so the fit boundary cannot be found by dragging; a linear
// one cannot reach 4096. This scale is both: linear around the value the slider was last set to (`fineValues`
// values either side, one value every few pixels), logarithmic beyond, out to 1 and 4096 at the ends. It is
// anchored at the current value while the slider is held, so a drag moves one by one near where it started and
// accelerates further away; released, it re-anchors on the new value. The handle stays where it was released unless
// that has drifted far from the value's logarithmic place (repeated fine drags one way), where it goes back to it.

#include <cstdint>

namespace headroom::gui {

class BatchScale {
public:
    static constexpr int kPositions = 960;          // slider range: 80 positions per doubling on the log scale
    static constexpr std::int64_t kMaxValue = 4096; // 2^12
    static constexpr int kFineValues = 8;           // linear values on each side of the anchor
    static constexpr int kMaxDrift = 120;           // positions the handle may sit away from its log place

    // The plain logarithmic position of a value (where the handle rests when nothing has been dragged).
    static int logPosition(std::int64_t value);

    // Re-anchors on `value` at `position` (the handle's place, -1 for the value's log place). `positionsPerValue`
    // is the linear zone's spacing, from the slider's width: a few pixels per value.
    void anchor(std::int64_t value, int position, int positionsPerValue);

    std::int64_t value(int position) const;
    int position(std::int64_t value) const;
    std::int64_t anchorValue() const { return m_value; }
    int anchorPosition() const { return m_position; }
    int positionsPerValue() const { return m_step; }

private:
    int formulaPosition(std::int64_t value) const;
    std::int64_t m_value = 1;
    int m_position = 0;
    int m_step = 24;
    // The linear zone's ends: values and positions.
    std::int64_t m_lowValue = 1, m_highValue = 1;
    int m_lowPosition = 0, m_highPosition = 0;
};

} // namespace headroom::gui
