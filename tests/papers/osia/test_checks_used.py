"""cmtlab.papers.osia.checks holds no dead code: every public function is called by a notebook, a test or
another module (three functions nothing called were removed; a new unused one fails here)."""

import inspect
import re
from pathlib import Path

import cmtlab.papers.osia.checks as checks
from cmtlab._paths import REPO

ROOT = REPO


def _public_functions():
    return sorted(name for name, f in vars(checks).items()
                  if inspect.isfunction(f) and f.__module__ == checks.__name__ and not name.startswith("_"))


def test_every_public_check_has_a_caller():
    here = Path(checks.__file__).resolve()
    texts = [p.read_text() for folder in ("lib", "notebooks", "tests")
             for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".ipynb")
             and p.resolve() != here and p.resolve() != Path(__file__).resolve()]
    own = here.read_text()
    unused = []
    for name in _public_functions():
        call = re.compile(rf"\b{name}\(")
        # a call from another file, or from another function of this module (not its own def line)
        if not any(call.search(t) for t in texts) and len(call.findall(own)) < 2:
            unused.append(name)
    assert _public_functions(), "no public functions found: the test reads the wrong module"
    assert unused == [], f"functions in cmtlab.papers.osia.checks nothing calls: {unused}"
