"""What one run's front ends work out once and keep from file to file."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FrontEndMemo:
    """Made once per run (and once per front-end worker process of the run) and
    handed to every file's front end: jobs copy scripts, statements and conditions
    between files, so what reading one file works out serves the others. It lives as
    long as its run: two runs in one process (the Language Server, tests) share
    nothing. What it holds is the SQL front end's (`frontend.sql`), which bounds it, and
    the Python front end's, by text the run reads.

    `statements`: SQL statements read, by what their reading depends on;
    `conditions`: target conditions given as SQL text, by what they are read against;
    `roles`: what a node type of a condition says about it (`sql.condition_flags`);
    `statements_read`: how many statements were read anew (the run's statistics);
    `definitions`: a helper's source, as other files' summaries give it, -> whether it
    parses as one definition (see `pyforeign.paste_helpers`);
    `modules`: a module's value source (`Links.value_source`) -> its parsed tree or
    None, parsed once however many files call its value functions;
    `value_sources`: a file's own Python code -> its value functions and the source
    they need (`Links.value_functions`, `Links.value_source`), worked out once
    however many times the run reads the file.
    """

    statements: dict = field(default_factory=dict)
    conditions: dict = field(default_factory=dict)
    roles: dict = field(default_factory=dict)
    statements_read: int = 0  # statements not found in `statements`, read (and parsed) anew
    definitions: dict = field(default_factory=dict)
    modules: dict = field(default_factory=dict)
    value_sources: dict = field(default_factory=dict)
