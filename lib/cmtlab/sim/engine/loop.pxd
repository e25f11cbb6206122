# C types for loop.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .events cimport Event, EventQueue

@cython.locals(ev=Event, events=cython.longlong, limit=cython.longlong, now=cython.longlong)
cpdef tuple run_events(EventQueue queue, long long tmax_ns, long long budget, object t_end_ns=*)
