"""The project state kept in the cache for the next process: what `run._recheck`
needs of a `run._Project`, encoded compactly (`Kept`, msgspec) when a run ends
(`keep_project`) and decoded by a new process (`load_state`, the `Stored*`
views that decode a part when a re-check first asks for it), and the parsed
workflows kept beside it (`kept_workflows`). `run._restored` builds the project
from it; a run that cannot re-check from it runs in full.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, get_args, get_origin

import msgspec

from delta_lint.cache import Cache, TableEntry, decode_values, encode_values
from delta_lint.config import Config
from delta_lint.model import UNKNOWN_FOLDER, Context, Diagnostic, FileSummary, Finding, Links, Location, Pools
from delta_lint.tree import Tree

if TYPE_CHECKING:
    from delta_lint.bundle import Workflows

PROJECT_STATE = "project-state:"  # kv blob: `Kept`, what the next process's re-check starts from


class KeptTree(msgspec.Struct, array_like=True):
    """A `Tree` as stored (its `moved` is the next walk's)."""

    taken: int
    dirs: dict[str, tuple[list[int], tuple[str, ...], tuple[str, ...], tuple[str, ...]]]
    files: dict[str, list[int]]
    git: list[int] | None
    digests: dict[str, str]


class Kept(msgspec.Struct, array_like=True):
    """What a new process needs of a `_Project` to re-check it (`_restored`), stored
    compactly: plain lists and maps decode without a Python hook; the few parts
    made of our own types are tagged JSON text (`cache.encode_values`), decoded
    only when a re-check reaches them. Every file's summary and result stay in the
    cache's files table, where the run put them: a re-check decodes the summaries
    of the files it reads and of the other writers of their tables, not all."""

    slot: str  # `_project_slot`: the configuration, options and folders it is of
    context: str  # `_Project.context`
    cwd: str
    files: list[tuple[str, str, str, str]]  # display path, root-relative path, suffix, content key
    paths: list[str]  # absolute
    linked: dict[int, str]  # the cache keys of files read with a context
    judged: dict[int, str]  # `_Files.judged`: files whose tables were judged with another content's reading
    contexts: dict[int, str]  # and those contexts, tagged
    non_delta: list[str]
    writers: dict[str, list[int]]
    first: str  # tagged: table -> its first write's location
    runs_in: dict[str, list[str]]  # `RunsIn.callers`
    pooled: dict[str, Pools]  # `RunsIn.pooled`
    defined: str  # tagged: (root-relative file, the job documents its code defines)
    table_keys: dict[str, str]
    taken: int  # when the run's walk of the folders began: the `Warm` record kept beside holds that walk
    rel_of: dict[str, str]  # `_Views` from here on; shared, diags, scans: the files that have them
    shared: list[int]
    diags: list[int]
    scans: list[int]
    skipped: dict[int, str]
    n_intents: int
    analysed: dict[str, int]
    shared_findings: str  # tagged: the findings across tables
    shared_sources: dict[str, str] | None
    # the digest of the files the workflows as loaded read, the listings they depend on,
    # and whether they are kept beside the state (`kept_workflows`)
    workflows: bool
    workflows_context: str
    listings: list[tuple[str, str, tuple[str, ...]]]
    run_key: str | None  # the run that stored it: the output kept per finding of that run is patched (`patch`)
    errored: list[str]  # the tables with internal errors: decoded by every re-check, their errors are reported
    # the state stored whole that this one is that state and a `KeptDelta` of (`load_state`):
    # a re-check stores its own as a delta of the same one. Never stored: a state is
    # encoded only as `keep_project` makes it, without one
    base: Kept | None = None


_KEPT_DECODER = msgspec.msgpack.Decoder(Kept)


class KeptDelta(msgspec.Struct, array_like=True):
    """A project state as the changes of a re-check to the state last stored whole
    (the one `taken` and `run_key` name): re-encoding, compressing and writing the
    whole state after each edit (ten thousand files' keys, paths and listings: 4 MB)
    was a twentieth of a re-check. Per field of `Kept`: a value of its own
    (`replaced`); for a list, its elements at some indexes, and for a map, some
    entries (`items`), with the keys a map no longer has (`dropped`). Each part is
    encoded apart and decoded with its field's type."""

    slot: str
    taken: int
    run_key: str | None
    replaced: dict[str, msgspec.Raw]
    items: dict[str, msgspec.Raw]
    dropped: dict[str, msgspec.Raw]


_DELTA_DECODER = msgspec.msgpack.Decoder(KeptDelta)
# a delta changing more than this share of a field's entries keeps that field whole; one
# with more than this share of the files changed, or after a full run, is not made
DELTA_SHARE = 4


@lru_cache(maxsize=1)
def _kept_types() -> dict[str, Any]:
    return {f.name: f.type for f in msgspec.structs.fields(Kept) if f.name != "base"}


def _delta(kept: Kept, base: Kept) -> KeptDelta | None:
    """`kept` as a delta of `base` (a state stored whole), or None when much changed."""
    replaced: dict[str, msgspec.Raw] = {}
    items: dict[str, msgspec.Raw] = {}
    dropped: dict[str, msgspec.Raw] = {}
    for name, kind in _kept_types().items():
        new, old = getattr(kept, name), getattr(base, name)
        if new == old:
            continue
        origin = get_origin(kind)
        if origin is list and isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
            changed = {i: v for i, (v, o) in enumerate(zip(new, old)) if v != o}
            if len(changed) * DELTA_SHARE < len(new):
                items[name] = msgspec.Raw(_KEPT_ENCODER.encode(changed))
                continue
        elif origin is dict and isinstance(new, dict) and isinstance(old, dict):
            updated = {k: v for k, v in new.items() if k not in old or old[k] != v}
            gone = [k for k in old if k not in new]
            if (len(updated) + len(gone)) * DELTA_SHARE < len(new):
                items[name] = msgspec.Raw(_KEPT_ENCODER.encode(updated))
                if gone:
                    dropped[name] = msgspec.Raw(_KEPT_ENCODER.encode(gone))
                continue
        if name == "files":
            return None  # many files changed: the state is stored whole again
        replaced[name] = msgspec.Raw(_KEPT_ENCODER.encode(new))
    return KeptDelta(kept.slot, base.taken, base.run_key, replaced, items, dropped)


def _applied(base: Kept, delta: KeptDelta) -> Kept | None:
    """The state `delta` describes, from `base`; None when a part does not fit it."""
    types = _kept_types()
    changes: dict[str, Any] = {}
    try:
        for name, raw in delta.replaced.items():
            changes[name] = msgspec.msgpack.decode(raw, type=types[name])
        for name, raw in delta.items.items():
            kind = types[name]
            old = getattr(base, name)
            if get_origin(kind) is list:
                value = list(old)
                for i, element in msgspec.msgpack.decode(raw, type=dict[int, get_args(kind)[0]]).items():
                    if not 0 <= i < len(value):
                        return None
                    value[i] = element
            else:
                value = {**old, **msgspec.msgpack.decode(raw, type=kind)}
                if name in delta.dropped:
                    for k in msgspec.msgpack.decode(delta.dropped[name], type=list[get_args(kind)[0]]):
                        value.pop(k, None)
            changes[name] = value
    except (KeyError, IndexError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    return msgspec.structs.replace(base, **changes, base=base)


_KEPT_ENCODER = msgspec.msgpack.Encoder()


class StateGone(Exception):
    """A summary a restored project needs is no longer in the cache (another run
    bounded it meanwhile): the run goes on in full."""


class StoredSummaries:
    """A restored project's file summaries, read from the cache's files table by
    each file's key when first asked for (`_Files.summaries` otherwise holds a list)."""

    def __init__(self, keys: list[str], store: Cache) -> None:
        self.keys, self.store = keys, store
        self.known: dict[int, FileSummary] = {}

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, index: int) -> FileSummary:
        if index not in self.known:
            self.fetch([index])
        return self.known[index]

    def __setitem__(self, index: int, summary: FileSummary) -> None:
        self.known[index] = summary

    def __iter__(self):
        self.fetch(range(len(self.keys)))
        return (self.known[i] for i in range(len(self.keys)))

    def fetch(self, indexes) -> None:
        wanted = {self.keys[i]: i for i in indexes if i not in self.known}
        if not wanted:
            return
        found = self.store.get_summaries(list(wanted))
        for key, i in wanted.items():
            if key not in found:
                raise StateGone(key)
            self.known[i] = found[key]


class StoredFirstLinks:
    """`_Project.first_links` of a restored project: a file read with a context was
    first read without it, under its content key; any other file's are its summary's."""

    def __init__(self, files: list[tuple[str, str, str, str]], linked: dict[int, str], summaries: StoredSummaries):
        self.files, self.linked, self.summaries = files, linked, summaries

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, index: int) -> Links | None:
        if index not in self.linked:
            return self.summaries[index].links
        key = self.files[index][3]
        found = self.summaries.store.get_summaries([key])
        if key not in found:
            raise StateGone(key)
        return found[key].links

    def __iter__(self):
        return (self[i] for i in range(len(self.files)))


