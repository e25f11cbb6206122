# C types for undo.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Its methods are called by the reordering responses, not on every ACK: they stay Python methods.
from .scoreboard cimport Scoreboard

# the scoreboard flags and congestion states as C integers (tcp/flags.py, tcp/state.py assign them)
cdef long RETRANS, SACKED
cdef long long LOSS, OPEN, RECOVERY

cdef class UndoApi(Scoreboard):
    pass
