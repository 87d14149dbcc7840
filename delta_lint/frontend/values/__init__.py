"""One value layer for the readers of Python code.

What an expression of job code holds, told in one lattice (`lattice`: a known
value, a template of known text and named inputs, one of a few values, or
unknown with a reason), by one evaluator over it (`evaluator`), within one budget
per file (`budget`: counted steps, sizes, a CPU-time backstop), with what the libraries job
code calls return kept as data (`brains`) and the regular expressions it chooses
run on RE2 (`regex`). `sources` gives a module's value functions to the files
that import it and keeps project documents out of messages. The Python front
end reads a file with two parts of it: `walker` reads the statements in order
for what each name holds (joined where control flow meets again), `resolver`
what one expression holds in a scope; the analyzer that owns both builds the
intents.
"""
