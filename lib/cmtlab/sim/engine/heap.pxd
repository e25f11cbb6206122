# C types for heap.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# Indices are within the list by construction (0 <= pos < len(heap)): heap.py's first line turns off
# the bounds checks.
cimport cython

@cython.locals(ta=cython.longlong, tb=cython.longlong, oa=cython.longlong, ob=cython.longlong,
               ia=cython.longlong, ib=cython.longlong)
cdef bint _before(tuple a, tuple b)

@cython.locals(parent=cython.Py_ssize_t, above=tuple)
cdef void _sift_up(list heap, Py_ssize_t pos, tuple event)

cpdef heappush(list heap, tuple event)

@cython.locals(last=tuple, first=tuple, n=cython.Py_ssize_t, pos=cython.Py_ssize_t, child=cython.Py_ssize_t,
               right=cython.Py_ssize_t)
cpdef tuple heappop(list heap)