class StoredPaths:
    """A restored project's file paths (`Inputs.paths`), made `Path`s when asked for:
    a re-check reads a few files of ten thousand."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, index: int) -> Path:
        return Path(self.paths[index])

    def __iter__(self):
        return map(Path, self.paths)


class StoredContexts:
    """A restored project's file contexts (`_Files.contexts`), decoded when asked for."""

    def __init__(self, tagged: dict[int, str]) -> None:
        self.tagged = tagged
        self.known: dict[int, Context] = {}

    def get(self, index: int, default: Context | None = None) -> Context | None:
        if index in self.known:
            return self.known[index]
        text = self.tagged.get(index)
        if text is None:
            return default
        try:
            context = decode_values(text, (Context,))
        except (ValueError, KeyError, TypeError, RecursionError) as why:
            raise StateGone(f"file {index}'s context") from why
        if not isinstance(context, Context):
            raise StateGone(f"file {index}'s context")
        self.known[index] = context
        return context

    def __contains__(self, index: int) -> bool:
        return index in self.tagged

    def __setitem__(self, index: int, context: Context) -> None:
        self.known[index] = context
        self.tagged[index] = encode_values(context, (Context,))


def _state_key(slot: str) -> str:
    return PROJECT_STATE + hashlib.blake2b(slot.encode(errors="surrogateescape"), digest_size=20).hexdigest()


