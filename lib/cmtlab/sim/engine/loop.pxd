# C types for loop.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
cimport cython
from .heap cimport heappop
from .events cimport EventQueue

@cython.locals(heap=list, events=cython.longlong, limit=cython.longlong)
cpdef tuple run_events(EventQueue queue, long long tmax_ns, long long budget, object t_end_ns=*)
