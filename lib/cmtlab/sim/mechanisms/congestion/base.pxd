# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The interface as a compiled class: its methods are cpdef, so a compiled caller calls a compiled
# algorithm directly and a Python subclass's own methods are still found (cpdef dispatch).
# ``sub`` stays an object: any sender-like object works (tests use stubs).

cdef class CongestionControl:
    cdef dict __dict__  # attributes of its own, as any Python object (subclasses, tests, notes)

    cpdef init(self, sub)
    cpdef increase_window(self, sub, long long segments_acked)
    cpdef ssthresh(self, sub, long long bytes_in_flight)