def _path_hook(value: object) -> object:
    """msgspec's hook for the paths workflows hold (the files they read)."""
    if isinstance(value, Path):
        return os.fspath(value)
    raise TypeError(f"cannot keep a {type(value).__name__}")  # msgspec: an unsupported type


def _path_of(kind: type, value: object) -> object:
    """And back: only a `Path` from text, any other custom type is refused (msgspec
    reports the TypeError as a validation error: the kept workflows are a miss)."""
    if kind is Path and isinstance(value, str):
        return Path(value)
    raise TypeError(f"not a {kind.__name__}")


_WORKFLOWS_ENCODER = msgspec.msgpack.Encoder(enc_hook=_path_hook)


@lru_cache(maxsize=1)
def _workflows_decoder() -> msgspec.msgpack.Decoder:
    from delta_lint.bundle import Workflows

    return msgspec.msgpack.Decoder(Workflows, dec_hook=_path_of)


def _encode_workflows(workflows: Workflows) -> bytes | None:
    """The workflows for a project state, when they decode back equal: dbt writes
    hold untyped tuples, which a typed decoder cannot give back as they were."""
    if workflows.dbt:
        return None
    try:
        encoded = _WORKFLOWS_ENCODER.encode(workflows)
    except (TypeError, msgspec.EncodeError):
        return None
    return encoded


def _workflows_key(slot: str) -> str:
    return _state_key(slot) + ":workflows"


def kept_workflows(store: Cache, slot: str, kept: Kept, context: str, listed: object) -> Workflows | None:
    """The workflows kept beside a project state (msgspec, after the digest of the
    files they read), while they are what loading the bundle and job files would
    give now: `context` is the digest of the files the last run read
    (`_kept_context`, which asked that run's listings, `listed`, again and found
    them unchanged; or `run._vouched`, which found those of the run that kept the
    state unchanged: `listed` is then `kept` itself), and the state's workflows
    read the same files and depend on the same listings. None: ask the cache's
    parsed workflows (`cached_workflows`)."""
    if not kept.workflows or kept.workflows_context != context:
        return None
    if listed is not kept:
        listings = listed.get("listings") if isinstance(listed, dict) else None
        if not isinstance(listings, list) or [(k, a, tuple(x)) for k, a, x in listings] != kept.listings:
            return None
    blob = store.get_blob(_workflows_key(slot))
    if blob is None:
        return None
    digest, _, encoded = blob.partition(b"\n")
    if digest != context.encode():
        return None
    try:
        return _workflows_decoder().decode(encoded)
    except (msgspec.DecodeError, TypeError, ValueError):
        return None


def load_state(store: Cache, slot: str) -> Kept | None:
    """The project state the last run of this slot stored, or None: the state stored
    whole, with the delta stored after it when it is of that state (`KeptDelta`)."""
    base = _load_slotted(store, _state_key(slot), _KEPT_DECODER, slot)
    if base is None:
        return None
    delta = _load_slotted(store, _delta_key(slot), _DELTA_DECODER, slot)
    if delta is None or (delta.taken, delta.run_key) != (base.taken, base.run_key):
        return base
    return _applied(base, delta)


