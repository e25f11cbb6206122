# chihani.py stays the source; this file only makes cmtlab.compiled compile it (see its docstring).
# The model's classes stay Python classes (mixins over the compiled RFC mechanisms; the model keeps
# per-instance attributes of its own); compiled, their methods run without the bytecode interpreter.

cimport cython
from ..mechanisms.congestion.lia cimport Lia as LiaState  # (chihani.py imports the class Lia itself)
from ..mechanisms.congestion.coupled cimport _floor
from ..tcp.base cimport SenderBase

@cython.locals(seg=cython.longlong, cwnd=cython.longlong, ssthresh=cython.longlong, n=cython.longlong,
               scwnd=cython.double, total_w=cython.double, best=cython.double, ssum=cython.double,
               total=cython.longlong, s=SenderBase, w=cython.double, r=cython.double, x=cython.double,
               alpha=cython.double, bytes_acked=cython.longlong, frac=cython.double, whole=cython.longlong,
               c=cython.longlong)
cpdef _model_lia_increase(LiaState cc, SenderBase sub, long long segments_acked)
