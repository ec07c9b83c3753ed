#pragma once

// A combo box that shows an entry too long for it cut with an ellipsis ("Paged 8-bit AdamW (bitsandbytes…") and
// the whole entry in its tooltip. QComboBox draws the text clipped at the box's edge with no mark that anything is
// missing ("Paged 8-bit AdamW (bi"), which the panel's narrow column in presentation mode did to the optimizer,
// attention and precision entries. An editable combo box (the GPU and model pickers) keeps its line edit, whose text
// stays whole and editable: while it has no focus the box paints it cut short with an ellipsis ("NVIDIA RTX A3000
// 12GB La…" where it showed "NVIDIA RTX A3000 12GB Lapt"), and once it has, the line edit draws it as it is.

#include <QComboBox>

namespace headroom::gui {

class ElidingComboBox : public QComboBox {
    Q_OBJECT

public:
    using QComboBox::QComboBox;

    // The current entry as the box draws it: whole where it fits (or while its line edit has the focus), else cut
    // short with an ellipsis.
    QString displayedText() const;
    // Whether the box shows less than its current entry (elided, or past the end of the line edit).
    bool cutsText() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int textRoom(const QStyleOptionComboBox& option) const;
    int lineEditRoom() const;
    bool paintsElidedLineEdit() const;
    void paintLineEdit();
};

} // namespace headroom::gui
