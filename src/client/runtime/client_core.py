# The part of every generated Python client that does not depend on the model or the protocol: the
# checks made before a request is sent, the batch split, the time limits, the retries' rule, the
# error classes and connect()'s probes, over a _Transport (client_http.py: on tritonclient.http, KServe
# v2 HTTP with Triton's binary tensor data; client_grpc.py: on tritonclient.grpc). It reads the model
# from the `_SPEC` the generator (src/client/python.ts) writes below it (names as escaped string
# literals, so no name from a config ever becomes code).
#
# Only the lines between the two "embedded" markers go into a generated client (cut out by
# src/client/runtime-text.ts); the lines outside them are for the checkers alone (mypy --strict and
# ruff, run by test/client/runtime-check.test.ts): the generated module's first line above, and
# below, the imports the transports and the generated part use.

from __future__ import annotations

# ---- embedded in each generated client from the next line ----
import dataclasses
import importlib
import json
import math
import random
import re
import sys
import threading
import time
import weakref
from typing import Any, Callable, Dict, Generator, Iterator, List, Mapping, Optional, Sequence, Tuple, TypedDict, TypeVar, Union, cast

import numpy
import numpy.typing as npt

# tritonclient carries no type information (no py.typed): loaded by name, typed Any here, so the
# module type-checks whatever the caller's mypy settings say about untyped imports.
_utils: Any = importlib.import_module("tritonclient.utils")

_T = TypeVar("_T")
_C = TypeVar("_C", bound="_Client")



