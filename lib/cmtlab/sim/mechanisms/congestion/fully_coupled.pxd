# fully_coupled.py stays the source; this file only makes cmtlab.compiled compile it (see its docstring).
# Its classes stay Python classes (subclassed by the models' mixins, with attributes of their own);
# compiled, their methods run without the bytecode interpreter.
