"""Link-quality measurements.

* :mod:`cmtlab.measurements.field` — a seeded, clearly-labelled reconstruction of the
  (non-public) high-speed-train field measurement of Song et al., sec. 3, Fig. 1;
* :mod:`cmtlab.measurements.public` — loaders for real public data sets (Raca et al.
  5G/LTE/HSPA+ dataset; Laniewski et al. Starlink on the Road), pinned by sha256.
"""

from . import field, public  # noqa: F401
from .field import check_fig1_claims, generate_reconstruction, load_data_rates, load_rtt_samples, rtt_summary  # noqa: F401
