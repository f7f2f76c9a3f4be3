# The KServe v2 gRPC transport of a generated Python client (`--lang python --protocol grpc`), on
# tritonclient.grpc: the probes and ModelInfer as tritonclient's calls with the attempt's time as their
# gRPC deadline, gRPC statuses to the client's errors (as the TypeScript gRPC client maps them,
# client-grpc.ts), and a decoupled model's responses over ModelStreamInfer (tritonclient's
# start_stream / async_stream_infer with a callback) turned into a generator of outputs. It follows
# client_core.py in the module and uses its checks, split, retries and errors. Only the lines between
# the "embedded" markers go into a generated client; the imports above them are for the checkers (one
# module with client_core.py in a generated client).
#
# What it relies on, each cited where it is used:
# - client src/python/library/tritonclient/grpc/_utils.py get_error_grpc: a failed call is an
#   InferenceServerException whose status() is str(grpc.StatusCode.X), "StatusCode.X", and message()
#   the details; a stream's response with an error_message is one with no status
#   (_infer_stream.py _InferStream._process_response), and a cancelled stream's is "StatusCode.CANCELLED".
# - server src/grpc/grpc_utils.cc GrpcStatusUtil::CodeToStatus: each Triton error's code as the gRPC
#   status (NOT_FOUND for a model with no available version, INVALID_ARGUMENT, UNAVAILABLE, INTERNAL,
#   UNIMPLEMENTED for a decoupled model's ModelInfer).
# - server src/grpc/stream_infer_handler.cc: each response of a decoupled model carries the parameter
#   triton_final_response; an empty final response comes only when the request asks for it
#   (tritonclient's enable_empty_final_response, the parameter triton_enable_empty_final_response).

from __future__ import annotations

import dataclasses
import importlib
import numpy
import random
import re
import threading
import time
from typing import Any, Callable, Dict, Generator, Iterator, List, Mapping, Optional, Tuple, Union, cast

import numpy.typing as npt

from client_core import (
    Aborted,
    _check_inputs,
    _check_little_endian,
    _check_sequence,
    InferenceFailed,
    InvalidInput,
    ModelNotReady,
    _ModelSpec,
    _q,
    _read_outputs,
    _seconds,
    SequenceOptions,
    _Settings,
    _sleep,
    _T,
    _TensorSpec,
    Timeout,
    _Transport,
    TritonClientError,
    Unavailable,
    Unsupported,
    _utils,
    _with_retries,
)

# ---- embedded in each generated client from the next line ----
import queue

# tritonclient.grpc and grpc carry no type information the client relies on: loaded by name, typed Any.
_grpcclient: Any = importlib.import_module("tritonclient.grpc")
_grpc: Any = importlib.import_module("grpc")

# Triton's messages of a request it did not take (so it surely did not run), by source.
_NOT_TAKEN = (
    "Exceeds maximum queue size",  # core src/scheduler_utils.cc PriorityQueue::PolicyQueue::Enqueue (UNAVAILABLE)
    "Server not ready",  # core src/server.cc InferenceServer::InferAsync (UNAVAILABLE)
    "Server is stopping",  # core src/dynamic_batch_scheduler.cc DynamicBatchScheduler::Enqueue (UNAVAILABLE)
)
# Triton's messages of a model without a ready version: core src/model_repository_manager/model_lifecycle.cc ModelLifeCycle::GetModel.
_NOT_READY = re.compile(r"has no available versions|is not at ready state|Request for unknown model")
# grpc-core's words for a connection never made (the call never left): "failed to connect to all
# addresses; last error: UNKNOWN: ipv4:127.0.0.1:1: Failed to connect to remote host: Connection refused".
_REFUSED = re.compile(r"failed to connect to all addresses|Connection refused")
_ADDRESS = re.compile(r"^(?:(grpcs?)://)?((?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):[0-9]{1,5})/?$")
_METADATA_KEY = re.compile(r"^[a-z0-9_.-]+$")
_METADATA_VALUE = re.compile(r"^[\x20-\x7e]*$")


