"""Sphinx configuration of the impulse2d documentation.

Build from the repository root (the README's command):

    sphinx-build -W --keep-going -n docs docs/_build/html

The tutorials (MyST markdown notebooks in ``tutorials/``) are executed by myst-nb at every
build, and a cell that raises fails the build; the gallery scripts in ``examples/`` are
executed by sphinx-gallery. ``IMPULSE2D_DOCS_EXECUTE=cache`` re-executes only pages that changed
(``pip install jupyter-cache``), for writing docs, and ``off`` executes none (a quick check of
the prose and the API reference); CI uses the default, ``force``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))          # _ext: the benchmarks page generator

import impulse2d  # noqa: E402

project = "impulse2d"
author = "the impulse2d developers"
copyright = "2026, the impulse2d developers"
release = impulse2d.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx_gallery.gen_gallery",
    "_ext.benchmarks",
]

# Pages: MyST markdown (.md) for prose; tutorials are MyST notebooks (jupytext header) that
# myst-nb executes.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints",
                    "jupyter_execute",
                    "examples/README.txt", "gallery/*.ipynb", "gallery/*.py", "gallery/*.zip",
                    "gallery/*.md5", "gallery/*.json"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# --- execution: every tutorial runs at build time, and a failing cell fails the build --------
nb_execution_mode = os.environ.get("IMPULSE2D_DOCS_EXECUTE", "force")
nb_execution_raise_on_error = True
nb_execution_show_tb = True
# generous: the first page to use a solver compiles its kernels (Numba, tens of seconds on a
# loaded 2-core machine)
nb_execution_timeout = 900
nb_merge_streams = True

# --- gallery -----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "within_subsection_order": "FileNameSortKey",
    "show_signature": False,
}

# --- API reference -----------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"undoc-members": False}

# Nitpicky cross-references (-n). Targets Sphinx cannot resolve by design:
nitpick_ignore_regex = [
    # type names written in annotations and docstrings of the public API whose home is outside
    # these docs (NumPy has no intersphinx here: the build must work offline)
    (r"py:class", r"(np|numpy|os)\..*"),
    # SymPy's types in impulse2d.custom's annotations (SymPy has no intersphinx here either)
    (r"py:class", r"(sp|sympy)\..*"),
    (r"py:class", r"(PIL\.)?Image(\.Image)?"),
    # private modules, named in docstrings to say where something is implemented
    (r"py:(mod|class|func|obj|data|attr|meth)", r"(?s)(.*\.)?_.*"),
    # the docstring of the internal events.EventTracker (documented only through its module)
    (r"py:attr", r"on"),
    # short names of the package's classes written in its modules' docstrings
    # (":class:`WorldSettings`" in impulse2d.compare); they are documented as impulse2d.<name>
    (r"py:class", r"(WorldSettings|World|Body|Shape|Joint|ContactMemory|Clip)"),
    # annotations spelled as strings under `from __future__ import annotations`
    (r"py:class", r"(Sequence|Iterable|Callable|Any|optional|callable|sequence|array_like)"),
    (r"py:class", r"(Vec2Like|ArrayLike)"),
    # dataclass field annotations that stay strings (PEP 563) and that autodoc cannot parse
    (r"py:class", r"'.*"),
    (r"py:class", r"(dict|tuple|list)\[.*"),
    # render_frame's docstring names the palette by its short name in impulse2d.render.raster;
    # it is documented as impulse2d.render.PALETTE
    (r"py:data", r"PALETTE"),
    # instance attributes the draw back ends' docstrings name (camera, flags, collections, ...):
    # they are described in their class docstrings, not documented as attributes of their own
    (r"py:attr", r"(camera|flags|collections|polygon_rows|mime)"),
]

# --- HTML --------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"impulse2d {release}"


def _numpy_sections(app, what, name, obj, options, lines):
    """Convert the few docstrings written with NumPy-style sections (a ``Parameters`` heading
    underlined with dashes). Not napoleon for all: it reads the first line of every property's
    docstring as "type: description", and the engine's read "Joint angle, rad (...)" etc."""
    if any(line.strip() and set(line.strip()) == {"-"} for line in lines):
        from sphinx.ext.napoleon import Config, NumpyDocstring
        config = Config(napoleon_use_param=True, napoleon_use_rtype=True)
        lines[:] = NumpyDocstring(lines, config, app, what, name, obj, options).lines()


def setup(app):
    app.connect("autodoc-process-docstring", _numpy_sections)
