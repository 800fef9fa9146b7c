"""The one redaction function (``deepeval.config.redaction.scrub``, behind ``redact``) scrubs a secret in every
form a server or a library may echo: whole, any run of 8 or more of its characters, percent-encoded, and
base64-encoded at any byte offset inside a longer encoded text."""

from __future__ import annotations

import base64
import random
import urllib.parse

import pytest

from deepeval.config.redaction import MIN_FRAGMENT, scrub, secret_forms

KEY = "tk-forms/Secret+0042=qrsTUVwxyz"


def test_base64_of_the_key_is_found_at_every_offset_and_in_both_alphabets() -> None:
    rng = random.Random(7)
    forms = secret_forms(KEY)
    for before in range(6):
        for after in range(4):
            blob = rng.randbytes(before) + KEY.encode() + rng.randbytes(after)
            for encode in (base64.b64encode, base64.urlsafe_b64encode):
                text = f"token={encode(blob).decode()};"
                assert any(f in text for f in forms[1:]), (before, after)
                cleaned = scrub(text, [KEY])
                assert "***" in cleaned and all(f not in cleaned for f in forms)


@pytest.mark.parametrize(
    "shown",
    [
        KEY,
        KEY[:MIN_FRAGMENT],
        KEY[-MIN_FRAGMENT:],
        KEY[5:20],
        urllib.parse.quote(KEY, safe=""),
        urllib.parse.quote(KEY, safe="").replace("%2F", "%2f").replace("%2B", "%2b"),
        urllib.parse.quote_plus(KEY),
        base64.b64encode(KEY.encode()).decode(),
        base64.b64encode(f"user:{KEY}".encode()).decode(),
        KEY.upper(),  # an error body that upper-cases what it echoes (outside attack 5, L8)
        KEY.lower()[3:20],
    ],
)
def test_each_echoed_form_is_scrubbed_and_the_text_around_it_kept(shown: str) -> None:
    assert scrub(f"server said [{shown}] twice: [{shown}]", [KEY]) == "server said [***] twice: [***]"


def test_runs_shorter_than_the_fragment_length_and_ordinary_text_are_left_alone() -> None:
    text = f"prefix {KEY[: MIN_FRAGMENT - 1]} and a sentence about tokens, forms and secrets"
    assert scrub(text, [KEY]) == text


def test_a_short_secret_is_only_scrubbed_whole() -> None:
    assert scrub("pin 4711x and 4711", ["4711x"]) == "pin *** and 4711"
    assert secret_forms("4711x") == ("4711x",)