def _status_of(e: Any) -> Tuple[Optional[int], str, str]:
    """A tritonclient error's gRPC status code (None where it has none), its name, and its message."""
    status_text = e.status()
    message = e.message()
    message = message if isinstance(message, str) else str(e)
    if not isinstance(status_text, str):
        return None, "", message
    name = status_text.replace("StatusCode.", "")
    # By member name only: getattr would also find the class's attributes ("__class__", "name").
    code = _grpc.StatusCode.__members__.get(name)
    return (int(code.value[0]) if code is not None else None), name, message


def _stream_message_error(spec: _ModelSpec, what: str, message: str) -> TritonClientError:
    """A stream's error_message (no status code: server src/grpc/stream_infer_handler.cc), read by Triton's wording."""
    if _NOT_READY.search(message):
        return ModelNotReady("model " + _q(spec.name) + " is not ready: " + message, None, message)
    if any(m in message for m in _NOT_TAKEN):
        return Unavailable(what + ": " + message, None, message, unsent=True)
    return InferenceFailed(what + ": " + message, None, message)


def _grpc_error(c: "_GrpcConnection", what: str, e: Any) -> TritonClientError:
    """The error a failed call stands for (server src/grpc/grpc_utils.cc GrpcStatusUtil::CodeToStatus gives Triton's codes)."""
    spec = c.spec
    code, name, details = _status_of(e)
    if code is None:
        # Raised by tritonclient itself before or after the call (client tritonclient/utils raise_error).
        return TritonClientError(what + ": " + details)
    if name == "DEADLINE_EXCEEDED":
        t = Timeout(what + ": no answer in time", code, details)
        t.retryable = True
        return t
    if name == "CANCELLED":
        return Aborted(what + ": aborted", code, details)
    shown = what + ": " + name + ": " + details
    if name == "NOT_FOUND" or _NOT_READY.search(details):
        return ModelNotReady("model " + _q(spec.name) + " is not ready: " + details, code, details)
    if name == "INVALID_ARGUMENT":
        named = next((t.name for t in spec.inputs if "'" + t.name + "'" in details), None)
        return InvalidInput(shown, named, code, details)
    if name == "UNAVAILABLE":
        # server src/grpc/grpc_server.cc CommonCallData::Execute: a restricted protocol answers UNAVAILABLE
        # "This protocol is restricted, expecting header '<h>'", which no retry mends.
        if details.startswith("This protocol is restricted"):
            return TritonClientError(shown + " (the server restricts this protocol: pass the header it expects in connect()'s headers)", code, details)
        if _REFUSED.search(details):
            return Unavailable("cannot reach " + c.base + " (" + ("connection refused" if "Connection refused" in details else details) + ")", code, details, unsent=True)
        return Unavailable(shown, code, details, unsent=any(m in details for m in _NOT_TAKEN))
    if name == "UNIMPLEMENTED":
        return Unsupported(shown, code, details)
    return InferenceFailed(shown, code, details)


def _datatype_of(result: Any, name: str) -> Optional[str]:
    out = result.get_output(name)
    return None if out is None else str(out.datatype)


def _sequence_id(seq: SequenceOptions) -> Union[int, str]:
    # server src/grpc/infer_handler.cc SetInferenceRequestMetadata: sequence_id as int64_param is read as
    # the uint64 correlation id (the same 64 bits), so an id from 2**63 goes as its two's complement.
    if isinstance(seq.id, int) and seq.id >= 2**63:
        return seq.id - 2**64
    return seq.id


