# chihani.py stays the source; this file only makes cmtlab.compiled compile it (see its docstring).
# The model's classes stay Python classes (mixins over the compiled RFC mechanisms; the model keeps
# per-instance attributes of its own); compiled, their methods run without the bytecode interpreter.