def _delta_key(slot: str) -> str:
    return _state_key(slot) + ":delta"


def _load_slotted(store: Cache, key: str, decoder: msgspec.msgpack.Decoder, slot: str) -> Any:
    """The record stored under `key` when it decodes and was kept for `slot` (a key is
    a digest of its slot: a record of another slot with the same key is refused),
    else None."""
    blob = store.get_blob(key)
    if blob is None:
        return None
    try:
        held = decoder.decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return held if held.slot == slot else None


WARM_GATE = "warm-gate:"  # kv blob: `Warm`, what tells a new process nothing changed since a run


class Warm(msgspec.Struct, array_like=True):
    """What a new process needs to tell that nothing a run read has changed since the
    run `run_key`, without discovering, hashing or asking the bundle listings again
    (`run._warm_output`): the project's folders as walked before that run read a
    file, the project root resolved, the digest of the run's bundle and job files,
    configuration and snapshot (`run._context_digest`) with the files it reads, and
    the listings the walk does not vouch for (`vouches`), to be asked again. Small
    beside `Kept`, which an unchanged run does not decode."""

    slot: str
    tree: KeptTree
    top: str  # os.path.realpath of the root: a folder above it moved or linked elsewhere
    run_key: str
    context: str
    files: list[str]
    listings: list[tuple[str, str, tuple[str, ...]]]
    diagnostics: str  # tagged: discovery's problems (`run.Inputs.diagnostics`), as the walk leaves them


_WARM_DECODER = msgspec.msgpack.Decoder(Warm)

# listings that walk the project below their folder (`bundle._walk_project`: hidden
# and `_SKIP_DIRS` folders left out, as `walk` leaves them) or look at the names of
# one folder (`bundle.find_bundle`), reading only files the walk signs
_WALKED_LISTINGS = frozenset(
    {"bundle", "bundles", "job-json", "terraform", "terraform-modules", "airflow", "adf", "dbx", "dbt", "dbt-profiles"}
)


def vouches(tree: Tree, top: str, kind: str, argument: str) -> bool:
    """Whether the answer of the bundle listing (`bundle.listing`) `kind` of
    `argument` is given by what `tree` holds, so that a later walk the tree holds
    (`Tree.changed`) vouches it answers the same: a listing of a folder the tree
    walked; or a task file looked for (`locate`) by a plain relative path whose
    folder the tree walked, under the root `top` (its answer is the names and kinds
    of that folder's entries: an entry is added, removed or replaced only by
    changing its folder). A path with `..`, `.` or empty parts, an absolute one (it
    may be looked for elsewhere when missing) or one naming an unknown folder is
    asked again, as is every other kind."""
    if kind in _WALKED_LISTINGS:
        return argument in tree.dirs
    if kind != "locate":
        return False
    try:
        value, base, root = json.loads(argument)
    except (ValueError, TypeError):
        return False
    if not (isinstance(value, str) and isinstance(base, str) and root == top):
        return False
    parts = value.split("/")
    if not value or value.startswith(UNKNOWN_FOLDER) or "\x00" in value or any(p in ("", ".", "..") for p in parts):
        return False
    candidate = os.path.join(base, value)
    return os.path.isabs(base) and os.path.normpath(candidate) == candidate and os.path.dirname(candidate) in tree.dirs


def keep_warm(
    store: Cache,
    slot: str,
    top: str,
    tree: Tree,
    run_key: str,
    context: str,
    files: list[str],
    listings: list,
    diagnostics: list[Diagnostic],
    asked: list[tuple[str, str, tuple[str, ...]]] | None = None,
) -> None:
    """Keep the `Warm` record of the run `run_key`, whose files were read after the
    walk `tree` of the root `top` (absolute), whose discovery met `diagnostics` and
    whose context digest `context` read `files` and asked `listings`. `asked`: the
    listings `tree` does not vouch for, when known (the last record's, for the same
    listings and folders: 10,000 task files are not looked at again)."""
    if asked is None:
        asked = [
            (kind, argument, tuple(answer))
            for kind, argument, answer in listings
            if not vouches(tree, top, kind, argument)
        ]
    try:
        warm = Warm(
            slot,
            KeptTree(tree.taken, tree.dirs, tree.files, tree.git, tree.digests),
            os.path.realpath(top),
            run_key,
            context,
            files,
            asked,
            encode_values(diagnostics),
        )
        store.put_blob(_warm_key(slot), _KEPT_ENCODER.encode(warm))
    except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not kept
        return