class _GrpcConnection(_Transport):
    """The server's gRPC address and one tritonclient.grpc client (its channel); each stream has a client of its own."""

    def __init__(self, spec: _ModelSpec, url: str, headers: Optional[Mapping[str, str]], version: Union[int, str, None], defaults: _Settings) -> None:
        _check_little_endian()
        m = _ADDRESS.match(url) if isinstance(url, str) else None
        if m is None:
            raise TritonClientError("not a gRPC address: " + (_q(url) if isinstance(url, str) else repr(url)) + " (give host:port, grpc://host:port or grpcs://host:port, e.g. localhost:8001)")
        self.spec = spec
        self._tls = m.group(1) == "grpcs"
        self._address = m.group(2)
        self.base = ("grpcs://" if self._tls else "grpc://") + self._address
        self.version = "" if version is None else str(version)
        self.defaults = defaults
        self.headers: Dict[str, str] = dict(headers or {})
        self._metadata(defaults)
        self.infer_what = "ModelInfer " + _q(spec.name)
        self.not_live = "ServerLive answered false"
        self.not_ready = "ModelReady answered false"

    def new_client(self) -> Any:
        # tritonclient.grpc's own channel options: messages up to 2**31 - 1 bytes each way (client _client.py MAX_GRPC_MESSAGE_SIZE).
        return _grpcclient.InferenceServerClient(self._address, ssl=self._tls)

    def _metadata(self, s: _Settings) -> Dict[str, str]:
        """connect()'s headers, then the call's, as gRPC metadata (keys lower-cased, as gRPC requires)."""
        out: Dict[str, str] = {}
        for k, v in {**self.headers, **s.headers}.items():
            key = str(k).lower()
            if not _METADATA_KEY.match(key) or not isinstance(v, str) or not _METADATA_VALUE.match(v):
                raise TritonClientError("header " + _q(str(k)) + " cannot be gRPC metadata (a key is letters, digits, \"-\", \"_\" and \".\"; a value printable ASCII)")
            out[key] = v
        return out

    def call(self, what: str, limit: float, s: _Settings, request: Callable[[Any, Dict[str, str], float], _T]) -> _T:
        """One unary call, its gRPC deadline limit seconds away; its failures become the client's errors."""
        if limit <= 0:
            raise Timeout(what + ": no answer in time")
        headers = self._metadata(s)
        try:
            return request(self._triton(), headers, limit)
        except _utils.InferenceServerException as e:
            raise _grpc_error(self, what, e) from None
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise InferenceFailed(what + ": the answer is not what the KServe v2 protocol documents (" + type(e).__name__ + ": " + str(e) + ")") from None

    def probe(self, what: str, s: _Settings, request: Callable[[Any, Dict[str, str], float], _T]) -> _T:
        """One call, not retried, within the call's time."""
        return _with_retries(dataclasses.replace(s, retries=0), False, lambda limit: self.call(what, limit, s, request))

    def live(self, s: _Settings) -> bool:
        return self.probe("ServerLive", s, lambda triton, h, limit: bool(triton.is_server_live(headers=h, client_timeout=limit)))

    def model_ready(self, s: _Settings) -> bool:
        return self.probe("ModelReady", s, lambda triton, h, limit: bool(triton.is_model_ready(self.spec.name, self.version, headers=h, client_timeout=limit)))

    def repository_index(self, s: _Settings) -> List[Mapping[str, Any]]:
        # RepositoryIndexResponse { repeated ModelIndex models = 1; }, ModelIndex { name, version, state, reason }.
        index = self.probe("RepositoryIndex", s, lambda triton, h, limit: triton.get_model_repository_index(headers=h, client_timeout=limit))
        return [{"name": e.name, "state": e.state, "reason": e.reason} for e in index.models]

    def model_metadata(self, s: _Settings) -> Mapping[str, Any]:
        meta = self.probe("ModelMetadata", s, lambda triton, h, limit: triton.get_model_metadata(self.spec.name, self.version, headers=h, client_timeout=limit))

        def tensors(xs: Any) -> List[Dict[str, Any]]:
            return [{"name": x.name, "datatype": x.datatype, "shape": [int(d) for d in x.shape]} for x in xs]

        return {"inputs": tensors(meta.inputs), "outputs": tensors(meta.outputs)}

    def _request_of(self, tensors: List[Tuple[_TensorSpec, npt.NDArray[Any]]], s: _Settings, seq: Optional[SequenceOptions]) -> Tuple[List[Any], List[Any], Dict[str, Any]]:
        inputs = []
        for t, a in tensors:
            tensor = _grpcclient.InferInput(t.name, [int(d) for d in a.shape], t.datatype)
            # Sent in raw_input_contents (client tritonclient/grpc/_infer_input.py set_data_from_numpy).
            tensor.set_data_from_numpy(a)
            inputs.append(tensor)
        wanted = [_grpcclient.InferRequestedOutput(t.name) for t in self.spec.outputs]
        extra: Dict[str, Any] = {}
        if seq is not None:
            extra = {"sequence_id": _sequence_id(seq), "sequence_start": seq.start, "sequence_end": seq.end}
        return inputs, wanted, extra

    def send(self, tensors: List[Tuple[_TensorSpec, npt.NDArray[Any]]], s: _Settings, seq: Optional[SequenceOptions]) -> Dict[str, npt.NDArray[Any]]:
        spec, what = self.spec, self.infer_what
        if spec.decoupled:
            raise Unsupported("model " + _q(spec.name) + " is decoupled: its responses come over a stream (stream()), which ModelInfer cannot carry")
        inputs, wanted, extra = self._request_of(tensors, s, seq)

        def attempt(limit: float) -> Any:
            if limit <= 0:
                raise Timeout(what + ": no answer in time")
            headers = self._metadata(s)
            answered = threading.Event()
            box: List[Tuple[Any, Any]] = []

            def done(result: Any, error: Any) -> None:
                box.append((result, error))
                answered.set()

            try:
                context = self._triton().async_infer(spec.name, inputs, done, model_version=self.version, outputs=wanted, request_id=s.request_id, client_timeout=limit, headers=headers, **extra)
            except _utils.InferenceServerException as e:
                raise _grpc_error(self, what, e) from None
            # The call's deadline is gRPC's; the cancel event is looked at every 50 ms meanwhile, and a
            # call that outlives its deadline without a word is given up 5 s after it.
            until = time.monotonic() + limit + 5.0
            while not answered.wait(0.05):
                if s.cancel is not None and s.cancel.is_set():
                    context.cancel()
                    raise Aborted(what + ": aborted")
                if time.monotonic() > until:
                    context.cancel()
                    raise Timeout(what + ": no answer in time")
            result, error = box[0]
            if error is not None:
                raise _grpc_error(self, what, error)
            return result

        # gRPC sends a call again by itself only where it never reached the server (grpc-core's
        # transparent retry), so a sequence step needs no connection of its own: only the rule below.
        result = _with_retries(s, seq is not None, attempt)
        return _read_outputs(what, spec, result, _datatype_of)


