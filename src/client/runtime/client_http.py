# The HTTP transport of a generated Python client (`--lang python --protocol http`), on tritonclient.http;
# it follows client_core.py in the module and uses its checks, split, retries and errors. Only the
# lines between the "embedded" markers go into a generated client; the imports above them are for the
# checkers (one module with client_core.py in a generated client).
#
# What it relies on, each cited where it is used:
# - client src/python/library/tritonclient/http/_utils.py _get_error: an answer other than 200 is an
#   InferenceServerException whose status() is the HTTP status as a string and message() the
#   server's {"error": ...}; _client.py InferenceServerClient.is_server_live / is_model_ready answer
#   status == 200; infer() adds Inference-Header-Content-Length to the headers dict it is given.
# - server src/http_server.cc HttpCodeFromError: INTERNAL 500, NOT_FOUND 404 (a model with no
#   available version: unloaded, or loading again), UNAVAILABLE 503, UNSUPPORTED 501 (a decoupled
#   model's infer over HTTP), INVALID_ARG and the rest 400.
# - geventhttpclient (under tritonclient.http): its sockets are gevent's, so gevent.Timeout bounds a
#   request; its failures are OSError (refused, reset), http.client.HTTPException (a closed or
#   garbled answer) and RuntimeError (a name it cannot resolve). It sends a request again by itself,
#   once, when a pooled connection closes before any answer (client.py HTTPClient.request).

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

import numpy.typing as npt

