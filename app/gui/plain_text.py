"""Text from files shown as written: Qt renders any tooltip that looks like markup as rich text.

A label can be told `setTextFormat(PlainText)`; a tooltip cannot, and `Qt.mightBeRichText` decides. So a server id
`x<img src="/etc/hostname">` from a project file would load a local image into the tooltip. Every tooltip that
carries text from a project, a catalog or a message quoting them goes through `plain_tooltip`.
"""

from __future__ import annotations

import html


def plain_tooltip(text: str) -> str:
    """A tooltip showing `text` as written (escaped inside an explicit rich-text wrapper); "" stays "".

    >>> plain_tooltip('R760 <img src="/x">\\nline 2')
    '<qt>R760 &lt;img src=&quot;/x&quot;&gt;<br>line 2</qt>'
    """
    if not text:
        return ""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"