def _stream_once(c: _GrpcConnection, what: str, tensors: List[Tuple[_TensorSpec, npt.NDArray[Any]]], s: _Settings, seq: Optional[SequenceOptions], deadline: float) -> Generator[Dict[str, npt.NDArray[Any]], None, None]:
    """One ModelStreamInfer stream of one request: each response's outputs, in order, until the final one."""
    spec = c.spec
    if s.cancel is not None and s.cancel.is_set():
        raise Aborted(what + ": aborted before it was sent")
    left = deadline - time.monotonic()
    if left <= 0:
        raise Timeout(what + ": no answer in time")
    inputs, wanted, extra = c._request_of(tensors, s, seq)
    headers = c._metadata(s)
    # tritonclient calls back on its stream's thread; a bounded queue holds that thread (and so the
    # stream, by gRPC's flow control) while 16 responses wait to be read, until the stream is closed.
    answers: "queue.Queue[Tuple[Any, Any]]" = queue.Queue(maxsize=16)
    closed = threading.Event()

    def callback(result: Any, error: Any) -> None:
        while not closed.is_set():
            try:
                answers.put((result, error), timeout=0.05)
                return
            except queue.Full:
                continue

    triton = c.new_client()
    try:
        try:
            triton.start_stream(callback, stream_timeout=left, headers=headers)
            triton.async_stream_infer(spec.name, inputs, model_version=c.version, outputs=wanted, request_id=s.request_id, enable_empty_final_response=True, **extra)
        except _utils.InferenceServerException as e:
            raise _grpc_error(c, what, e) from None
        while True:
            try:
                result, error = answers.get(timeout=0.05)
            except queue.Empty:
                if s.cancel is not None and s.cancel.is_set():
                    raise Aborted(what + ": aborted") from None
                # A stream the server ended (status OK) without a final response: tritonclient's reader
                # thread (_infer_stream.py _InferStream._handler) stops without a callback, so it is asked.
                handler = getattr(getattr(triton, "_stream", None), "_handler", None)
                if handler is not None and not handler.is_alive() and answers.empty():
                    return
                # The stream's deadline is gRPC's (DEADLINE_EXCEEDED); this only bounds a stream that never says so.
                if time.monotonic() > deadline + 5.0:
                    raise Timeout(what + ": no answer in time") from None
                continue
            if error is not None:
                # A response's error_message has no status (client _infer_stream.py _process_response); the stream's own failure has one.
                raise _stream_message_error(spec, what, _status_of(error)[2]) if error.status() is None else _grpc_error(c, what, error)
            response = result.get_response()
            final = "triton_final_response" in response.parameters and bool(response.parameters["triton_final_response"].bool_param)
            if len(response.outputs) > 0:
                yield _read_outputs(what, spec, result, _datatype_of)
            if final:
                return
    finally:
        # Done, failed, or a consumer that stopped early: the stream is cancelled (a no-op after the
        # final response), never left open, and the stream's client closed.
        closed.set()
        try:
            triton.stop_stream(cancel_requests=True)
            triton.close()
        except Exception:
            pass


