"""The papers' own simulator (Chihani–Collange ns-3 MPTCP model on ns-3.7), built and run by the book."""
