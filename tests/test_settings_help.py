"""help(impulse2d.WorldSettings) shows every setting with its default, units and meaning."""

import inspect
import pydoc
from dataclasses import fields

import impulse2d as i2d


def test_class_doc_lists_every_field_with_its_default():
    doc = inspect.getdoc(i2d.WorldSettings)
    for f in fields(i2d.WorldSettings):
        head = f"{f.name} : {f.type} = {f.default!r}"
        assert head in doc, head
        # the field's own text follows its heading, indented by four spaces
        after = doc.split(head, 1)[1].split("\n")[1]
        assert after.startswith("    ") and len(after.strip()) > 10, (f.name, after)
    assert "(undocumented)" not in doc


def test_help_text_carries_units():
    text = pydoc.render_doc(i2d.WorldSettings, renderer=pydoc.plaintext)
    # a few settings whose units a user must know
    for name, unit in (("contact_hertz", "Hz"), ("contact_speed", "m/s"),
                       ("time_to_sleep", "s, in"), ("restitution_threshold", "m/s")):
        section = text.split(f"{name} : ", 1)[1].split("\n\n", 1)[0]
        assert unit in section, (name, section)