def _stream(c: _Transport, inputs: Mapping[str, object], s: _Settings, seq: Optional[SequenceOptions]) -> Iterator[Dict[str, npt.NDArray[Any]]]:
    """A decoupled model's responses to one request (checked as infer()'s are; never split), retried only before the first response where the request surely did not run."""
    g = cast(_GrpcConnection, c)
    spec = g.spec
    _check_sequence(spec, seq)
    _check_inputs(spec, inputs, False, "a stream's request is never split")
    tensors = [(t, numpy.asarray(inputs[t.name])) for t in spec.inputs if inputs.get(t.name) is not None]
    what = "ModelStreamInfer " + _q(spec.name)
    deadline = time.monotonic() + s.timeout_s
    attempts = 1
    while True:
        given = 0
        one = _stream_once(g, what, tensors, s, seq, deadline)
        try:
            for outputs in one:
                given += 1
                yield outputs
            return
        except TritonClientError as e:
            e.attempts = attempts
            unsent = isinstance(e, ModelNotReady) or (isinstance(e, Unavailable) and e.unsent)
            wait = min(s.max_backoff_s, s.backoff_s * 2 ** (attempts - 1)) * (0.5 + random.random() / 2)
            cancelled = s.cancel is not None and s.cancel.is_set()
            if not (given == 0 and e.retryable and unsent and attempts <= s.retries and time.monotonic() + wait < deadline and not cancelled):
                if isinstance(e, Timeout):
                    e.message = e.message.replace("no answer in time", "the stream ran past its " + _seconds(s.timeout_s))
                if attempts > 1:
                    e.message += " (after " + str(attempts) + " attempts)"
                e.args = (e.message,)
                raise
        finally:
            one.close()
        _sleep(wait, s.cancel)
        attempts += 1
# ---- embedded up to the line above ----
