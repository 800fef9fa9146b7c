"""The one sanitiser for text we show: everything printed to a terminal and everything written into a Markdown
report goes through here.

Test-case names, inputs, outputs, reasons, errors, settings values and file contents are data an attacker may
control. Printed raw, an escape sequence in them can set the window title, clear the screen, rewrite earlier lines
or (OSC 52) reach the clipboard; written raw into Markdown, ``<img onerror=...>`` or a newline followed by ``#``
becomes HTML or a heading when the file is rendered.

- :func:`terminal`: every C0 control character (except TAB and, unless ``one_line``, LF), DEL, every C1 control
  character (U+0080-U+009F, which includes the 8-bit CSI U+009B), the bidirectional overrides and isolates
  (U+202A-U+202E, U+2066-U+2069: "Trojan Source" reordering) and the line / paragraph separators are written as
  visible escapes (``\\x1b``, ``\\u202e``), so ``ESC [ 2 J`` prints as the text ``\\x1b[2J`` and does nothing.
  ``one_line``: line breaks are shown as ``\\n`` (``\\r\\n`` as one), so a name stays on its line. Lone surrogates
  become U+FFFD (a strict UTF-8 terminal refuses them).
- :func:`markdown`: :func:`terminal`'s escapes, then Markdown and HTML made inert: ``&``, ``<``, ``>`` as entities and
  the characters that start emphasis, links, images, code, strikethrough or table cells backslash-escaped. Line
  breaks become ``<br>`` (a table cell or list item stays one Markdown line) or, with ``one_line`` (a heading),
  a visible ``\\n``.

Nothing is removed: the escapes show what was there. The HTML report (jinja2 ``finalize``) and the results CSV
(read by people in terminals and spreadsheets) show the same escapes; the files we write for programs (the JSON
export, dataset files) keep the text exactly as given.
"""

from __future__ import annotations

import re

from deepeval.test_case.encodable import encodable

#: control characters shown as escapes: C0 but TAB and LF, DEL, C1, bidi overrides / isolates, LS / PS
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_CONTROL_ONE_LINE = re.compile("\r\n|[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: Markdown punctuation that can open a construct inline (emphasis, code, links, images, strikethrough, cells)
_MD_PUNCT = re.compile(r"([\\`*_\[\]|~])")
_NAMED = {"\n": "\\n", "\r\n": "\\n", "\r": "\\r", "\t": " "}


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible_controls(text: str) -> str:
    """``text`` with its control characters, bidi overrides and line / paragraph separators as visible escapes
    (TAB and LF kept; CR LF as LF), nothing else changed: lone surrogates are left to the file writer (the HTML
    report and the CSV show them as ``\\udcff``)."""
    return _CONTROL.sub(_escape, text.replace("\r\n", "\n"))


def terminal(text: object, one_line: bool = False) -> str:
    """``text`` (``str()`` of anything else; None is ``""``) safe to print: control characters and escape
    sequences shown as visible escapes, never sent raw (see the module docstring)."""
    if text is None:
        return ""
    value = encodable(text if isinstance(text, str) else str(text))
    if one_line:
        return _CONTROL_ONE_LINE.sub(_escape, value)
    return visible_controls(value)


def markdown(text: object, one_line: bool = False) -> str:
    """``text`` as inert Markdown: :func:`terminal`'s escapes, HTML special characters as entities, Markdown
    punctuation backslash-escaped, line breaks as ``<br>`` (or, ``one_line``, a visible ``\\n``)."""
    value = terminal(text, one_line=one_line)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = _MD_PUNCT.sub(r"\\\1", value)
    return value.replace("\n", "<br>")
