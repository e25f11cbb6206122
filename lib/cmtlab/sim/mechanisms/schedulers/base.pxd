# C types for base.py, which stays the source (compiled by cmtlab.compiled; see its docstring).
# The connection-level scheduler interface as a compiled class: cpdef methods, so a compiled
# scheduler is called directly and a Python subclass's own methods are still found.  ``conn``
# stays an object (the scheduler contract, base.py's docstring; tests use stubs).

cdef class ConnectionScheduler:
    cdef dict __dict__  # attributes of its own, as any Python object (subclasses, tests, notes)

    cpdef init(self, conn)
    cpdef select(self, conn, now_ns)
    cpdef on_sent(self, conn, subflow, dsn, now_ns)
