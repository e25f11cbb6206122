"""Link-quality measurements.

* :mod:`cmtlab.measurements.public` — loaders for real public data sets (Raca et al.
  5G/LTE/HSPA+ dataset; Laniewski et al. Starlink on the Road), pinned by sha256.

(The reconstruction of Song et al.'s non-public field measurement, built from the paper's numbers, is paper code:
:mod:`cmtlab.papers.song.field`.)
"""

from . import public  # noqa: F401
