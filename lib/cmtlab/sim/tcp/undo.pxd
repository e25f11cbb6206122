# C types for undo.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Its methods are called by the reordering responses, not on every ACK: they stay Python methods.
from .scoreboard cimport Scoreboard

cdef class UndoApi(Scoreboard):
    pass