def load_warm(store: Cache, slot: str) -> Warm | None:
    """The `Warm` record the last run of this slot kept, or None."""
    return _load_slotted(store, _warm_key(slot), _WARM_DECODER, slot)


def _warm_key(slot: str) -> str:
    return WARM_GATE + _state_key(slot)[len(PROJECT_STATE) :]


def tree_of(warm: Warm) -> Tree:
    t = warm.tree
    return Tree(t.taken, dict(t.dirs), t.files, t.git, t.digests)


class Project(Protocol):
    """What `keep_project` reads of a `run._Project` (the run imports this module, so
    the run's own types are named here only as what is read of them)."""

    inputs: Any  # `run.Inputs`: `files`, `paths`, `cwd`
    files: Any  # `run._Files`: `summaries`, `contexts`, `linked_keys`
    config: Config
    context: str
    non_delta: set[str]
    writers: dict[str, set[int]]
    first: dict[str, Location]
    workflows: Workflows
    table_keys: dict[str, str]
    results: dict[str, TableEntry]
    tree: Tree | None
    views: Any  # `run._Views`: `rel_of`, `shared`, `diags`, `scans`, `skipped`, `n_intents`, `analysed`
    shared: list[Finding]
    shared_sources: dict[str, str] | None
    runs_in: Any  # `run.RunsIn`: `callers`, `pooled`
    kept: Kept | None


def keep_project(store: Cache, slot: str, p: Project, workflows_context: str, run_key: str | None) -> None:
    """Store what a new process needs to re-check the project as this run left it
    (`Kept`). A project restored from the cache stores the parts a re-check cannot
    change (contexts, links, jobs the code defines) as it read them.
    `workflows_context`: the digest of the files `p.workflows` read
    (`run._context_digest`), which names the workflows kept beside the state;
    `run_key`: the run's key (None: it has none, its output is not kept)."""
    views, tree = p.views, p.tree
    if views is None or tree is None:
        return
    base = p.kept
    if base is not None:
        contexts, defined, runs_in, pooled = base.contexts, base.defined, base.runs_in, base.pooled
    else:
        contexts = {i: encode_values(c, (Context,)) for i, c in p.files.contexts.items()}
        defined = encode_values(
            [
                (rel, summary.links.jobs)
                for (_, rel, *_), summary in zip(p.inputs.files, p.files.summaries)
                if summary.links is not None and summary.links.jobs
            ]
        )
        links = p.runs_in
        runs_in = {k: sorted(v) for k, v in links.callers.items()} if links is not None else {}
        pooled = dict(links.pooled) if links is not None else {}
    if base is not None and base.workflows_context == workflows_context:
        workflows = base.workflows  # the same files and listings: the blob beside the state holds them
    else:
        encoded = _encode_workflows(p.workflows)
        workflows = encoded is not None
        if encoded is not None:  # named by the files' digest: a state stored after it names it too
            store.put_blob(_workflows_key(slot), workflows_context.encode() + b"\n" + encoded)
    try:
        kept = Kept(
            slot,
            p.context,
            os.fspath(p.inputs.cwd),
            [(display, rel, suffix, key) for display, rel, suffix, _, key in p.inputs.files],
            base.paths if base is not None else [os.path.abspath(path) for path in p.inputs.paths],
            dict(p.files.linked_keys),
            dict(p.files.judged),
            dict(contexts),
            sorted(p.non_delta),
            {name: sorted(members) for name, members in p.writers.items()},
            encode_values(p.first),
            runs_in,
            pooled,
            defined,
            dict(p.table_keys),
            tree.taken,
            views.rel_of,
            list(views.shared),
            list(views.diags),
            list(views.scans),
            views.skipped,
            views.n_intents,
            views.analysed,
            encode_values(p.shared, (Finding,)),
            p.shared_sources,
            workflows,
            workflows_context,
            [(kind, argument, tuple(answer)) for kind, argument, answer in p.workflows.listings],
            run_key,
            # a re-check that patches its output decodes only the tables judged again (`p.results`)
            sorted(
                (set(base.errored) - set(p.results) if base is not None else set())
                | {name for name, entry in p.results.items() if entry.errors}
            ),
        )
        whole = base.base if base is not None and base.base is not None else base
        delta = _delta(kept, whole) if whole is not None else None
        if delta is not None:  # the whole state stays: its delta names it
            store.put_blob(_delta_key(slot), _KEPT_ENCODER.encode(delta))
        else:  # a delta stored before names another state: it is not applied to this one
            store.put_blob(_state_key(slot), _KEPT_ENCODER.encode(kept))
    except (TypeError, ValueError, RecursionError):  # a value the cache cannot hold: not kept
        return
