"""Renderers: format-neutral units as the text of one output format.

- `base`       the `Renderer` interface and `renderer_for(name)`, which finds a format's module.
- `xml`        the XML renderer (the one format today); `xmlwriter` its escaping.

Adding a format is one new module here and one line in `base.FORMATS`.
"""