class TritonClientError(Exception):
    """Every error the client raises. retryable says whether the same call may succeed later."""

    #: Whether the same call may succeed if tried again (the client has already retried it, within its bounds).
    retryable: bool = False

    def __init__(self, message: str, status: Optional[int] = None, server_message: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        #: The HTTP status of the answer (over gRPC, the status code), when there was one.
        self.status = status
        #: The server's own message ({"error": ...}, or the gRPC details), when it sent one.
        self.server_message = server_message
        #: How many requests the call made (1 when it was not retried).
        self.attempts = 1

    def __str__(self) -> str:
        return self.message


class ServerNotLive(TritonClientError):
    """GET /v2/health/live did not answer 200, or nothing answered at the URL."""


class ModelNotReady(TritonClientError):
    """The model is not ready (not loaded, or being loaded again): retryable, as a reload ends."""

    retryable = True


class InvalidInput(TritonClientError):
    """The inputs do not fit the model (checked before sending, naming the input), or the server refused them (HTTP 400, INVALID_ARGUMENT). Never retried."""

    def __init__(self, message: str, input: Optional[str] = None, status: Optional[int] = None, server_message: Optional[str] = None) -> None:
        super().__init__(message, status, server_message)
        #: The input at fault, when one is.
        self.input = input


class Unavailable(TritonClientError):
    """The server could not be reached, or answered 429, 502, 503 or 504 (over gRPC: UNAVAILABLE): transient, retried with backoff."""

    retryable = True

    def __init__(self, message: str, status: Optional[int] = None, server_message: Optional[str] = None, unsent: bool = False) -> None:
        super().__init__(message, status, server_message)
        #: Whether the request surely never reached the server (a refused connection, a name not found).
        self.unsent = unsent


class Timeout(TritonClientError):
    """No answer within the time given (timeout_s for the call, attempt_timeout_s for one request)."""


class Aborted(TritonClientError):
    """The caller's cancel event was set."""


class InferenceFailed(TritonClientError):
    """The server ran the request and failed (HTTP 500, gRPC INTERNAL, ...), or answered what the protocol does not allow."""


class ModelMismatch(TritonClientError):
    """The model the server serves is not the one this client was generated from (its inputs or outputs differ)."""


class Unsupported(TritonClientError):
    """What this client cannot do for this model (a decoupled model over HTTP, an infer of a decoupled model)."""


@dataclasses.dataclass(frozen=True)
class SequenceOptions:
    """A sequence's correlation: Triton's sequence_id, sequence_start and sequence_end parameters."""

    #: The correlation id: a whole number from 1 to 2**64 - 1, or a string where the model's CONTROL_SEQUENCE_CORRID is TYPE_STRING.
    id: Union[int, str]
    #: The first request of the sequence.
    start: bool = False
    #: The last request of the sequence.
    end: bool = False


@dataclasses.dataclass(frozen=True)
class _TensorSpec:
    name: str
    datatype: str
    dims: Tuple[int, ...]
    optional: bool = False


@dataclasses.dataclass(frozen=True)
class _ModelSpec:
    name: str
    max_batch_size: int
    inputs: Tuple[_TensorSpec, ...]
    outputs: Tuple[_TensorSpec, ...]
    sequence: bool
    decoupled: bool


@dataclasses.dataclass(frozen=True)
class _Settings:
    timeout_s: float = 60.0
    attempt_timeout_s: Optional[float] = None
    retries: int = 3
    backoff_s: float = 0.1
    max_backoff_s: float = 2.0
    split: bool = True
    headers: Mapping[str, str] = dataclasses.field(default_factory=dict)
    request_id: str = ""
    cancel: Optional[threading.Event] = None


# The numpy element type each protocol datatype travels in (client tritonclient/utils/__init__.py
# triton_to_np_dtype: BF16 as float32, whose top 16 bits are sent; BOOL as numpy.bool_).
_DTYPES: Dict[str, Any] = {
    "BOOL": numpy.bool_, "UINT8": numpy.uint8, "UINT16": numpy.uint16, "UINT32": numpy.uint32, "UINT64": numpy.uint64,
    "INT8": numpy.int8, "INT16": numpy.int16, "INT32": numpy.int32, "INT64": numpy.int64,
    "FP16": numpy.float16, "BF16": numpy.float32, "FP32": numpy.float32, "FP64": numpy.float64,
}

def _q(s: str) -> str:
    """A name in a message, as a JSON string."""
    return json.dumps(s, ensure_ascii=False)


def _shape_text(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _seconds(s: float) -> str:
    return "%g s" % s


def _expected_shape(spec: _ModelSpec, t: _TensorSpec) -> str:
    dims = ["any" if d < 0 else str(d) for d in t.dims]
    return "[" + ", ".join((["batch"] if spec.max_batch_size > 0 else []) + dims) + "]"


def decode_strings(data: npt.NDArray[numpy.object_]) -> List[str]:
    """The strings of a BYTES output (its byte strings, in order), decoded as UTF-8."""
    return [x.decode("utf-8") if isinstance(x, bytes) else str(x) for x in data.flatten().tolist()]


def _settings_of(defaults: _Settings, timeout_s: Optional[float], attempt_timeout_s: Optional[float], retries: Optional[int], backoff_s: Optional[float], max_backoff_s: Optional[float], split: Optional[bool] = None, headers: Optional[Mapping[str, str]] = None, request_id: Optional[str] = None, cancel: Optional[threading.Event] = None) -> _Settings:
    def pick(mine: Optional[_T], theirs: _T) -> _T:
        return theirs if mine is None else mine

    s = _Settings(
        timeout_s=pick(timeout_s, defaults.timeout_s),
        attempt_timeout_s=pick(attempt_timeout_s, defaults.attempt_timeout_s),
        retries=pick(retries, defaults.retries),
        backoff_s=pick(backoff_s, defaults.backoff_s),
        max_backoff_s=pick(max_backoff_s, defaults.max_backoff_s),
        split=pick(split, defaults.split),
        headers={**defaults.headers, **(headers or {})},
        request_id=pick(request_id, defaults.request_id),
        cancel=pick(cancel, defaults.cancel),
    )
    for name, value in (("timeout_s", s.timeout_s), ("backoff_s", s.backoff_s), ("max_backoff_s", s.max_backoff_s)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise TritonClientError(name + " must be a number of seconds, 0 or more; got " + repr(value))
    if s.attempt_timeout_s is not None and not (isinstance(s.attempt_timeout_s, (int, float)) and s.attempt_timeout_s > 0):
        raise TritonClientError("attempt_timeout_s must be a number of seconds above 0; got " + repr(s.attempt_timeout_s))
    if isinstance(s.retries, bool) or not isinstance(s.retries, int) or s.retries < 0:
        raise TritonClientError("retries must be a whole number, 0 or more; got " + repr(s.retries))
    return s


class _Transport:
    """
    What a connection does over its protocol (HTTP or gRPC): the probes connect() makes, one inference
    request with the call's retries, close. The checks, the split, the retries' rule and the errors are
    this module's, the same over either.
    """

    spec: _ModelSpec
    #: The server's address, as messages show it.
    base: str
    defaults: _Settings
    #: How messages name the infer request, and what a probe that says no answered.
    infer_what: str = "infer"
    not_live: str = "not live"
    not_ready: str = "not ready"

    def live(self, s: _Settings) -> bool:
        raise NotImplementedError

    def model_ready(self, s: _Settings) -> bool:
        raise NotImplementedError

    def repository_index(self, s: _Settings) -> List[Mapping[str, Any]]:
        """The repository index's entries: name, state, reason."""
        raise NotImplementedError

    def model_metadata(self, s: _Settings) -> Mapping[str, Any]:
        """The model's metadata: inputs and outputs, each a name, a datatype and a shape (a list of ints)."""
        raise NotImplementedError

    def send(self, tensors: List[Tuple[_TensorSpec, npt.NDArray[Any]]], s: _Settings, seq: Optional[SequenceOptions]) -> Dict[str, npt.NDArray[Any]]:
        """One request of at most max_batch_size, with the call's retries; its outputs by name."""
        raise NotImplementedError

    #: The tritonclient clients by thread, each made on first use (new_client) in its thread and held by
    #: it (a threading.local: a thread id is reused once its thread ends, the local is not): the HTTP one
    #: belongs to the thread that made it (its connection pool is gevent's, whose hub is per thread:
    #: another thread's request fails with greenlet's "Cannot switch to a different thread"), so one
    #: Client may be shared by threads. _clients holds them weakly, for close(): an ended thread's
    #: client goes with it.
    _local: Optional[threading.local] = None
    _clients: "Optional[weakref.WeakSet[Any]]" = None
    _clients_lock = threading.Lock()

    def new_client(self) -> Any:
        """A tritonclient client of this protocol, to this server."""
        raise NotImplementedError

    def _triton(self) -> Any:
        with self._clients_lock:
            if self._local is None or self._clients is None:
                self._local, self._clients = threading.local(), weakref.WeakSet()
            local, clients = self._local, self._clients
        client = getattr(local, "client", None)
        if client is None:
            client = self.new_client()
            local.client = client
            with self._clients_lock:
                clients.add(client)
        return client

    def drop(self) -> None:
        """Closes this thread's client, after a request it could not finish: the next one starts afresh."""
        local = self._local
        client = getattr(local, "client", None) if local is not None else None
        if local is not None:
            local.client = None
        _close_quietly(client)

    def close(self) -> None:
        """Closes every thread's client."""
        with self._clients_lock:
            clients = list(self._clients or [])
            self._local, self._clients = None, None
        for client in clients:
            _close_quietly(client)


def _close_quietly(client: Any) -> None:
    if client is not None:
        try:
            client.close()
        except Exception:
            pass


def _sleep(seconds: float, cancel: Optional[threading.Event]) -> None:
    if cancel is not None:
        cancel.wait(seconds)
    else:
        time.sleep(seconds)


def _with_retries(s: _Settings, sequence: bool, attempt: Callable[[float], _T]) -> _T:
    """
    Runs attempt(limit) until it succeeds, fails for good, or the call's time or retries run out. Only
    retryable errors are retried; for a sequence, only those where the request surely did not run
    (refused connection, 429/503, model not ready), so no step of a sequence is applied twice.
    """
    deadline = time.monotonic() + s.timeout_s
    attempts = 1
    while True:
        left = deadline - time.monotonic()
        limit = max(0.0, min(left, s.attempt_timeout_s if s.attempt_timeout_s is not None else left))
        try:
            if s.cancel is not None and s.cancel.is_set():
                raise Aborted("aborted before it was sent")
            return attempt(limit)
        except TritonClientError as e:
            e.attempts = attempts
            unsent = isinstance(e, ModelNotReady) or (isinstance(e, Unavailable) and (e.unsent or e.status in (429, 503)))
            wait = min(s.max_backoff_s, s.backoff_s * 2 ** (attempts - 1)) * (0.5 + random.random() / 2)
            cancelled = s.cancel is not None and s.cancel.is_set()
            again = e.retryable and attempts <= s.retries and (not sequence or unsent) and time.monotonic() + wait < deadline and not cancelled
            if not again:
                if isinstance(e, Timeout) and time.monotonic() >= deadline:
                    t = Timeout(e.message.replace("no answer in time", "no answer within " + _seconds(s.timeout_s)) + (" (" + str(attempts) + " attempts)" if attempts > 1 else ""), e.status, e.server_message)
                    t.attempts = attempts
                    raise t from None
                if attempts > 1:
                    e.message += " (after " + str(attempts) + " attempts)"
                    e.args = (e.message,)
                raise
            _sleep(wait, s.cancel)
            attempts += 1


def _check_inputs(spec: _ModelSpec, inputs: Mapping[str, object], split: bool, no_split: str) -> int:
    """The checks Triton makes of a request, made here first so a bad input is named before anything is sent."""
    if not isinstance(inputs, Mapping):
        raise InvalidInput("infer() takes a dict of numpy arrays by input name; got " + type(inputs).__name__)
    known = {t.name for t in spec.inputs}
    for name, value in inputs.items():
        if name not in known and value is not None:
            raise InvalidInput("model " + _q(spec.name) + " has no input " + _q(str(name)) + "; its inputs: " + ", ".join(_q(t.name) for t in spec.inputs), str(name))
    batch: Optional[int] = None
    batch_from = ""
    for t in spec.inputs:
        value = inputs.get(t.name)
        shown = "input " + _q(t.name)
        if value is None:
            if t.optional:
                continue
            raise InvalidInput(shown + " is missing (model " + _q(spec.name) + " requires it)", t.name)
        if t.datatype == "BYTES":
            wanted = "a numpy array of bytes or str (dtype object, or bytes_)"
            if not isinstance(value, numpy.ndarray) or value.dtype.kind not in ("O", "S"):
                raise InvalidInput(shown + " takes " + wanted + " (TYPE_STRING); got " + (str(value.dtype) if isinstance(value, numpy.ndarray) else type(value).__name__), t.name)
            if value.dtype.kind == "O":
                odd = next((x for x in value.flat if not isinstance(x, (bytes, str))), None)
                if odd is not None:
                    raise InvalidInput(shown + " takes bytes or str elements (TYPE_STRING); got " + type(odd).__name__, t.name)
        else:
            dtype = numpy.dtype(_DTYPES[t.datatype])
            if not isinstance(value, numpy.ndarray) or value.dtype != dtype:
                raise InvalidInput(shown + " takes a numpy array of " + dtype.name + " (" + t.datatype + "); got " + (str(value.dtype) if isinstance(value, numpy.ndarray) else type(value).__name__), t.name)
        shape = tuple(int(d) for d in value.shape)
        item_dims = shape[1:] if spec.max_batch_size > 0 else shape
        rank_ok = len(shape) == len(t.dims) + (1 if spec.max_batch_size > 0 else 0)
        if not rank_ok or any(d >= 0 and item_dims[i] != d for i, d in enumerate(t.dims)):
            raise InvalidInput(shown + ": shape " + _shape_text(shape) + " does not match the model's " + _expected_shape(spec, t) + (" (the batch axis first: max_batch_size is " + str(spec.max_batch_size) + ")" if spec.max_batch_size > 0 else ""), t.name)
        if spec.max_batch_size > 0:
            b = shape[0]
            if b < 1:
                raise InvalidInput(shown + ": the batch (the first dim) must be 1 or more; got " + str(b), t.name)
            if batch is None:
                batch, batch_from = b, t.name
            elif b != batch:
                raise InvalidInput(shown + ": batch " + str(b) + " differs from input " + _q(batch_from) + "'s batch " + str(batch) + " (all inputs share the first dim)", t.name)
    if batch is not None and batch > spec.max_batch_size and not split:
        raise InvalidInput("input " + _q(batch_from) + ": batch " + str(batch) + " is larger than the model's max_batch_size " + str(spec.max_batch_size) + " (" + no_split + ")", batch_from)
    return 1 if batch is None else batch


def _check_sequence(spec: _ModelSpec, seq: Optional[SequenceOptions]) -> None:
    if spec.sequence and seq is None:
        raise InvalidInput("model " + _q(spec.name) + " is a sequence model: give sequence=SequenceOptions(id, start, end)")
    if seq is None:
        return
    if not isinstance(seq, SequenceOptions):
        raise InvalidInput("sequence takes a SequenceOptions; got " + type(seq).__name__)
    ok = (isinstance(seq.id, str) and seq.id != "") or (isinstance(seq.id, int) and not isinstance(seq.id, bool) and 0 < seq.id < 2**64)
    if not ok:
        raise InvalidInput("sequence.id must be a whole number from 1 to 2**64 - 1 or a non-empty string; got " + repr(seq.id))


def _read_outputs(what: str, spec: _ModelSpec, result: Any, datatype_of: Callable[[Any, str], Optional[str]]) -> Dict[str, npt.NDArray[Any]]:
    """Each output of an answer (tritonclient's InferResult) as a numpy array, its datatype the spec's."""
    out: Dict[str, npt.NDArray[Any]] = {}
    for t in spec.outputs:
        datatype = datatype_of(result, t.name)
        if datatype is None:
            raise InferenceFailed(what + ": the answer has no output " + _q(t.name))
        if datatype != t.datatype:
            raise InferenceFailed(what + ": output " + _q(t.name) + " came as " + str(datatype) + ", not " + t.datatype + " (the server's model differs from this client's)")
        try:
            array = result.as_numpy(t.name)
        except Exception as e:
            raise InferenceFailed(what + ": output " + _q(t.name) + " cannot be read (" + str(e) + ")") from None
        if not isinstance(array, numpy.ndarray):
            raise InferenceFailed(what + ": output " + _q(t.name) + " has no data")
        out[t.name] = array
    return out


def _infer(c: _Transport, inputs: Mapping[str, object], s: _Settings, seq: Optional[SequenceOptions]) -> Dict[str, npt.NDArray[Any]]:
    """One infer call: checked, split into requests of at most max_batch_size, sent with retries, outputs joined."""
    spec = c.spec
    _check_sequence(spec, seq)
    batch = _check_inputs(spec, inputs, s.split and seq is None, "split is off" if seq is None else "a sequence's request is never split")
    step = spec.max_batch_size if spec.max_batch_size > 0 else batch
    present = [t for t in spec.inputs if inputs.get(t.name) is not None]
    parts: List[List[npt.NDArray[Any]]] = [[] for _ in spec.outputs]
    for start in range(0, batch, step):
        end = min(batch, start + step)
        arrays = [numpy.asarray(inputs[t.name]) for t in present]
        if spec.max_batch_size > 0:
            arrays = [a[start:end] for a in arrays]
        outputs = c.send(list(zip(present, arrays)), s, seq)
        for i, t in enumerate(spec.outputs):
            parts[i].append(outputs[t.name])
    joined: Dict[str, npt.NDArray[Any]] = {}
    for i, t in enumerate(spec.outputs):
        p = parts[i]
        if len(p) == 1:
            joined[t.name] = p[0]
            continue
        # Joined along the batch axis: the other dims must agree.
        for q in p[1:]:
            if q.ndim != p[0].ndim or q.shape[1:] != p[0].shape[1:]:
                raise InferenceFailed("output " + _q(t.name) + ": the split requests answered shapes " + _shape_text(p[0].shape) + " and " + _shape_text(q.shape) + ", which do not join; call with split=False and a batch of at most " + str(spec.max_batch_size))
        joined[t.name] = numpy.concatenate(p, axis=0)
    return joined


def _not_ready_reason(c: _Transport, s: _Settings) -> str:
    """Why the model is not ready, from the repository index when the server answers it."""
    try:
        index = c.repository_index(s)
    except TritonClientError:
        # The index is an extension (model_repository); a restricted or missing one says nothing.
        return c.not_ready
    mine = [e for e in index if isinstance(e, Mapping) and e.get("name") == c.spec.name] if isinstance(index, list) else []
    if mine:
        return "; ".join(str(e.get("state") or "no state") + (": " + str(e["reason"]) if e.get("reason") else "") for e in mine)
    return "the server's repository has no model " + _q(c.spec.name)


def _check_metadata(c: _Transport, s: _Settings) -> None:
    """Compares the server's model metadata (GET /v2/models/<m>, ModelMetadata) with the spec: names, datatypes, dims."""
    spec = c.spec
    meta = c.model_metadata(s)
    problems: List[str] = []

    def compare(side: str, mine: Tuple[_TensorSpec, ...], theirs: Any) -> None:
        by_name = {x.get("name"): x for x in theirs if isinstance(x, Mapping)} if isinstance(theirs, list) else {}
        for t in mine:
            there = by_name.pop(t.name, None)
            if there is None:
                if not t.optional:
                    problems.append(side + " " + _q(t.name) + " is not served")
                continue
            if there.get("datatype") != t.datatype:
                problems.append(side + " " + _q(t.name) + " is " + str(there.get("datatype")) + " there, " + t.datatype + " here")
            shape = there.get("shape")
            if isinstance(shape, list):
                dims = shape[1:] if spec.max_batch_size > 0 else shape
                if len(dims) != len(t.dims) or any(d != e for d, e in zip(dims, t.dims)):
                    problems.append(side + " " + _q(t.name) + " has shape " + _shape_text(shape) + " there, " + _expected_shape(spec, t) + " here")
        for name in by_name:
            problems.append(side + " " + _q(str(name)) + " is served but not known here")

    compare("input", spec.inputs, meta.get("inputs"))
    compare("output", spec.outputs, meta.get("outputs"))
    if problems:
        raise ModelMismatch("the server's model " + _q(spec.name) + " is not the one this client was generated from: " + "; ".join(problems) + "; generate the client again from the config the server loads (tritonc client)")


def _check_little_endian() -> None:
    if sys.byteorder != "little":
        raise Unsupported("this client sends tensors as they lie in memory, which Triton reads as little-endian; this machine is big-endian")


def _connect(c: _Transport, wait_s: float, check_metadata: bool) -> _Transport:
    """Waits (up to wait_s) until the server is live and the model ready, then compares the metadata; the connection, or the error."""
    spec, defaults = c.spec, c.defaults
    until = time.monotonic() + wait_s
    while True:
        problem: TritonClientError
        try:
            if not c.live(defaults):
                problem = ServerNotLive("server at " + c.base + " is not live: " + c.not_live)
            else:
                if c.model_ready(defaults):
                    break
                problem = ModelNotReady("model " + _q(spec.name) + " is not ready: " + _not_ready_reason(c, defaults))
        except ModelNotReady as e:
            problem = e
        except (Unavailable, Timeout) as e:
            cause = e.message.replace("cannot reach " + c.base + " ", "")
            if cause.startswith("(") and cause.endswith(")"):
                cause = cause[1:-1]
            problem = ServerNotLive("server at " + c.base + " is not live: " + cause)
        left = until - time.monotonic()
        if left <= 0:
            c.close()
            raise problem
        time.sleep(min(0.5, left))
    if check_metadata:
        try:
            _check_metadata(c, defaults)
        except BaseException:
            c.close()
            raise
    return c


class _Client:
    """What every model's Client shares: the connection, ready(), close()."""

    def __init__(self, connection: _Transport) -> None:
        self._c = connection

    @property
    def url(self) -> str:
        """The server's URL."""
        return self._c.base

    def ready(self, *, timeout_s: Optional[float] = None) -> bool:
        """Whether the model is ready now (GET /v2/models/<m>/ready, ModelReady)."""
        return self._c.model_ready(_settings_of(self._c.defaults, timeout_s, None, None, None, None))

    def close(self) -> None:
        """Closes the connection (a later call opens a new one)."""
        self._c.close()

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
# ---- embedded up to the line above ----

# For ruff: what the gRPC transport and the generated part use of the imports above.
__all__ = ["Generator", "Iterator", "TypedDict", "cast", "re"]