from client_core import (
    Aborted,
    _check_little_endian,
    InferenceFailed,
    InvalidInput,
    ModelNotReady,
    _ModelSpec,
    _q,
    _read_outputs,
    SequenceOptions,
    _Settings,
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
import http.client
import socket
import urllib.parse

# tritonclient.http and gevent carry no type information: loaded by name, typed Any.
_http: Any = importlib.import_module("tritonclient.http")
_gevent: Any = importlib.import_module("gevent")

# The connection's own socket limits stay out of the way: each request is bounded by gevent.Timeout.
_NO_LIMIT = 365 * 24 * 3600.0


def _network_cause(e: BaseException) -> Tuple[str, bool]:
    """Why a request failed, and whether it surely never reached the server."""
    if isinstance(e, ConnectionRefusedError):
        return "connection refused", True
    if isinstance(e, ConnectionResetError):
        return "connection reset", False
    if isinstance(e, socket.gaierror):
        return "name not found: " + str(e), True
    if isinstance(e, http.client.HTTPException):
        return "the connection ended without an answer" + (": " + str(e) if str(e) else ""), False
    return str(e) or type(e).__name__, False


def _server_error(spec: _ModelSpec, what: str, e: Any) -> TritonClientError:
    """The error an answer other than 200 stands for (server src/http_server.cc HttpCodeFromError)."""
    status_text = e.status()
    message = e.message()
    message = message if isinstance(message, str) else str(e)
    if status_text is None:
        # Raised by tritonclient itself before or after the request (client tritonclient/utils raise_error).
        return TritonClientError(what + ": " + message)
    try:
        status = int(status_text)
    except ValueError:
        return InferenceFailed(what + ": " + str(e))
    shown = what + ": HTTP " + str(status) + ": " + message
    if status == 404:
        return ModelNotReady("model " + _q(spec.name) + " is not ready: " + message, status, message)
    if status == 400:
        named = next((t.name for t in spec.inputs if "'" + t.name + "'" in message), None)
        return InvalidInput(shown, named, status, message)
    if status in (429, 502, 503, 504):
        return Unavailable(shown, status, message)
    if status == 501:
        return Unsupported(shown, status, message)
    if status == 403:
        # server src/http_server.cc RespondIfRestricted: 403 "This API is restricted, expecting header '<h>'".
        return TritonClientError(shown + " (the server restricts this API: pass the header it expects in connect()'s headers)", status, message)
    return InferenceFailed(shown, status, message)


class _Connection(_Transport):
    """The server's address and one tritonclient.http client, made again after a request it could not finish."""

    def __init__(self, spec: _ModelSpec, url: str, headers: Optional[Mapping[str, str]], version: Union[int, str, None], defaults: _Settings) -> None:
        if spec.decoupled:
            raise Unsupported("model " + _q(spec.name) + " is decoupled (model_transaction_policy { decoupled: true }): its responses stream, which Triton's HTTP endpoint cannot carry (it answers 501); use gRPC streaming for it")
        _check_little_endian()
        parsed = urllib.parse.urlsplit(url) if isinstance(url, str) else None
        if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.query or parsed.fragment:
            raise TritonClientError("not an http(s) URL: " + (_q(url) if isinstance(url, str) else repr(url)) + " (give the server's HTTP address, e.g. http://localhost:8000)")
        self.spec = spec
        self.base = url.rstrip("/")
        # tritonclient.http takes the address without its scheme, and ssl=True for https.
        self._target = parsed.netloc + parsed.path.rstrip("/")
        self._ssl = parsed.scheme == "https"
        self._netloc = parsed.netloc
        self._prefix = parsed.path.rstrip("/")
        self.headers: Dict[str, str] = dict(headers or {})
        self.version = "" if version is None else str(version)
        self.model_path = "/v2/models/" + urllib.parse.quote(spec.name, safe="") + ("/versions/" + urllib.parse.quote(self.version, safe="") if self.version else "")
        self.defaults = defaults
        self.infer_what = "POST " + self.model_path + "/infer"
        self.not_live = "GET /v2/health/live did not answer 200"
        self.not_ready = "GET " + self.model_path + "/ready did not answer 200"

    def new_client(self) -> Any:
        return _http.InferenceServerClient(self._target, ssl=self._ssl, connection_timeout=_NO_LIMIT, network_timeout=_NO_LIMIT)

    def call(self, what: str, limit: float, s: _Settings, request: Callable[[Any, Dict[str, str]], _T]) -> _T:
        """One request within limit seconds; its failures become the client's errors."""
        if limit <= 0:
            raise Timeout(what + ": no answer in time", None)
        timer = _gevent.Timeout(limit)
        timer.start()
        aborted = Aborted(what + ": aborted")
        # The cancel event is set from another thread: the hub looks at it every 50 ms while the request
        # waits, and ends the request as its own Timeout does (gevent/timeout.py: the timer's callback
        # throws into the waiting greenlet).
        poll = _gevent.get_hub().loop.timer(0.05, 0.05) if s.cancel is not None else None
        if poll is not None:
            target = _gevent.getcurrent()
            cancel = s.cancel

            def look() -> None:
                if cancel is not None and cancel.is_set():
                    poll.stop()
                    target.throw(aborted)

            poll.start(look)
        try:
            return request(self._triton(), {**self.headers, **s.headers})
        except _utils.InferenceServerException as e:
            raise _server_error(self.spec, what, e) from None
        except (OSError, http.client.HTTPException, RuntimeError) as e:
            # A request it could not finish leaves the connection in no known state: the next one starts afresh.
            self.drop()
            text, unsent = _network_cause(e)
            raise Unavailable("cannot reach " + self.base + " (" + text + ")", unsent=unsent) from None
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise InferenceFailed(what + ": the answer is not what the KServe v2 protocol documents (" + type(e).__name__ + ": " + str(e) + ")") from None
        except BaseException as e:
            self.drop()
            if e is timer:
                t = Timeout(what + ": no answer in time")
                t.retryable = True
                raise t from None
            if e is aborted:
                raise Aborted(what + ": aborted") from None
            raise
        finally:
            timer.close()
            if poll is not None:
                poll.close()

    def send_once(self, what: str, limit: float, s: _Settings, path: str, body: bytes, json_size: Optional[int]) -> Any:
        """
        One POST on a connection of its own that is never sent again (a sequence step, which must not run
        twice): tritonclient's transport sends a request again by itself when its connection closes before
        an answer. The body and the answer are tritonclient's own (generate_request_body, parse_response_body).
        """
        if limit <= 0:
            raise Timeout(what + ": no answer in time", None)
        if s.cancel is not None and s.cancel.is_set():
            raise Aborted(what + ": aborted")
        headers = {**self.headers, **s.headers, "Content-Type": "application/octet-stream"}
        if json_size is not None:
            headers["Inference-Header-Content-Length"] = str(json_size)
        conn = (http.client.HTTPSConnection if self._ssl else http.client.HTTPConnection)(self._netloc, timeout=limit)
        try:
            conn.request("POST", self._prefix + path, body=body, headers=headers)
            answer = conn.getresponse()
            data = answer.read()
        except socket.timeout:
            t = Timeout(what + ": no answer in time")
            t.retryable = True
            raise t from None
        except (OSError, http.client.HTTPException) as e:
            text, unsent = _network_cause(e)
            raise Unavailable("cannot reach " + self.base + " (" + text + ")", unsent=unsent) from None
        finally:
            conn.close()
        if answer.status != 200:
            try:
                message = json.loads(data.decode("utf-8"))["error"]
            except Exception:
                message = "the answer is not Triton's error JSON"
            raise _server_error(self.spec, what, _utils.InferenceServerException(msg=str(message), status=str(answer.status))) from None
        try:
            return _http.InferenceServerClient.parse_response_body(data, header_length=answer.getheader("Inference-Header-Content-Length"), content_encoding=answer.getheader("Content-Encoding"))
        except Exception as e:
            raise InferenceFailed(what + ": the answer is not what the KServe v2 protocol documents (" + type(e).__name__ + ": " + str(e) + ")") from None

    def probe(self, what: str, s: _Settings, request: Callable[[Any, Dict[str, str]], _T]) -> _T:
        """One request, not retried, within the call's time."""
        return _with_retries(dataclasses.replace(s, retries=0), False, lambda limit: self.call(what, limit, s, request))

    def live(self, s: _Settings) -> bool:
        return self.probe("GET /v2/health/live", s, lambda triton, h: bool(triton.is_server_live(headers=h)))

    def model_ready(self, s: _Settings) -> bool:
        return self.probe("GET " + self.model_path + "/ready", s, lambda triton, h: bool(triton.is_model_ready(self.spec.name, self.version, headers=h)))

    def repository_index(self, s: _Settings) -> List[Mapping[str, Any]]:
        index = self.probe("POST /v2/repository/index", s, lambda triton, h: triton.get_model_repository_index(headers=h))
        return index if isinstance(index, list) else []

    def model_metadata(self, s: _Settings) -> Mapping[str, Any]:
        meta = self.probe("GET " + self.model_path, s, lambda triton, h: triton.get_model_metadata(self.spec.name, self.version, headers=h))
        if not isinstance(meta, dict):
            raise InferenceFailed("GET " + self.model_path + ": the answer is not a JSON object")
        return meta

    def send(self, tensors: List[Tuple[_TensorSpec, npt.NDArray[Any]]], s: _Settings, seq: Optional[SequenceOptions]) -> Dict[str, npt.NDArray[Any]]:
        spec, what = self.spec, self.infer_what
        inputs = []
        for t, a in tensors:
            tensor = _http.InferInput(t.name, [int(d) for d in a.shape], t.datatype)
            # server docs/protocol/extension_binary_data.md: each input's bytes after the JSON header.
            tensor.set_data_from_numpy(a, binary_data=True)
            inputs.append(tensor)
        wanted = [_http.InferRequestedOutput(t.name, binary_data=True) for t in spec.outputs]

        def request(triton: Any, headers: Dict[str, str]) -> Any:
            return triton.infer(spec.name, inputs, model_version=self.version, outputs=wanted, request_id=s.request_id, headers=headers)

        if seq is None:
            result = _with_retries(s, False, lambda limit: self.call(what, limit, s, request))
        else:
            body, json_size = _http.InferenceServerClient.generate_request_body(
                inputs, outputs=wanted, request_id=s.request_id, sequence_id=seq.id, sequence_start=seq.start, sequence_end=seq.end,
            )
            path = self.model_path + "/infer"
            result = _with_retries(s, True, lambda limit: self.send_once(what, limit, s, path, body, json_size))

        def datatype_of(r: Any, name: str) -> Optional[str]:
            out = r.get_output(name)
            return None if out is None else str(out.get("datatype"))

        return _read_outputs(what, spec, result, datatype_of)
# ---- embedded up to the line above ----
